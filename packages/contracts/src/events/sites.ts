import { z } from 'zod';
import { defineEvent } from './define.ts';

const site = z.string().describe('Site id');
const organization = z.string().describe('Id of the organization owning the site');

/** Events of the sites service (`quire.sites.<entity>.<verb>`). */
export const sitesEvents = {
  siteCreated: defineEvent('sites', 'site.created', z.object({ site, organization, title: z.string(), spaces: z.array(z.string()).describe('The spaces added with it') })),
  /** Settings or structure changed (`fields` says which). */
  siteUpdated: defineEvent('sites', 'site.updated', z.object({ site, organization, fields: z.array(z.string()).describe('Names of what changed') })),
  sitePublished: defineEvent('sites', 'site.published', z.object({ site, organization })),
  siteUnpublished: defineEvent('sites', 'site.unpublished', z.object({ site, organization })),
  siteDeleted: defineEvent('sites', 'site.deleted', z.object({ site, organization })),
} as const;
