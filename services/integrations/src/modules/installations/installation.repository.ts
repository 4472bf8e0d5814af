import type { FilterQuery } from '@mikro-orm/core';
import { sql, type EntityManager } from '@quire/kit';
import { Installation, type IInstallation } from './installation.entity.ts';
import type { InstallationScope } from './installation.policy.ts';

/** Queries of the installation table. */
export const installationRepository = {
  async findById(em: EntityManager, integrationName: string, id: string): Promise<IInstallation | null> {
    return em.findOne(Installation, { id, integrationName });
  },

  async findIn(em: EntityManager, integrationName: string, organizationId: string): Promise<IInstallation | null> {
    return em.findOne(Installation, { integrationName, organizationId });
  },

  /** The filter of the installations of an integration in a caller's scope (null: none), those carrying `externalId` when given. */
  async visibleWhere(
    em: EntityManager,
    integrationName: string,
    scope: InstallationScope,
    externalId?: string,
  ): Promise<FilterQuery<IInstallation> | null> {
    if (scope.kind === 'in' && scope.organizations.length === 0) return null;
    const where: FilterQuery<IInstallation> = {
      integrationName,
      ...(scope.kind === 'in' ? { organizationId: { $in: scope.organizations } } : {}),
    };
    if (externalId === undefined) return where;
    const rows = await sql<{ id: string }>(
      em,
      `select id from :schema.integration_installation where integration_name = ? and external_ids @> jsonb_build_array(?::text)`,
      [integrationName, externalId],
    );
    return { ...where, id: { $in: rows.map((r) => r.id) } };
  },

  async ofIntegration(em: EntityManager, integrationName: string): Promise<IInstallation[]> {
    return em.find(Installation, { integrationName });
  },

  /** Installations of any integration in an organization. */
  async inOrganization(em: EntityManager, organizationId: string): Promise<IInstallation[]> {
    return em.find(Installation, { organizationId });
  },

  /** Ids of an integration's installations (before they cascade away with it). */
  async idsOf(em: EntityManager, integrationName: string): Promise<string[]> {
    return (
      await sql<{ id: string }>(
        em,
        `select id from :schema.integration_installation where integration_name = ? order by created_at, id`,
        [integrationName],
      )
    ).map((r) => r.id);
  },
};
