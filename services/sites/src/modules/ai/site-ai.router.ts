import { ops, type AnyOperation } from '@quire/contracts';
import { implement, implementStream } from '../../trpc.ts';
import { loadAnswerPassages, loadSiteAI } from './site-ai.loader.ts';
import { presentSiteAnswer } from './site-ai.presenter.ts';
import { answerEvents } from '../answers/site-answers.ts';

/** GitBook's AI answers on a site: a question answered from the site's content; agent conversations a documented 404. */
export const siteAIProcedures = {
  streamAskInSite: implementStream(ops.streamAskInSite, async ({ input, ctx }) =>
    answerEvents(ctx, input.question, await loadAnswerPassages(ctx, input)),
  ),
  streamAIResponseInSite: implement(ops.streamAIResponseInSite, async ({ input, ctx }) =>
    presentSiteAnswer(await loadSiteAI(ctx, input)),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
