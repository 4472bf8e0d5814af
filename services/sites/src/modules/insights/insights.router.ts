import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { siteEventsRecorder } from '../../commands/site-events-recorder.ts';
import { loadEventsToRecord, loadInsightsSummary, loadSiteForInsights } from './insights.loader.ts';
import { presentInsightsSummary } from './insights.presenter.ts';

/** Site insights: the events a published site's renderer reports, and their summary. */
export const insightsProcedures = {
  trackEventsInSiteById: implement(ops.trackEventsInSiteById, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'track');
    await siteEventsRecorder(ctx.em, { rows: loadEventsToRecord(ctx, site, input.events) });
  }),
  getSiteInsightsSummary: implement(ops.getSiteInsightsSummary, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'view');
    return presentInsightsSummary(await loadInsightsSummary(ctx, site, input.days));
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
