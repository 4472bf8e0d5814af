import { RoleOrGuestSchema, type Actor, type Role } from '@quire/contracts';
import { sql, sqlRun, type EntityManager } from '@quire/kit';

/** The membership projection (org-admin's `member.*` events); `event_at` refuses an older event delivered late. */
export const memberRepository = {
  async upsert(
    em: EntityManager,
    organizationId: string,
    userId: string,
    role: Role | null,
    at: string,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.member (organization_id, user_id, role, event_at) values (?, ?, ?, ?)
       on conflict (organization_id, user_id) do update set role = excluded.role, event_at = excluded.event_at
       where member.event_at <= excluded.event_at`,
      [organizationId, userId, role, at],
    );
  },

  async remove(em: EntityManager, organizationId: string, userId: string, at: string): Promise<void> {
    await sqlRun(em, `delete from :schema.member where organization_id = ? and user_id = ? and event_at <= ?`, [
      organizationId,
      userId,
      at,
    ]);
  },

  async removeOrganization(em: EntityManager, organizationId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.member where organization_id = ?`, [organizationId]);
  },

  /** A member as an actor of its organization, with its teams (to evaluate the policy for someone other than the caller). */
  async asActor(em: EntityManager, organizationId: string, userId: string): Promise<Actor | null> {
    const rows = await sql<{ role: unknown; teams: string[] | null }>(
      em,
      `select role, (select array_agg(t.team_id order by t.team_id) from :schema.team_member t where t.organization_id = m.organization_id and t.user_id = m.user_id) as teams
       from :schema.member m where organization_id = ? and user_id = ?`,
      [organizationId, userId],
    );
    if (!rows[0]) return null;
    return {
      kind: 'user',
      userId,
      memberships: [
        { organization: organizationId, role: RoleOrGuestSchema.parse(rows[0].role), teams: rows[0].teams ?? [] },
      ],
    };
  },
};
