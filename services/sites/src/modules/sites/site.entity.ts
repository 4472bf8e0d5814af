import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { CustomHostnameStatus, SiteAgentsContext, SiteType, SiteVisibility } from '@quire/contracts';

export const Site = defineEntity({
  name: 'Site',
  tableName: 'site',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    type: p.string().$type<SiteType>(),
    title: p.string(),
    /** The custom hostname the site claims; it serves the site only once `hostnameVerified`. */
    hostname: p.string().nullable(),
    /** The token of the TXT record proving the organization controls `hostname` (new with each hostname). */
    hostnameToken: p.string().nullable(),
    /** The DNS proved it at the last check: the hostname serves the site (unique across the instance among verified). */
    hostnameVerified: p.boolean(),
    /** The last DNS check's outcome (GitBook's `CustomHostnameStatus`), null before the first. */
    hostnameStatus: p.string().$type<CustomHostnameStatus>().nullable(),
    hostnameCheckedAt: p.datetime().nullable(),
    /** The site's segment in its published URL, unique in the organization. */
    basename: p.string(),
    proxyOrigin: p.string().nullable(),
    visibility: p.string().$type<SiteVisibility>(),
    published: p.boolean(),
    adaptiveEnabled: p.boolean(),
    agentsContext: p.string().$type<SiteAgentsContext>(),
    /** The visitor claims schema (validated when set); null until one is set. */
    adaptiveSchema: p.json<Record<string, unknown>>().nullable(),
    adaptiveSchemaUpdatedAt: p.datetime().nullable(),
    /** The customization as set (`updateSiteCustomizationById`); null until set. Defaults fill the rest when read. */
    customization: p.json<Record<string, unknown>>().nullable(),
    customizationUpdatedAt: p.datetime().nullable(),
    ...timestampColumns(),
  },
});
export type ISite = InferEntity<typeof Site>;

/** The hostname a site is served on: its custom hostname once the DNS proved it, else none. */
export const servedHostname = (site: Pick<ISite, 'hostname' | 'hostnameVerified'>): string | null =>
  (site.hostnameVerified && site.hostname) || null;
