import type { OperationInput, ops } from '@quire/contracts';
import type { SitesContext } from '../../trpc.ts';
import { conversationOf, searchedQuestion, type Conversation } from '../answers/site-ai-responses.ts';
import { passagesFor, type Passage } from '../answers/site-answers.ts';

/**
 * The passages of the site that may answer a question, as the caller sees the site (404 when it may not read the
 * site, as any read of it).
 */
export const loadAnswerPassages = (ctx: SitesContext, input: OperationInput<typeof ops.streamAskInSite>) =>
  passagesFor(ctx, input);

/**
 * The conversation a response answers (400 without a `user` message) and the site's passages for its last message,
 * searched as `streamAskInSite` searches (the site's default scope), as the caller sees the site (404 when it may not
 * read it).
 */
export async function loadAIResponsePassages(
  ctx: SitesContext,
  input: OperationInput<typeof ops.streamAIResponseInSite>,
): Promise<{ conversation: Conversation; passages: Passage[] }> {
  const conversation = conversationOf(input.input);
  const passages = await passagesFor(ctx, {
    organizationId: input.organizationId,
    siteId: input.siteId,
    question: searchedQuestion(conversation),
    scope: { mode: 'default' },
  });
  return { conversation, passages };
}
