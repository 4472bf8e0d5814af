import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { loadSiteAI } from './site-ai.loader.ts';
import { presentSiteAnswer } from './site-ai.presenter.ts';

/** GitBook's AI answers on a site: a documented 404 until Quire has AI search. */
export const siteAIProcedures = {
  streamAskInSite: implement(ops.streamAskInSite, async ({ input, ctx }) =>
    presentSiteAnswer(await loadSiteAI(ctx, input)),
  ),
  streamAIResponseInSite: implement(ops.streamAIResponseInSite, async ({ input, ctx }) =>
    presentSiteAnswer(await loadSiteAI(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
