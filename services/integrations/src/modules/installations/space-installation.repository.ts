import { marks, sql, type EntityManager } from '@quire/kit';
import { SpaceInstallation, type ISpaceInstallation } from './space-installation.entity.ts';

/** Queries of the space installation table. */
export const spaceInstallationRepository = {
  async find(em: EntityManager, installationId: string, spaceId: string): Promise<ISpaceInstallation | null> {
    return em.findOne(SpaceInstallation, { installationId, spaceId });
  },

  /** How many spaces each installation is installed on (0 for those absent from the map). */
  async countsOf(em: EntityManager, installationIds: string[]): Promise<Map<string, number>> {
    if (!installationIds.length) return new Map();
    const rows = await sql<{ installation_id: string; count: number }>(
      em,
      `select installation_id, count(*)::int as count from :schema.integration_space_installation
        where installation_id in (${marks(installationIds.length)}) group by installation_id`,
      installationIds,
    );
    return new Map(rows.map((r) => [r.installation_id, r.count]));
  },
};
