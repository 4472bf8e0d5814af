import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { organizationId } from '../params.ts';
import { ShareLinkNameSchema, ShareLinkSchema } from '../schemas/site.ts';
import { resourceOps } from './resources.ts';
import { SITE, shareLinkId, siteId } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

const shareLinks = resourceOps(op, {
  noun: 'shareLinks',
  in: SITE,
  path: 'share-links',
  param: { shareLinkId },
  item: ShareLinkSchema,
});

export const listSiteShareLinks = shareLinks.list(
  'listSiteShareLinks',
  'List the share links of a site (newest first)',
);

export const createSiteShareLink = shareLinks.create(
  'createSiteShareLink',
  'Create a share link (active) with a new secret key',
  { name: ShareLinkNameSchema },
);

export const updateSiteShareLinkById = op({
  id: 'shareLinks.update',
  input: z
    .object({
      organizationId,
      siteId,
      shareLinkId,
      active: z.boolean().optional().describe('Whether the link opens the site'),
      name: ShareLinkNameSchema.optional(),
    })
    .refine((b) => b.active !== undefined || b.name !== undefined, {
      message: 'give `active`, `name` or both',
      path: ['active'],
    }),
  output: ShareLinkSchema,
  http: {
    route: 'PATCH /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
    operationId: 'updateSiteShareLinkById',
    summary: 'Rename a share link or turn it on or off',
  },
});

export const deleteSiteShareLinkById = shareLinks.delete(
  'deleteSiteShareLinkById',
  'Delete a share link: its key opens nothing any more',
  205,
);

export const rotateSiteShareLinkKey = op({
  id: 'shareLinks.updateKey',
  input: z.object({ organizationId, siteId, shareLinkId }),
  output: ShareLinkSchema,
  http: {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}/rotate-key',
    operationId: 'rotateSiteShareLinkKey',
    summary:
      'Give a share link a new secret key: the old key opens nothing any more, the new one is in `urls.published` (Quire only: GitBook has no such operation)',
  },
});
