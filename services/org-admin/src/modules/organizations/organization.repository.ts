import type { List } from '@quire/contracts';
import { notFound, paginate, type EntityManager, type PageRequest } from '@quire/kit';
import { TeamMember } from '../teams/team.entity.ts';
import { Membership, Organization, type IOrganization } from './organization.entity.ts';

export const organizationRepository = {
  /** Whether the instance has any organization (none before `quire bootstrap`). */
  async any(em: EntityManager): Promise<boolean> {
    return (await em.find(Organization, {}, { fields: ['id'], limit: 1 })).length > 0;
  },

  async findOrThrow(em: EntityManager, id: string): Promise<IOrganization> {
    const org = await em.findOne(Organization, { id });
    if (!org) throw notFound('Organization');
    return org;
  },

  /** Ids of the organizations the user belongs to. */
  async idsForUser(em: EntityManager, userId: string): Promise<string[]> {
    return (await em.find(Membership, { userId }, { fields: ['organizationId'] })).map((m) => m.organizationId);
  },

  /** A page of the organizations the user belongs to, oldest first. */
  async pageForUser(em: EntityManager, userId: string, req: PageRequest): Promise<List<IOrganization>> {
    const ids = await organizationRepository.idsForUser(em, userId);
    return paginate(em, Organization, { id: { $in: ids } }, { createdAt: 'asc', id: 'asc' }, req, (o) => o);
  },

  /** The organizations (all of the user's, or just `organizationId`) where the user owns a team: `permissions.ownTeam`. */
  async withOwnedTeams(em: EntityManager, userId: string, organizationId?: string): Promise<Set<string>> {
    const rows = await em.find(
      TeamMember,
      { userId, role: 'owner', ...(organizationId ? { organizationId } : {}) },
      { fields: ['team', 'userId', 'organizationId'] },
    );
    return new Set(rows.map((r) => r.organizationId));
  },
};
