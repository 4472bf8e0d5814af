import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { SITE } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-ai'] });

/**
 * GitBook's AI answers on a site (server-sent events). Quire has no AI search yet: each answers 404
 * (`AI answers are not available on this site…`) once the caller may read the site; `searchSiteContent` searches it.
 */
const NONE = 'Quire has no AI search yet: always 404 (`not_found`) for a site the caller may read';
const Stream = z.looseObject({}).describe('The answer, streamed (text/event-stream); never answered by Quire yet');

export const streamAskInSite = op({
  id: 'siteAnswers.get',
  access: 'reader',
  input: z.object({
    ...SITE.params,
    question: z.string().min(1).max(512).describe('The question'),
    scope: z.looseObject({}).describe("What to search (GitBook's SiteSearchScope)"),
    context: z.looseObject({}).optional().describe('What the question is about'),
    session: z.looseObject({}).optional().describe('The visitor'),
  }),
  output: Stream,
  http: {
    route: `POST ${SITE.route}/ask`,
    operationId: 'streamAskInSite',
    summary: `Ask a question of a site's content. ${NONE}`,
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
