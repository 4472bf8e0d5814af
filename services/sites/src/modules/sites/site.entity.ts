import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { SiteAgentsContext, SiteType, SiteVisibility } from '@quire/contracts';

export const Site = defineEntity({
  name: 'Site',
  tableName: 'site',
  properties: {
    ...idColumn(),
    organizationId: p.string(),
    type: p.string().$type<SiteType>(),
    title: p.string(),
    hostname: p.string().nullable(),
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
