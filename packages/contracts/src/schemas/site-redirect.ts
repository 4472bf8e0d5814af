import { z } from 'zod';
import { IdSchema, TimestampSchema } from '../common.ts';

export const SITE_REDIRECT_SOURCE_MAX = 512;
export const SITE_REDIRECT_URL_MAX = 2048;
export const SITE_REDIRECTS_BULK_MAX = 500;

/** GitBook's pattern of a source path: `/`-separated URL-safe segments, optionally ending with `*` or `/*`. */
const SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

/**
 * A source path as stored and compared: a leading `/`, no trailing `/`, no query or fragment. `docs/a/?x=1`
 * and `/docs/a` are the same source.
 */
export function normalizeRedirectSource(value: string): string {
  // The query and fragment go first, then white space and trailing slashes together: `! #` and `/a /` are `/!` and
  // `/a`, and normalising again changes nothing.
  const path = value.replace(/[?#].*$/s, '').trim();
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.replace(/[\s/]+$/, '') || '/';
}

export const SiteRedirectSourcePathSchema = z
  .string()
  .max(SITE_REDIRECT_SOURCE_MAX)
  .transform(normalizeRedirectSource)
  .pipe(
    z
      .string()
      .max(SITE_REDIRECT_SOURCE_MAX)
      .regex(
        SOURCE_PATTERN,
        'a path of URL-safe segments, e.g. `/old/page`; a final `*` or `/*` matches any rest of the path',
      )
      .refine(
        (p) => !p.split('/').some((s) => s === '.' || s === '..'),
        'no `.` or `..` segments (browsers never send them)',
      ),
  )
  .describe(
    `The source path to redirect from (max ${SITE_REDIRECT_SOURCE_MAX}), e.g. \`/old/page\`; ` +
      'normalised to a leading `/`, ' +
      'no trailing `/` and no query; a final `/*` (or `*`) matches any rest of the path',
  );

export const SiteRedirectExternalUrlSchema = z
  .url({ protocol: /^https?$/, error: 'an absolute http(s) URL' })
  .max(SITE_REDIRECT_URL_MAX)
  .describe(`URL to redirect to (http or https, max ${SITE_REDIRECT_URL_MAX})`);

export const SiteRedirectDestinationSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('site-section'),
      siteSectionId: IdSchema.describe('Unique identifier for the site section to redirect to'),
    }),
    z.object({
      kind: z.literal('site-space'),
      siteSpaceId: IdSchema.describe('Unique identifier for the site space to redirect to'),
    }),
    z.object({
      kind: z.literal('site-page'),
      siteSpaceId: IdSchema.describe('Unique identifier for the site space of the page'),
      pageId: IdSchema.describe('Unique identifier for the page within the site space to redirect to'),
    }),
    z.object({ kind: z.literal('external'), url: SiteRedirectExternalUrlSchema }),
  ])
  .describe('Where the redirect leads: a section, a site space, a page of a site space, or an external URL');
export type SiteRedirectDestination = z.infer<typeof SiteRedirectDestinationSchema>;

/** What a caller may give as a destination: one of the stored kinds, or a page by its path in a space of the site. */
export const SiteRedirectInputDestinationSchema = z
  .discriminatedUnion('kind', [
    ...SiteRedirectDestinationSchema.options,
    z.object({
      kind: z.literal('path'),
      spaceId: IdSchema.describe('Unique identifier for the space containing the page referenced by the path'),
      path: z
        .string()
        .min(1)
        .max(SITE_REDIRECT_URL_MAX)
        .describe('Path to the page within the space revision to resolve'),
    }),
  ])
  .describe('Where the redirect leads; `path` names a page of a space of the site by its path, stored as that page');
export type SiteRedirectInputDestination = z.infer<typeof SiteRedirectInputDestinationSchema>;

export const SiteRedirectSchema = z
  .object({
    object: z.literal('site-redirect').describe('Always `site-redirect`'),
    id: z.string().describe('The unique identifier for the redirect'),
    source: z.string().describe('The source path to redirect from'),
    draft: z.boolean().describe('Whether the redirect is draft and not live'),
    captureWildcard: z.boolean().describe('Capture and append the wildcard-matched suffix to the destination URL'),
    permanent: z
      .boolean()
      .describe('Whether the redirect is permanent: served as HTTP 308 to public live traffic (307 otherwise)'),
    destination: SiteRedirectDestinationSchema,
    createdAt: TimestampSchema.describe('When the redirect was created'),
    updatedAt: TimestampSchema.optional().describe('When the redirect was last updated; absent if never updated'),
  })
  .describe('A redirect of a site');
export type SiteRedirectDto = z.infer<typeof SiteRedirectSchema>;

export const SiteRedirectOrderBySchema = z
  .enum(['createdAt', 'updatedAt', 'source'])
  .default('createdAt')
  .describe(
    'Sort by `createdAt` (most recent first, the default), `updatedAt` (most recently updated first) ' +
      'or `source` (alphabetically)',
  );

const BulkPublishItem = z.object({
  source: SiteRedirectSourcePathSchema,
  intent: z.literal('publish').describe('Publish the draft redirect of this source to live and remove the draft'),
});
const BulkUpsertItem = z.object({
  source: SiteRedirectSourcePathSchema,
  intent: z
    .enum(['live', 'draft'])
    .default('live')
    .describe('`live`: upsert or delete the live redirect; `draft`: the draft redirect'),
  captureWildcard: z
    .boolean()
    .default(false)
    .describe('Capture and append the wildcard-matched suffix to the destination URL'),
  permanent: z.boolean().optional().describe('Whether the redirect is permanent for public live traffic'),
  destination: SiteRedirectInputDestinationSchema.nullable().describe(
    'Where the redirect leads; null deletes the redirect of this source and intent',
  ),
});
export const SiteRedirectBulkItemSchema = z
  .union([BulkPublishItem, BulkUpsertItem])
  .describe('One redirect to publish (`intent: publish`), upsert, or delete (`destination: null`)');
export type SiteRedirectBulkItem = z.infer<typeof SiteRedirectBulkItemSchema>;

const result = <S extends string>(status: S, description: string) =>
  z.object({
    status: z.literal(status).describe(description),
    source: z.string().describe('The source path of the redirect'),
    draft: z.boolean().describe('Whether the redirect is draft'),
  });
export const SiteRedirectBulkResultSchema = z.union([
  result('created', 'The redirect was created').extend({ id: z.string().describe('The ID of the created redirect') }),
  result('updated', 'The redirect was updated').extend({ id: z.string().describe('The ID of the updated redirect') }),
  result('deleted', 'The redirect was deleted'),
  result('published', 'The draft redirect was published to live').extend({
    id: z.string().describe('The ID of the live redirect'),
  }),
  result('error', 'The redirect could not be processed').extend({
    error: z.string().describe('Why, naming the field'),
  }),
]);
export type SiteRedirectBulkResult = z.infer<typeof SiteRedirectBulkResultSchema>;
