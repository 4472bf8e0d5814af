import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';

/** An installation of an integration on a space (of the installation's organization; one per installation and space). */
export const SpaceInstallation = defineEntity({
  name: 'SpaceInstallation',
  tableName: 'integration_space_installation',
  properties: {
    ...idColumn(),
    installationId: p.string(),
    spaceId: p.string(),
    status: p.string().$type<'active' | 'pending' | 'paused'>(),
    configuration: p.json<Record<string, unknown>>(),
    externalIds: p.json<string[]>(),
    ...timestampColumns(),
  },
});
export type ISpaceInstallation = InferEntity<typeof SpaceInstallation>;
