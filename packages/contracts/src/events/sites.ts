import { z } from 'zod';
import { eventsOf } from './define.ts';

const site = z.string().describe('Site id');
const organization = z.string().describe('Id of the organization owning the site');

const event = eventsOf('sites');

/** Events of the sites service (`quire.sites.<entity>.<verb>`). */
export const sitesEvents = {
  siteCreated: event(
    'site.created',
    z.object({
      site,
      organization,
      title: z.string(),
      spaces: z.array(z.string()).describe('The spaces added with it'),
    }),
  ),
  /** Settings or structure changed (`fields` says which). */
  siteUpdated: event(
    'site.updated',
    z.object({ site, organization, fields: z.array(z.string()).describe('Names of what changed') }),
  ),
  sitePublished: event('site.published', z.object({ site, organization })),
  siteUnpublished: event('site.unpublished', z.object({ site, organization })),
  siteDeleted: event('site.deleted', z.object({ site, organization })),
  /** Role overrides on a site given, changed or removed (`removed`: the overrides are gone; else `role`, null for no access). */
  sitePermissionsUpdated: event(
    'site.permissions-updated',
    z.object({
      site,
      organization,
      users: z.array(z.string()).describe('Users whose override changed'),
      teams: z.array(z.string()).describe('Teams whose override changed'),
      role: z.string().nullable().describe('The role given (null: no access)'),
      removed: z.boolean().describe('Whether the overrides were removed'),
    }),
  ),
} as const;
