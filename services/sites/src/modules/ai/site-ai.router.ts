import { ops, type AnyOperation } from '@quire/contracts';
import { type implement, implementStream } from '../../trpc.ts';
import { loadAIResponsePassages, loadAnswerPassages } from './site-ai.loader.ts';
import { aiResponseEvents } from '../answers/site-ai-responses.ts';
import { answerEvents } from '../answers/site-answers.ts';

/** GitBook's AI answers on a site: a question, or a conversation's last message, answered from the site's content. */
export const siteAIProcedures = {
  streamAskInSite: implementStream(ops.streamAskInSite, async ({ input, ctx }) =>
    answerEvents(ctx, input.question, await loadAnswerPassages(ctx, input)),
  ),
  streamAIResponseInSite: implementStream(ops.streamAIResponseInSite, async ({ input, ctx }) => {
    const { conversation, passages } = await loadAIResponsePassages(ctx, input);
    return aiResponseEvents(ctx, conversation, passages, input.previousResponseId);
  }),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
