import { notFound, type EntityManager } from '@quire/kit';
import { TeamMember } from '../teams/team.entity.ts';
import { Membership, Organization, type IOrganization } from './organization.entity.ts';

export const organizationRepository = {
  async findOrThrow(em: EntityManager, id: string): Promise<IOrganization> {
    const org = await em.findOne(Organization, { id });
    if (!org) throw notFound('Organization');
    return org;
  },

  /** Ids of the organizations the user belongs to. */
  async idsForUser(em: EntityManager, userId: string): Promise<string[]> {
    return (await em.find(Membership, { userId }, { fields: ['organizationId'] })).map((m) => m.organizationId);
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
