import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { siteEventsRecorder } from '../../commands/site-events-recorder.ts';
import { loadEventsToRecord, loadInsightsSummary, loadSiteForInsights } from './insights.loader.ts';
import { loadSiteEventsAggregate, loadVisitorTotals } from './insights-aggregate.loader.ts';
import { presentInsightsSummary, presentSiteEventsAggregate, presentVisitorSegments } from './insights.presenter.ts';

/** Site insights: the events a published site's renderer reports, their aggregations and summary. */
export const insightsProcedures = {
  trackEventsInSiteById: implement(ops.trackEventsInSiteById, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'track');
    await siteEventsRecorder(ctx.em, { rows: loadEventsToRecord(ctx, site, input.events) });
  }),
  getSiteInsightsSummary: implement(ops.getSiteInsightsSummary, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'view');
    return presentInsightsSummary(await loadInsightsSummary(ctx, site, input.days));
  }),
  aggregateSiteEvents: implement(ops.aggregateSiteEvents, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'view');
    const { plan, rows } = await loadSiteEventsAggregate(ctx, site, input);
    return presentSiteEventsAggregate(plan, rows);
  }),
  listSiteVisitorSegments: implement(ops.listSiteVisitorSegments, async ({ input, ctx }) => {
    const site = await loadSiteForInsights(ctx, input, 'view');
    return presentVisitorSegments(await loadVisitorTotals(ctx, site));
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
