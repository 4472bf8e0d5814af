import { z } from 'zod';
import { queryBoolean, queryNumber } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import {
  PublishedSiteContentLookupSchema,
  PublishedUrlSchema,
  SiteSearchInputShape,
  SiteSearchResultsSchema,
  SiteVisitorPayloadSchema,
  VISITOR_JWT_MAX,
} from '../schemas/published-content.ts';
import { siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['urls'] });

/**
 * What a published URL shows, for the renderer of published sites (GitBook's is open source): public, like
 * the site itself — the answer depends only on the URL and the visitor it is asked for, never on the caller's
 * token. A site that is not published, a share-link site without an active key, and anything the visitor
 * may not see are 404, as if there were nothing there.
 */
export const resolvePublishedContentByUrl = op({
  id: 'publishedContent.resolveByUrl',
  access: 'public',
  type: 'query',
  input: z.object({
    url: PublishedUrlSchema,
    redirectOnError: z
      .boolean()
      .default(false)
      .describe('When true, a visitor without a valid token is answered a redirect to the site’s sign-in URL'),
    visitor: SiteVisitorPayloadSchema.optional(),
    cacheBust: z.string().max(256).optional().describe('Ignored: every answer is computed afresh'),
  }),
  output: PublishedSiteContentLookupSchema,
  http: {
    route: 'POST /urls/published',
    operationId: 'resolvePublishedContentByUrl',
    summary: 'Resolve a published URL: its site, section, site space, page path and an API token for the visitor',
  },
});

export const getPublishedContentByUrl = op({
  id: 'publishedContent.getByUrl',
  access: 'public',
  input: z.object({
    url: PublishedUrlSchema,
    visitorAuthToken: z.string().max(VISITOR_JWT_MAX).optional().describe('JWT of an authenticated access session'),
    redirectOnError: queryBoolean(
      'When true, a visitor without a valid token is answered a redirect to the sign-in URL',
    ).default(false),
  }),
  output: PublishedSiteContentLookupSchema,
  http: {
    route: 'GET /urls/published',
    operationId: 'getPublishedContentByUrl',
    summary: 'Resolve a published URL (deprecated by GitBook: use the POST form)',
  },
});

export const searchSiteContent = op({
  id: 'siteContent.search',
  access: 'reader',
  type: 'query',
  input: z.object({
    organizationId,
    siteId,
    ...SiteSearchInputShape,
    limit: queryNumber(z.number().int().min(1).max(100))
      .optional()
      .describe('At most this many pages (1..100, default 20)'),
  }),
  output: SiteSearchResultsSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/search',
    operationId: 'searchSiteContent',
    summary: 'Full-text search of the content a site publishes (only its own site spaces), grouped by space',
    tags: ['sites'],
  },
});
