import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An integration installed in an organization (one per integration and organization). */
export const Installation = defineEntity({
  name: 'Installation',
  tableName: 'integration_installation',
  properties: {
    id: p.string().primary(),
    integrationName: p.string(),
    organizationId: p.string(),
    status: p.string().$type<'active' | 'pending' | 'paused'>(),
    spaceSelection: p.string().$type<'all' | 'selected'>(),
    siteSelection: p.string().$type<'all' | 'selected'>(),
    configuration: p.json<Record<string, unknown>>(),
    externalIds: p.json<string[]>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IInstallation = InferEntity<typeof Installation>;
