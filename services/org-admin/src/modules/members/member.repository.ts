import type { FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import { ops, type OperationOutput, type Role } from '@quire/contracts';
import { notFound, sql, type EntityManager, type ServiceClients } from '@quire/kit';
import { containsPattern } from '../../db/like.ts';
import { Membership, type IMembership } from '../organizations/organization.entity.ts';
import { TeamMember } from '../teams/team.entity.ts';
import { User, type IUser } from '../users/user.entity.ts';

export interface MemberQuery {
  organizationId: string;
  role?: Role | 'guest' | undefined;
  search?: string | undefined;
  sort: 'joinedAt' | 'lastSeenAt' | 'name';
  order: 'asc' | 'desc';
}

/** The filter of a members list: role (`guest` = no role), text in name or e-mail, only members seen once when sorting by `lastSeenAt`. */
export function memberWhere(q: MemberQuery): FilterQuery<IMembership> {
  const where: FilterQuery<IMembership> & Record<string, unknown> = { organizationId: q.organizationId };
  if (q.role !== undefined) where.role = q.role === 'guest' ? null : q.role;
  if (q.search) {
    const pattern = containsPattern(q.search);
    where.$or = [{ userName: { $ilike: pattern } }, { userEmail: { $ilike: pattern } }];
  }
  if (q.sort === 'lastSeenAt') where.lastSeenAt = { $ne: null };
  return where;
}

/** Every sort ends with the user id, so the keyset cursor is total. */
export function memberOrder(q: MemberQuery): QueryOrderMap<IMembership> {
  const key = q.sort === 'name' ? 'sortName' : q.sort;
  return { [key]: q.order, userId: q.order };
}

export async function findMemberOrThrow(
  em: EntityManager,
  organizationId: string,
  userId: string,
): Promise<IMembership> {
  const m = await em.findOne(Membership, { organizationId, userId });
  if (!m) throw notFound('Member');
  return m;
}

export const countAdmins = (em: EntityManager, organizationId: string) =>
  em.count(Membership, { organizationId, role: 'admin' });

export const findMembership = (em: EntityManager, organizationId: string, userId: string) =>
  em.findOne(Membership, { organizationId, userId });

/** The memberships of these users in the organization, in the order of `userIds` (each once; non-members left out). */
export async function findMembershipsInOrder(
  em: EntityManager,
  organizationId: string,
  userIds: string[],
): Promise<IMembership[]> {
  const ids = [...new Set(userIds)];
  const found = ids.length ? await em.find(Membership, { organizationId, userId: { $in: ids } }) : [];
  const byUser = new Map(found.map((m) => [m.userId, m]));
  return ids.flatMap((id) => byUser.get(id) ?? []);
}

/** The filter of a member's teams (`title`: text in the team's title). */
export const memberTeamsWhere = (q: { organizationId: string; userId: string; title?: string | undefined }) => ({
  organizationId: q.organizationId,
  userId: q.userId,
  ...(q.title ? { team: { title: { $ilike: containsPattern(q.title) } } } : {}),
});

/** What members show beyond their membership rows. */
export interface MemberFacts {
  users: Map<string, IUser>;
  /** Team ids by user id. */
  teams: Map<string, string[]>;
  /** Spaces each member can access, by user id (from the content service). */
  spaces: Record<string, number>;
  /** Sites each member can read, by user id (from the sites service). */
  sites: Record<string, number>;
}

export interface MemberSources {
  em: EntityManager;
  peers: ServiceClients;
  requestId: string;
}

/**
 * Users, teams, space and site counts of a page of members: two queries here, one call to the content
 * service and one to the sites service (at once), each applying its own access rule. A service that
 * cannot be reached fails the call with 503 (`unavailable`) rather than showing made-up counts.
 */
export async function loadMemberFacts(
  src: MemberSources,
  organizationId: string,
  memberships: IMembership[],
): Promise<MemberFacts> {
  const facts: MemberFacts = { users: new Map(), teams: new Map(), spaces: {}, sites: {} };
  if (memberships.length === 0) return facts;
  const userIds = memberships.map((m) => m.userId);
  const rows = await src.em.find(
    TeamMember,
    { organizationId, userId: { $in: userIds } },
    { fields: ['team', 'userId'] },
  );
  for (const r of rows) {
    const list = facts.teams.get(r.userId) ?? [];
    list.push(r.team.id);
    facts.teams.set(r.userId, list);
  }
  const members = memberships.map((m) => ({
    userId: m.userId,
    role: m.role ?? null,
    teams: facts.teams.get(m.userId) ?? [],
  }));
  const [users, spaces, sites] = await Promise.all([
    src.em.find(User, { id: { $in: userIds } }),
    src.peers.asService(ops.countMemberSpaces, { organizationId, members }, src.requestId),
    src.peers.asService(ops.countMemberSites, { organizationId, members }, src.requestId),
  ]);
  for (const u of users) facts.users.set(u.id, u);
  facts.spaces = spaces.counts;
  facts.sites = sites.counts;
  return facts;
}

/** How a user reference (a user id, or an e-mail in any case) is keyed in `resolveMemberRefs`. */
export const memberRefKey = (ref: string) => (ref.includes('@') ? ref.trim().toLowerCase() : ref.trim());

/** The organization members among `refs` (user ids or e-mails): `memberRefKey(ref)` → user id. One query. */
export async function resolveMemberRefs(
  em: EntityManager,
  organizationId: string,
  refs: string[],
): Promise<Map<string, string>> {
  const keys = [...new Set(refs.map(memberRefKey))];
  const ids = keys.filter((k) => !k.includes('@'));
  const emails = keys.filter((k) => k.includes('@'));
  const found = new Map<string, string>();
  if (keys.length === 0) return found;
  const rows = await em.find(
    Membership,
    { organizationId, $or: [{ userId: { $in: ids } }, { userEmail: { $in: emails } }] },
    { fields: ['userId', 'userEmail'] },
  );
  for (const row of rows) {
    found.set(row.userId, row.userId);
    found.set(row.userEmail, row.userId);
  }
  return found;
}

/** A member as access decisions elsewhere need it (`listMembersForAccess`): role, teams and the sort keys. */
export type MemberAccessRow = OperationOutput<typeof ops.listMembersForAccess>['items'][number];

/** Every member of an organization matching the filters (text in name or e-mail, a team, seen once), in one query. */
export async function membersForAccess(
  em: EntityManager,
  q: { organizationId: string; search?: string | undefined; team?: string | undefined; seenOnly: boolean },
): Promise<MemberAccessRow[]> {
  const where = ['m.organization_id = ?'];
  const args: unknown[] = [q.organizationId];
  if (q.search) {
    where.push('(m.user_name ilike ? or m.user_email ilike ?)');
    args.push(containsPattern(q.search), containsPattern(q.search));
  }
  if (q.team) {
    where.push(
      'exists (select 1 from :schema.team_member f where f.team_id = ? and f.organization_id = m.organization_id and f.user_id = m.user_id)',
    );
    args.push(q.team);
  }
  if (q.seenOnly) where.push('m.last_seen_at is not null');
  const rows = await sql<{
    user_id: string;
    role: Role | null;
    joined_at: Date | string;
    last_seen_at: Date | string | null;
    sort_name: string;
    teams: string[] | null;
  }>(
    em,
    `select m.user_id, m.role, m.joined_at, m.last_seen_at, m.sort_name,
       (select array_agg(t.team_id order by t.team_id) from :schema.team_member t
         where t.organization_id = m.organization_id and t.user_id = m.user_id) as teams
     from :schema.membership m where ${where.join(' and ')}`,
    args,
  );
  const iso = (v: Date | string) => new Date(v).toISOString();
  return rows.map((r) => ({
    userId: r.user_id,
    role: r.role ?? null,
    teams: r.teams ?? [],
    joinedAt: iso(r.joined_at),
    lastSeenAt: r.last_seen_at === null ? null : iso(r.last_seen_at),
    sortName: r.sort_name,
  }));
}
