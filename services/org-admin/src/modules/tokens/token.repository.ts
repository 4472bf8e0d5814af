import type { Actor } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { Membership } from '../organizations/organization.entity.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { ApiToken, type IApiToken } from './api-token.entity.ts';

export const tokenRepository = {
  /** A token of the user that is not revoked. */
  findActiveOf(em: EntityManager, userId: string, id: string): Promise<IApiToken | null> {
    return em.findOne(ApiToken, { id, userId, revokedAt: null });
  },

  findActiveByHash(em: EntityManager, hash: string): Promise<IApiToken | null> {
    return em.findOne(ApiToken, { hash, revokedAt: null });
  },

  /** The hashes of active tokens after `after` (in hash order), at most `limit`. */
  async activeHashesAfter(em: EntityManager, after: string | undefined, limit: number): Promise<string[]> {
    const rows = await em.find(
      ApiToken,
      { revokedAt: null, ...(after ? { hash: { $gt: after } } : {}) },
      { fields: ['hash'], orderBy: { hash: 'asc' }, limit },
    );
    return rows.map((r) => r.hash);
  },

  /** The user as an actor: every membership with its role and the teams the user is in. */
  async actorOf(em: EntityManager, userId: string): Promise<Actor> {
    const memberships = await em.find(Membership, { userId });
    const teams = new Map<string, string[]>();
    for (const row of await em.find(
      TeamMember,
      { userId },
      { fields: ['team', 'userId', 'organizationId'], orderBy: { team: 'asc' } },
    )) {
      const list = teams.get(row.organizationId) ?? [];
      list.push(row.team.id);
      teams.set(row.organizationId, list);
    }
    return {
      kind: 'user',
      userId,
      memberships: memberships.map((m) => ({
        organization: m.organizationId,
        role: m.role ?? null,
        teams: teams.get(m.organizationId) ?? [],
      })),
    };
  },
};
