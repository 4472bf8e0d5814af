import { Events, type TeamMemberRole } from '@quire/contracts';
import { invalid, newId, notFound, recordEvent, type EntityManager } from '@quire/kit';
import { memberRefKey, resolveMemberRefs } from '../modules/members/member.repository.ts';
import { insertTeamMemberIfAbsent, lockMemberships, lockTeamMembers } from '../modules/teams/team.repository.ts';
import { Team, TeamMember, type ITeam, type ITeamMember } from '../modules/teams/team.entity.ts';

export interface TeamMemberSetterProps {
  team: ITeam;
  userId: string;
  /** Default `member` when added; unchanged when absent for an existing member. */
  role?: TeamMemberRole | undefined;
}

/**
 * Adds the user to the team or changes their role; `team.member-added` or `team.member-role-changed` goes to
 * the outbox. Race-safe: the insert is skipped when the row exists (a PUT of the same member at once added it),
 * and a role change locks the row. The user must be a member of the team's organization, locked by the caller.
 */
export async function teamMemberSetter(
  em: EntityManager,
  { team, userId, role }: TeamMemberSetterProps,
): Promise<void> {
  const base = { organization: team.organizationId, team: team.id, user: userId };
  const row = {
    teamId: team.id,
    organizationId: team.organizationId,
    userId,
    role: role ?? 'member',
    addedAt: new Date(),
  } as const;
  if (await insertTeamMemberIfAbsent(em, row)) {
    recordEvent(em, Events.teamMemberAdded, { ...base, role: row.role });
    return;
  }
  if (role === undefined) return;
  // Gone already: a DELETE of the member committed in between, and this PUT counts as having come before it.
  const [existing] = await lockTeamMembers(em, team.id, [userId]);
  if (!existing || existing.role === role) return;
  const previousRole = existing.role;
  existing.role = role;
  recordEvent(em, Events.teamMemberRoleChanged, { ...base, role, previousRole });
}

/** Takes the user out of the team; `team.member-removed` goes to the outbox. */
export function teamMemberRemover(em: EntityManager, { row }: { row: ITeamMember }): void {
  em.remove(row);
  recordEvent(em, Events.teamMemberRemoved, { organization: row.organizationId, team: row.team.id, user: row.userId });
}

/** `PUT .../teams/{teamId}/members/{userId}`: a member of the organization (404 otherwise) into the team, or a new role. */
export async function teamMemberUpserter(
  em: EntityManager,
  props: { team: ITeam; userId: string; role?: TeamMemberRole | undefined },
): Promise<void> {
  if (!(await lockMemberships(em, props.team.organizationId, [props.userId])).has(props.userId))
    throw notFound('Member');
  await teamMemberSetter(em, props);
}

/** `DELETE .../teams/{teamId}/members/{userId}`: 404 when the user is not in the team (or another DELETE took them out). */
export async function teamMemberDeleter(em: EntityManager, props: { team: ITeam; userId: string }): Promise<void> {
  const [row] = await lockTeamMembers(em, props.team.id, [props.userId]);
  if (!row) throw notFound('Team member');
  teamMemberRemover(em, { row });
}

export interface TeamMembersUpdaterProps {
  team: ITeam;
  /** Users to add (ids or e-mails); they must be members of the organization. */
  add?: string[] | undefined;
  /** Users to remove (ids or e-mails); unknown ones are ignored. Removal wins over `add` and `memberships`. */
  remove?: string[] | undefined;
  /** Role by user id: adds the member with that role, or changes their role. */
  memberships?: Record<string, { role: TeamMemberRole }> | undefined;
}

/** The bulk update of `PUT .../teams/{teamId}/members`. A reference to a non-member is a 400 naming the field. */
export async function teamMembersUpdater(em: EntityManager, props: TeamMembersUpdaterProps): Promise<void> {
  const { team } = props;
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
  // Locked members stay in the organization until the commit; one removed meanwhile is no member any more.
  const present = await lockMemberships(em, team.organizationId, [...target.keys()].sort());
  const gone = [...target.keys()].find((id) => !present.has(id));
  if (gone !== undefined)
    throw invalid(
      `Invalid request: ${gone in roles ? 'memberships' : 'add'}: ${JSON.stringify(gone)} is not a member of the organization`,
    );
  // One user at a time in id order, so two bulk updates of overlapping members take their row locks alike.
  for (const userId of [...target.keys(), ...removed].sort()) {
    if (!removed.has(userId)) await teamMemberSetter(em, { team, userId, role: target.get(userId) });
    else for (const row of await lockTeamMembers(em, team.id, [userId])) teamMemberRemover(em, { row });
  }
}

/** A new team with its first members (`member` role); a non-member in `members` is a 400 naming the field. */
export async function teamCreator(
  em: EntityManager,
  props: { organizationId: string; title: string; members?: string[] | undefined },
): Promise<ITeam> {
  const members = props.members ?? [];
  const found = await resolveMemberRefs(em, props.organizationId, members);
  const missing = members.find((id) => !found.has(id));
  if (missing !== undefined)
    throw invalid(`Invalid request: members: ${JSON.stringify(missing)} is not a member of the organization`);
  const team = em.create(Team, {
    id: newId(),
    organizationId: props.organizationId,
    title: props.title,
    createdAt: new Date(),
  });
  recordEvent(em, Events.teamCreated, { organization: team.organizationId, team: team.id, title: team.title });
  for (const userId of new Set(members)) {
    em.create(TeamMember, { team, userId, organizationId: team.organizationId, role: 'member', addedAt: new Date() });
    recordEvent(em, Events.teamMemberAdded, {
      organization: team.organizationId,
      team: team.id,
      user: userId,
      role: 'member',
    });
  }
  return team;
}

/** Renames a team. */
export function teamRenamer(em: EntityManager, props: { team: ITeam; title: string }): ITeam {
  props.team.title = props.title;
  em.persist(props.team);
  return props.team;
}

/** Deletes a team: its members and SAML default-team references go with it (foreign keys); `team.deleted`. */
export function teamDeleter(em: EntityManager, { team }: { team: ITeam }): void {
  em.remove(team);
  recordEvent(em, Events.teamDeleted, { organization: team.organizationId, team: team.id });
}
