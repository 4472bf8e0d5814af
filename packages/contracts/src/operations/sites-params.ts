import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { organizationId } from '../params.ts';
import type { Holder } from './resources.ts';

/** Path parameters of the sites operations, described once. */
export const siteId = IdSchema.describe('The unique id of the site');
export const siteSectionId = IdSchema.describe('The unique id of the site section');
export const siteSpaceId = IdSchema.describe('The unique id of the site space');
export const shareLinkId = IdSchema.describe('The unique id of the share link');
export const siteSectionGroupId = IdSchema.describe('The unique id of the site section group');

/** A site, as what holds its share links, sections…: `/orgs/{organizationId}/sites/{siteId}`. */
export const SITE: Holder<{ organizationId: typeof organizationId; siteId: typeof siteId }> = {
  route: '/orgs/{organizationId}/sites/{siteId}',
  params: { organizationId, siteId },
};

/** Query parameter of the published reads of a `share-link` site. */
export const shareKey = z
  .string()
  .min(1)
  .max(256)
  .optional()
  .describe('Secret key of an active share link: published URLs of a `share-link` site carry it');
