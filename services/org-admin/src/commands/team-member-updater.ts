import { Events, type TeamMemberRole } from '@quire/contracts';
import { invalid, recordEvent, type EntityManager } from '@quire/kit';
import { memberRefKey, resolveMemberRefs } from '../modules/members/member.repository.ts';
import { TeamMember, type ITeam, type ITeamMember } from '../modules/teams/team.entity.ts';

/**
 * Adds the user to the team (`role`, default `member`) or changes their role; `team.member-added` or
 * `team.member-role-changed` goes to the outbox. The user must be a member of the team's organization
 * (checked by the caller; the database refuses otherwise). Not flushed.
 */
export function setTeamMember(em: EntityManager, team: ITeam, userId: string, role: TeamMemberRole | undefined, existing: ITeamMember | null): void {
  const base = { organization: team.organizationId, team: team.id, user: userId };
  if (!existing) {
    const created = em.create(TeamMember, { team, userId, organizationId: team.organizationId, role: role ?? 'member', addedAt: new Date() });
    recordEvent(em, Events.teamMemberAdded, { ...base, role: created.role });
    return;
  }
  if (role === undefined || existing.role === role) return;
  const previousRole = existing.role;
  existing.role = role;
  recordEvent(em, Events.teamMemberRoleChanged, { ...base, role, previousRole });
}

/** Takes the user out of the team; `team.member-removed` goes to the outbox. Not flushed. */
export function removeTeamMember(em: EntityManager, row: ITeamMember): void {
  em.remove(row);
  recordEvent(em, Events.teamMemberRemoved, { organization: row.organizationId, team: row.team.id, user: row.userId });
}

export interface UpdateTeamMembersProps {
  /** Users to add (ids or e-mails); they must be members of the organization. */
  add?: string[] | undefined;
  /** Users to remove (ids or e-mails); unknown ones are ignored. Removal wins over `add` and `memberships`. */
  remove?: string[] | undefined;
  /** Role by user id: adds the member with that role, or changes their role. */
  memberships?: Record<string, { role: TeamMemberRole }> | undefined;
}

/** The bulk update of `PUT .../teams/{teamId}/members`. A reference to a non-member is a 400 naming the field. Not flushed. */
export async function updateTeamMembers(em: EntityManager, team: ITeam, props: UpdateTeamMembersProps): Promise<void> {
  const add = props.add ?? [];
  const remove = props.remove ?? [];
  const roles = props.memberships ?? {};
  const members = await resolveMemberRefs(em, team.organizationId, [...add, ...remove, ...Object.keys(roles)]);
  const userOf = (field: string, ref: string) => {
    const id = members.get(memberRefKey(ref));
    if (!id) throw invalid(`Invalid request: ${field}: ${JSON.stringify(ref)} is not a member of the organization`);
    return id;
  };
  const removed = new Set(remove.flatMap((ref) => members.get(memberRefKey(ref)) ?? []));
  const target = new Map<string, TeamMemberRole | undefined>();
  for (const ref of add) {
    const id = userOf('add', ref);
    if (!target.has(id)) target.set(id, undefined);
  }
  for (const [ref, { role }] of Object.entries(roles)) target.set(userOf('memberships', ref), role);
  for (const id of removed) target.delete(id);

  const rows = await em.find(TeamMember, { team: team.id, userId: { $in: [...target.keys(), ...removed] } });
  const existing = new Map(rows.map((r) => [r.userId, r]));
  for (const [userId, role] of target) setTeamMember(em, team, userId, role, existing.get(userId) ?? null);
  for (const userId of removed) {
    const row = existing.get(userId);
    if (row) removeTeamMember(em, row);
  }
}
