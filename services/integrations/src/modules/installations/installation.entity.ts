import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';

/** An integration installed in an organization (one per integration and organization). */
export const Installation = defineEntity({
  name: 'Installation',
  tableName: 'integration_installation',
  properties: {
    ...idColumn(),
    integrationName: p.string(),
    organizationId: p.string(),
    status: p.string().$type<'active' | 'pending' | 'paused'>(),
    spaceSelection: p.string().$type<'all' | 'selected'>(),
    siteSelection: p.string().$type<'all' | 'selected'>(),
    configuration: p.json<Record<string, unknown>>(),
    externalIds: p.json<string[]>(),
    ...timestampColumns(),
  },
});
export type IInstallation = InferEntity<typeof Installation>;
