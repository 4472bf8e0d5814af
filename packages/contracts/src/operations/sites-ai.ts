import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { SITE } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-ai'] });

/**
 * GitBook's AI answers on a site (server-sent events). `streamAskInSite` answers from the site's own content (its
 * search, as the caller sees the site): the operator's OpenAI-compatible model when one is configured, else the best
 * passages with links to their pages. `streamAIResponseInSite` (an agent conversation with tools) answers 404 once the
 * caller may read the site.
 */
const NONE = 'Quire has no AI agent conversations: always 404 (`not_found`) for a site the caller may read';
const Stream = z.looseObject({}).describe('The answer, streamed (text/event-stream); never answered by Quire yet');

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

export const streamAIResponseInSite = op({
  id: 'siteAIResponses.get',
  access: 'reader',
  input: z.object({
    ...SITE.params,
    input: z.array(z.looseObject({})).max(100).describe('The messages to the AI agent'),
    previousResponseId: z.string().max(200).optional().describe('The response this one continues'),
  }),
  output: Stream,
  http: {
    route: `POST ${SITE.route}/ai/response`,
    operationId: 'streamAIResponseInSite',
    summary: `Converse with a site's AI agent. ${NONE}`,
  },
});
