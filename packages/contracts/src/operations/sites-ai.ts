import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { SITE } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-ai'] });

/**
 * GitBook's AI answers on a site (server-sent events), both from the site's own content (its search, as the caller
 * sees the site): the operator's OpenAI-compatible model when one is configured, else the best passages with links to
 * their pages. `streamAskInSite` answers a question; `streamAIResponseInSite` a conversation's last message, in
 * GitBook's AI response events (the answer as document blocks).
 */
const AnswerSourcePage = z
  .object({
    type: z.literal('page').describe('Always `page`'),
    page: z.string().describe('The page ID of the source'),
    revision: z.string().describe('The revision ID where the page was extracted from'),
    space: z.string().describe('The space ID owning the page'),
    sections: z.array(z.string()).describe('The IDs (anchors) of the sections of the page used to answer'),
    reason: z.string().optional().describe('Short explanation of how the source was used to answer'),
  })
  .describe("A page the answer cites (GitBook's SearchAIAnswerSourcePage)");

const SearchAIAnswerStreamSchema = z
  .object({
    type: z.literal('answer').describe('Always `answer`'),
    answer: z
      .object({
        answer: z
          .object({ markdown: z.string().describe('The answer so far, in markdown, linking to the pages it cites') })
          .optional()
          .describe('The answer (a markdown document); absent when nothing on the site matches'),
        followupQuestions: z.array(z.string()).describe('Questions to ask next (none from Quire)'),
        sources: z.array(AnswerSourcePage).describe('The pages the answer is drawn from'),
      })
      .describe("GitBook's SearchAIAnswer"),
  })
  .describe('One event of the stream: the answer so far (each event repeats and extends the previous one)');

export const streamAskInSite = op({
  id: 'siteAnswers.get',
  access: 'reader',
  // It reads: no transaction stays open while the model answers.
  type: 'query',
  input: z.object({
    ...SITE.params,
    question: z.string().min(1).max(512).describe('The question'),
    scope: z.looseObject({}).describe("What to search (GitBook's SiteSearchScope)"),
    context: z.looseObject({}).optional().describe('What the question is about'),
    session: z.looseObject({}).optional().describe('The visitor'),
  }),
  output: z.object({ events: z.array(SearchAIAnswerStreamSchema).describe('The events of the stream, in order') }),
  http: {
    route: `POST ${SITE.route}/ask`,
    operationId: 'streamAskInSite',
    summary:
      "Ask a question of a site's content: answered from the site search as the caller sees it, by the operator's " +
      'model when one is configured (streamed as it writes), else with the best passages and their links ' +
      '(server-sent events)',
    events: true,
  },
});

const AIMessageInputSchema = z
  .looseObject({
    role: z.enum(['user', 'assistant', 'developer']).describe('Who wrote the message'),
    content: z
      .union([
        z.string().max(2048),
        z.looseObject({ object: z.literal('document'), nodes: z.array(z.looseObject({})).max(1000) }),
      ])
      .describe('The message: text, or a JSON document'),
  })
  .describe("A message of the conversation (GitBook's AIMessageInput)");

const messageEvent = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z
    .object({
      type: z.literal(type).describe(`Always \`${type}\``),
      messageId: z.string().describe('The message this event composes'),
      ...shape,
    })
    .describe(description);

const AIStreamResponseSchema = z
  .union([
    messageEvent('response_start', {}, 'The response starts (first event)'),
    messageEvent(
      'response_step_start',
      {
        stepIndex: z.number().int().describe('The step'),
        phase: z.enum(['commentary', 'final_answer']).describe('Always `final_answer`: the answer'),
      },
      'A step of the response starts (Quire answers in one step)',
    ),
    messageEvent(
      'response_document',
      {
        stepIndex: z.number().int().describe('The step'),
        operation: z.enum(['insert', 'update']).describe('`insert`: new blocks; `update`: the last block, rewritten'),
        blocks: z.array(z.looseObject({})).describe("Blocks of the answer (GitBook's document blocks)"),
      },
      'The answer so far: new blocks, or the last one as it grew',
    ),
    messageEvent(
      'response_finish',
      {
        responseId: z.string().describe('The response (deprecated by GitBook: `response.id`)'),
        response: z
          .object({
            id: z.string().describe('The response'),
            previous: z.string().optional().describe('The response it continues (`previousResponseId`)'),
          })
          .describe('The response'),
      },
      'The response ends (last event)',
    ),
  ])
  .describe("One event of the stream (GitBook's AIStreamResponse)");

export const streamAIResponseInSite = op({
  id: 'siteAIResponses.get',
  access: 'reader',
  // It reads: no transaction stays open while the model answers.
  type: 'query',
  input: z.object({
    ...SITE.params,
    input: z
      .array(AIMessageInputSchema)
      .min(1)
      .max(100)
      .describe('The conversation; the last `user` message is the one answered, the messages before it its context'),
    previousResponseId: z
      .string()
      .max(200)
      .optional()
      .describe('The response this one continues (Quire keeps no conversations: send the earlier messages in `input`)'),
    model: z.string().max(64).optional().describe("GitBook's model choice (the operator's model answers)"),
    tools: z.array(z.looseObject({})).max(100).optional().describe('Tools of the client (not called by Quire)'),
    toolCall: z.looseObject({}).optional().describe('A tool call result (not used by Quire)'),
    session: z.looseObject({}).optional().describe('The visitor'),
    channel: z.looseObject({}).optional().describe('Where the message was sent from'),
  }),
  output: z.object({ events: z.array(AIStreamResponseSchema).describe('The events of the stream, in order') }),
  http: {
    route: `POST ${SITE.route}/ai/response`,
    operationId: 'streamAIResponseInSite',
    summary:
      "Answer a conversation's last message from a site's content: retrieved with the site search as the caller " +
      "sees it, by the operator's model when one is configured (streamed as it writes), else with the best passages " +
      'and their links (server-sent events)',
    events: true,
  },
});
