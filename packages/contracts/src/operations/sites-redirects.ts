import { z } from 'zod';
import { IdSchema, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import {
  SITE_REDIRECT_SOURCE_MAX,
  SITE_REDIRECTS_BULK_MAX,
  SiteRedirectBulkItemSchema,
  SiteRedirectBulkResultSchema,
  SiteRedirectDestinationSchema,
  SiteRedirectInputDestinationSchema,
  SiteRedirectOrderBySchema,
  SiteRedirectSchema,
  SiteRedirectSourcePathSchema,
} from '../schemas/site-redirect.ts';
import { resourceOps } from './resources.ts';
import { SITE } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-redirects'] });

const siteRedirectId = IdSchema.describe('The unique id of the site redirect');

const redirects = resourceOps(op, {
  noun: 'siteRedirects',
  in: SITE,
  path: 'redirects',
  param: { siteRedirectId },
  item: SiteRedirectSchema,
});

export const createSiteRedirect = redirects.create(
  'createSiteRedirect',
  'Create a redirect from a source path of the site to a section, site space, page or URL',
  {
    source: SiteRedirectSourcePathSchema,
    captureWildcard: z
      .boolean()
      .default(false)
      .describe('Capture and append the wildcard-matched suffix to the destination URL'),
    draft: z.boolean().default(false).describe('Whether the redirect is draft and not live'),
    permanent: z.boolean().default(false).describe('Whether the redirect is permanent for public live traffic'),
    destination: SiteRedirectInputDestinationSchema,
  },
);

export const bulkUpsertSiteRedirects = op({
  id: 'siteRedirects.upsertMany',
  input: z.object({
    ...SITE.params,
    redirects: z
      .array(SiteRedirectBulkItemSchema)
      .min(1)
      .max(SITE_REDIRECTS_BULK_MAX)
      .describe(
        `The redirects to upsert, delete or publish (1..${SITE_REDIRECTS_BULK_MAX}), ` +
          'processed in order, each on its own',
      ),
  }),
  output: z.object({
    results: z.array(SiteRedirectBulkResultSchema).describe('What happened to each redirect, in the order given'),
  }),
  http: {
    route: 'PUT /orgs/{organizationId}/sites/{siteId}/redirects',
    operationId: 'bulkUpsertSiteRedirects',
    summary: 'Create, update, delete or publish up to 500 redirects of a site, with a result per redirect',
  },
});

export const listSiteRedirects = redirects.list('listSiteRedirects', 'List the redirects of a site', {
  search: z
    .string()
    .max(SITE_REDIRECT_SOURCE_MAX)
    .optional()
    .describe('Only redirects whose source path contains this text'),
  draft: queryBoolean('List the draft redirects (`true`) or the live ones (`false`, the default)').default(false),
  orderBy: SiteRedirectOrderBySchema,
});

export const updateSiteRedirectById = op({
  id: 'siteRedirects.update',
  input: z
    .object({
      ...SITE.params,
      siteRedirectId,
      source: SiteRedirectSourcePathSchema.optional(),
      captureWildcard: z
        .boolean()
        .optional()
        .describe('Capture and append the wildcard-matched suffix to the destination URL'),
      draft: z.boolean().optional().describe('Whether the redirect is draft (`false` promotes a draft to live)'),
      permanent: z.boolean().optional().describe('Whether the redirect is permanent for public live traffic'),
      destination: SiteRedirectDestinationSchema.optional(),
    })
    .refine((b) => [b.source, b.captureWildcard, b.draft, b.permanent, b.destination].some((v) => v !== undefined), {
      message: 'give at least one of `source`, `captureWildcard`, `draft`, `permanent`, `destination`',
      path: ['source'],
    }),
  output: SiteRedirectSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}',
    operationId: 'updateSiteRedirectById',
    summary: 'Update a redirect of a site (only the fields given)',
  },
});

export const deleteSiteRedirectById = redirects.delete('deleteSiteRedirectById', 'Delete a redirect of a site', 205);

export const getSiteRedirectBySource = op({
  id: 'siteRedirects.getBySource',
  access: 'reader',
  input: z.object({
    ...SITE.params,
    shareKey: z
      .string()
      .max(256)
      .optional()
      .describe('For sites published with share links, the share key: the target URL carries it'),
    source: SiteRedirectSourcePathSchema,
  }),
  output: z.object({
    redirect: SiteRedirectSchema,
    target: z.string().describe('URL of the destination of the redirect (absolute)'),
  }),
  http: {
    route: 'GET /orgs/{organizationId}/sites/{siteId}/redirect',
    operationId: 'getSiteRedirectBySource',
    summary:
      'The live redirect a source path of the site follows (exact source, else the longest wildcard) ' +
      'and its target URL',
  },
});
