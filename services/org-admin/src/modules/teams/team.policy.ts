import type { Actor, TeamMemberRole } from '@quire/contracts';
import { definePolicy, membershipOf } from '@quire/kit';

/** What the policy needs to know of a team, for one caller. */
export interface TeamAccessFacts {
  organizationId: string;
  /** The caller's role in the team, null when not in it. */
  callerRole: TeamMemberRole | null;
}

/**
 * - `view` (the team and its members): members of the organization (not guests), and anyone in the team;
 * - `manageMembers` (add, remove, change roles): organization admins and the team's owners.
 * Creating, renaming and deleting teams is the organization's `manageTeams`.
 */
export const teamPolicy = definePolicy({
  resource: 'Team',
  role: (actor: Actor, team: TeamAccessFacts) => {
    const m = membershipOf(actor, team.organizationId);
    if (!m) return null;
    if (m.role === 'admin' || team.callerRole === 'owner') return 'admin';
    return m.role !== null || team.callerRole !== null ? 'read' : null;
  },
  actions: { view: 'read', manageMembers: 'admin' },
  refusals: { manageMembers: "Only organization admins and the team's owners can manage its members" },
  permissions: { admin: 'admin', view: 'read' },
});
