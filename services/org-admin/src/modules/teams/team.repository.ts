import type { TeamMemberRole } from '@quire/contracts';
import { marks, notFound, sql, type EntityManager } from '@quire/kit';
import { Team, TeamMember, type ITeam } from './team.entity.ts';

export async function findTeamOrThrow(em: EntityManager, organizationId: string, teamId: string): Promise<ITeam> {
  const team = await em.findOne(Team, { id: teamId, organizationId });
  if (!team) throw notFound('Team');
  return team;
}

/** What teams show beyond their rows, for one caller. */
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
  const counts = await sql<{ team: string; n: string }>(em, `select team_id as team, count(*) as n from :schema.team_member where team_id in (${marks(teamIds.length)}) group by team_id`, teamIds);
  for (const row of counts) facts.members.set(row.team, Number(row.n));
  const mine = await em.find(TeamMember, { team: { $in: teamIds }, userId: callerId }, { fields: ['team', 'userId', 'role'] });
  for (const r of mine) facts.callerRoles.set(r.team.id, r.role);
  return facts;
}

/** Ids of the teams in which `userId` has `role`. */
export async function teamIdsWithRole(em: EntityManager, organizationId: string, userId: string, role: TeamMemberRole): Promise<string[]> {
  const rows = await em.find(TeamMember, { organizationId, userId, role }, { fields: ['team', 'userId'] });
  return rows.map((r) => r.team.id);
}
