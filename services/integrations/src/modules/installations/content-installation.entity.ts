import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';

/** What an installation is installed on, below its organization: a space or a site. */
export type ContentKind = 'space' | 'site';

/**
 * An installation of an integration on a space or a site of the installation's organization (one per installation
 * and target).
 */
export const ContentInstallation = defineEntity({
  name: 'ContentInstallation',
  tableName: 'integration_content_installation',
  properties: {
    ...idColumn(),
    installationId: p.string(),
    targetKind: p.string().$type<ContentKind>(),
    targetId: p.string(),
    status: p.string().$type<'active' | 'pending' | 'paused'>(),
    configuration: p.json<Record<string, unknown>>(),
    externalIds: p.json<string[]>(),
    ...timestampColumns(),
  },
});
export type IContentInstallation = InferEntity<typeof ContentInstallation>;
