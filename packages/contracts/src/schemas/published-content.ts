import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { SEARCH_QUERY_MAX, SearchSpaceResultSchema } from './search.ts';

export const PUBLISHED_URL_MAX = 2048;
export const VISITOR_JWT_MAX = 8192;
export const UNSIGNED_CLAIMS_MAX = 50;

export const PublishedUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL' })
  .max(PUBLISHED_URL_MAX)
  .describe(`URL to resolve: a published URL of a site (http or https, max ${PUBLISHED_URL_MAX})`);

const ClaimValue = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]);

export const SiteVisitorPayloadSchema = z
  .object({
    type: z
      .enum(['human', 'agent'])
      .optional()
      .describe('Whether the visitor is a human or an AI agent (human when omitted)'),
    jwtToken: z
      .string()
      .max(VISITOR_JWT_MAX)
      .optional()
      .describe('JWT of an authenticated access session, signed with the site key'),
    unsignedClaims: z
      .record(z.string().max(128), z.union([ClaimValue, z.array(ClaimValue).max(50)]))
      .refine((o) => Object.keys(o).length <= UNSIGNED_CLAIMS_MAX, `at most ${UNSIGNED_CLAIMS_MAX} claims`)
      .optional()
      .describe(
        'Claims the visitor states without a signature (only those the adaptive schema declares as `unsigned` apply)',
      ),
  })
  .describe('Who visits: a JWT with signed claims and/or unsigned claims');

export const PublishedContentRedirectSchema = z.union([
  z
    .object({
      target: z.enum(['application', 'content']).describe('Type of target for the redirect'),
      redirect: z.string().describe('URL to redirect to'),
    })
    .describe('Redirect to the application or a different content in the site'),
  z
    .object({
      target: z.literal('external').describe('Type of target for the redirect'),
      site: z.string().describe('ID of the resolved site'),
      redirect: z.string().describe('URL to redirect to'),
    })
    .describe('Redirect to an external resource from the site (e.g. its sign-in page)'),
]);

export const PublishedSiteContentSchema = z
  .object({
    site: z.string().describe('ID of the site matching'),
    siteSection: z.string().optional().describe('ID of the site section matching'),
    siteSpace: z.string().describe('ID of the site space matching'),
    space: z.string().describe('ID of the space matching'),
    organization: z.string().describe('ID of the organization'),
    shareKey: z.string().optional().describe('Share link key of the site, when it was published with share links'),
    pathname: z
      .string()
      .describe('Path of the content (the page path) relative to the site space, e.g. `guides/setup`'),
    basePath: z.string().describe('Prefix of the path in the input URL: the site space root, e.g. `/sites/docs/v2/`'),
    siteBasePath: z.string().describe('Prefix of the site path in the input URL, e.g. `/sites/docs/`'),
    canonicalUrl: z.string().describe('The canonical URL of the resolution (absolute)'),
    revision: z.string().optional().describe('ID of the revision of the space the URL shows (its live revision)'),
    complete: z
      .boolean()
      .describe(
        'Whether the site part of the URL is complete: no further path segment could name a section or site ' +
          'space, so the rest of the path is the page path',
      ),
    apiToken: z
      .string()
      .describe('Short-lived token (a JWT) carrying the site, space and visitor claims of this resolution'),
    contextId: z
      .string()
      .optional()
      .describe('Changes with the visitor context (claims) that affects the rendered content'),
  })
  .describe('The content a published URL resolves to');

export const PublishedSiteContentLookupSchema = z.union([PublishedContentRedirectSchema, PublishedSiteContentSchema]);
export type PublishedSiteContentLookup = z.infer<typeof PublishedSiteContentLookupSchema>;

const siteSpaceIds = z.array(IdSchema).min(1).max(1000).describe('The site spaces to search');
export const SiteSearchScopeSchema = z
  .union([
    z.object({
      mode: z.literal('default'),
      currentSiteSpace: IdSchema.optional().describe('The site space always included'),
      restrictTo: z
        .enum(['currentSiteSpace', 'otherSiteSpaces'])
        .optional()
        .describe('Only the current site space, or only the others'),
    }),
    z.object({ mode: z.literal('specific'), siteSpaceIds }),
    z.object({ mode: z.literal('all') }),
  ])
  .describe(
    'What to search: `default` (the default site space of each section, plus `currentSiteSpace`), ' +
      '`specific` site spaces, or `all`',
  );

export const SiteSearchInputShape = {
  query: z.string().min(1).max(SEARCH_QUERY_MAX).describe(`Words to find (1..${SEARCH_QUERY_MAX})`),
  scope: SiteSearchScopeSchema.optional(),
  mode: z.enum(['specific', 'current', 'all']).optional().describe('Deprecated scope: use `scope`'),
  siteSpaceId: IdSchema.optional().describe('Deprecated: with `mode: current`, the current site space'),
  siteSpaceIds: siteSpaceIds.optional().describe('Deprecated: the site spaces to search (`mode: specific`)'),
};

export const SiteSearchResultsSchema = z.object({
  next: z.object({ page: z.string() }).optional().describe('Absent on the last page'),
  count: z.number().int().describe('Number of matching pages'),
  items: z.array(SearchSpaceResultSchema).describe('The matching pages, grouped by space, best first'),
});
