import type { MikroORM } from '@mikro-orm/postgresql';
import { Events, RoleOrGuestSchema, type Actor } from '@quire/contracts';
import { idempotentConsumer, type DurableConsumerSpec, type EntityManager } from '@quire/kit';
import { sql, sqlRun } from '../../db.ts';

export const MEMBER_EVENTS_CONSUMER = 'content-member-events';

const upsert = (em: EntityManager, organization: string, user: string, role: string | null, at: string) =>
  sqlRun(
    em,
    `insert into :schema.member (organization_id, user_id, role, event_at) values (?, ?, ?, ?)
     on conflict (organization_id, user_id) do update set role = excluded.role, event_at = excluded.event_at
     where member.event_at <= excluded.event_at`,
    [organization, user, role, at],
  );

/**
 * Keeps the `member` projection from org-admin's events. One durable consumer over `org-admin.member.*`
 * (not one per event type), so a member's events apply in the order they happened; `event_at` also
 * refuses an older event delivered late (a retry).
 */
export function memberEventsConsumer(orm: MikroORM, name = MEMBER_EVENTS_CONSUMER): DurableConsumerSpec {
  const spec = idempotentConsumer(orm, name, [Events.memberAdded, Events.memberRoleChanged, Events.memberRemoved, Events.organizationDeleted], {
    'member.added': async (e, em) => void (await upsert(em, e.data.organization, e.data.user, e.data.role, e.occurredAt)),
    'member.role-changed': async (e, em) => void (await upsert(em, e.data.organization, e.data.user, e.data.role, e.occurredAt)),
    'member.removed': async (e, em) =>
      void (await sqlRun(em, `delete from :schema.member where organization_id = ? and user_id = ? and event_at <= ?`, [e.data.organization, e.data.user, e.occurredAt])),
    'organization.deleted': async (e, em) => void (await sqlRun(em, `delete from :schema.member where organization_id = ?`, [e.data.organization])),
  });
  return { ...spec, subjects: [`${Events.memberAdded.service}.member.*`, Events.organizationDeleted.subject] };
}

/** A member as an actor of its organization (to evaluate the policy for someone other than the caller). */
export async function memberAsActor(em: EntityManager, organizationId: string, userId: string): Promise<Actor | null> {
  const rows = await sql<{ role: unknown }>(em, `select role from :schema.member where organization_id = ? and user_id = ?`, [organizationId, userId]);
  if (!rows[0]) return null;
  return { kind: 'user', userId, memberships: [{ organization: organizationId, role: RoleOrGuestSchema.parse(rows[0].role), teams: [] }] };
}
