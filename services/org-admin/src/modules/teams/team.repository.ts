import { LockMode } from '@mikro-orm/core';
import type { List, TeamMemberRole } from '@quire/contracts';
import { entityFromRow, marks, notFound, paginate, sql, type EntityManager, type PageRequest } from '@quire/kit';
import { Team, TeamMember, type ITeam, type ITeamMember } from './team.entity.ts';

/** The team (404 when none); `forUpdate` locks it in a mutation that renames or deletes it (a second DELETE then 404s). */
export async function findTeamOrThrow(
  em: EntityManager,
  organizationId: string,
  teamId: string,
  forUpdate = false,
): Promise<ITeam> {
  const team = await em.findOne(
    Team,
    { id: teamId, organizationId },
    forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!team) throw notFound('Team');
  return team;
}

/**
 * The team, locked `for key share` inside a mutation that changes its members: a concurrent DELETE of the team
 * waits for the mutation, or already removed it (404), so a member is never inserted for a team being deleted
 * (the deferred foreign key would fail the commit with a 500). Renames are not blocked.
 */
export async function lockTeamForMembersOrThrow(
  em: EntityManager,
  organizationId: string,
  teamId: string,
): Promise<ITeam> {
  const [row] = await sql(em, `select * from :schema.team where id = ? and organization_id = ? for key share`, [
    teamId,
    organizationId,
  ]);
  if (!row) throw notFound('Team');
  return entityFromRow(em, Team, row);
}

/** The organization members among `userIds`, locked `for key share` (a concurrent removal waits, or already happened). */
export async function lockMemberships(
  em: EntityManager,
  organizationId: string,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await sql<{ user_id: string }>(
    em,
    `select user_id from :schema.membership where organization_id = ? and user_id in (${marks(userIds.length)}) order by user_id for key share`,
    [organizationId, ...userIds],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** Adds the user to the team unless already in it (true when added): PUTs racing on one member all succeed. */
export async function insertTeamMemberIfAbsent(
  em: EntityManager,
  row: { teamId: string; organizationId: string; userId: string; role: TeamMemberRole; addedAt: Date },
): Promise<boolean> {
  const inserted = await sql(
    em,
    `insert into :schema.team_member (team_id, organization_id, user_id, role, added_at) values (?, ?, ?, ?, ?)
     on conflict (team_id, user_id) do nothing returning user_id`,
    [row.teamId, row.organizationId, row.userId, row.role, row.addedAt],
  );
  return inserted.length > 0;
}

/** The team's rows of these users, locked for update (a concurrent change of the same member waits). */
export async function lockTeamMembers(em: EntityManager, teamId: string, userIds: string[]): Promise<ITeamMember[]> {
  if (userIds.length === 0) return [];
  const rows = await sql(
    em,
    `select * from :schema.team_member where team_id = ? and user_id in (${marks(userIds.length)}) order by user_id for update`,
    [teamId, ...userIds],
  );
  return rows.map((r) => entityFromRow(em, TeamMember, r));
}

/** What teams show beyond their rows, for one caller. */
/** A page of a team's members, in the order they were added. */
export function teamMembersPage(em: EntityManager, teamId: string, req: PageRequest): Promise<List<ITeamMember>> {
  return paginate(em, TeamMember, { team: teamId }, { addedAt: 'asc', userId: 'asc' }, req, (row) => row);
}

export interface TeamFacts {
  /** Member count by team id. */
  members: Map<string, number>;
  /** The caller's role by team id (absent: not in the team). */
  callerRoles: Map<string, TeamMemberRole>;
}

/** Member counts and the caller's roles for a page of teams: two queries. */
export async function loadTeamFacts(em: EntityManager, teamIds: string[], callerId: string): Promise<TeamFacts> {
  const facts: TeamFacts = { members: new Map(), callerRoles: new Map() };
  if (teamIds.length === 0) return facts;
  const counts = await sql<{ team: string; n: string }>(
    em,
    `select team_id as team, count(*) as n from :schema.team_member where team_id in (${marks(teamIds.length)}) group by team_id`,
    teamIds,
  );
  for (const row of counts) facts.members.set(row.team, Number(row.n));
  const mine = await em.find(
    TeamMember,
    { team: { $in: teamIds }, userId: callerId },
    { fields: ['team', 'userId', 'role'] },
  );
  for (const r of mine) facts.callerRoles.set(r.team.id, r.role);
  return facts;
}

/** Ids of the teams in which `userId` has `role`. */
export async function teamIdsWithRole(
  em: EntityManager,
  organizationId: string,
  userId: string,
  role: TeamMemberRole,
): Promise<string[]> {
  const rows = await em.find(TeamMember, { organizationId, userId, role }, { fields: ['team', 'userId'] });
  return rows.map((r) => r.team.id);
}
