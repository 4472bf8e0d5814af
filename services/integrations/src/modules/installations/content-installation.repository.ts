import { marks, sql, type EntityManager } from '@quire/kit';
import { ContentInstallation, type ContentKind, type IContentInstallation } from './content-installation.entity.ts';

/** Queries of the space and site installation table. */
export const contentInstallationRepository = {
  async find(
    em: EntityManager,
    installationId: string,
    targetKind: ContentKind,
    targetId: string,
  ): Promise<IContentInstallation | null> {
    return em.findOne(ContentInstallation, { installationId, targetKind, targetId });
  },

  /** The installations on one space or one site, of any installation. */
  async onTarget(em: EntityManager, targetKind: ContentKind, targetId: string): Promise<IContentInstallation[]> {
    return em.find(ContentInstallation, { targetKind, targetId });
  },

  /** How many spaces (or sites) each installation is installed on (0 for those absent from the map). */
  async countsOf(em: EntityManager, installationIds: string[], kind: ContentKind): Promise<Map<string, number>> {
    if (!installationIds.length) return new Map();
    const rows = await sql<{ installation_id: string; count: number }>(
      em,
      `select installation_id, count(*)::int as count from :schema.integration_content_installation
        where target_kind = ? and installation_id in (${marks(installationIds.length)}) group by installation_id`,
      [kind, ...installationIds],
    );
    return new Map(rows.map((r) => [r.installation_id, r.count]));
  },
};
