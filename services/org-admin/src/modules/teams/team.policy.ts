import type { Actor, Role, TeamMemberRole, TeamPermissions } from '@quire/contracts';
import { forbidden, membershipOf, notFound, roleAtLeast } from '@quire/kit';
import { assertCanAdmin } from '../organizations/organization.policy.ts';

/** What the policy needs to know of a team, for one caller. */
export interface TeamAccessFacts {
  organizationId: string;
  /** The caller's role in the team, null when not in it. */
  callerRole: TeamMemberRole | null;
}

/** Whoever holds `orgRole` in the organization and `teamRole` in the team manages the team's members. */
export const managesTeam = (orgRole: Role | null, teamRole: TeamMemberRole | null): boolean => roleAtLeast(orgRole, 'admin') || teamRole === 'owner';

/**
 * - `view`: members of the organization (not guests), and anyone in the team;
 * - `admin` (manage the team's members): organization admins and the team's owners.
 */
export function teamPermissions(actor: Actor, team: TeamAccessFacts): TeamPermissions {
  const m = membershipOf(actor, team.organizationId);
  if (!m) return { admin: false, view: false };
  return { admin: managesTeam(m.role, team.callerRole), view: m.role !== null || team.callerRole !== null };
}

/** 404 when the caller cannot see the team (its existence is not revealed). */
export function assertCanViewTeam(actor: Actor, team: TeamAccessFacts): TeamPermissions {
  const p = teamPermissions(actor, team);
  if (!p.view) throw notFound('Team');
  return p;
}

/** Adding, removing and changing the role of team members: organization admins and team owners. */
export function assertCanManageTeamMembers(actor: Actor, team: TeamAccessFacts): TeamPermissions {
  const p = assertCanViewTeam(actor, team);
  if (!p.admin) throw forbidden("Only organization admins and the team's owners can manage its members");
  return p;
}

/** Creating, renaming and deleting teams: organization admins. */
export function assertCanManageTeams(actor: Actor, organizationId: string): void {
  assertCanAdmin(actor, organizationId, 'Only organization admins can create, rename or delete teams');
}
