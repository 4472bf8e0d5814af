import { Events, type TeamMemberRole } from '@quire/contracts';
import { invalid, newId, notFound, recordEvent, type EntityManager } from '@quire/kit';
import { findMemberOrThrow, memberRefKey, resolveMemberRefs } from '../modules/members/member.repository.ts';
import { Team, TeamMember, type ITeam, type ITeamMember } from '../modules/teams/team.entity.ts';

export interface TeamMemberSetterProps {
  team: ITeam;
  userId: string;
  /** Default `member` when added; unchanged when absent for an existing member. */
  role?: TeamMemberRole | undefined;
  existing: ITeamMember | null;
}

/**
 * Adds the user to the team or changes their role; `team.member-added` or `team.member-role-changed` goes
 * to the outbox. The user must be a member of the team's organization (the database refuses otherwise).
 */
export function teamMemberSetter(em: EntityManager, { team, userId, role, existing }: TeamMemberSetterProps): void {
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

/** Takes the user out of the team; `team.member-removed` goes to the outbox. */
export function teamMemberRemover(em: EntityManager, { row }: { row: ITeamMember }): void {
  em.remove(row);
  recordEvent(em, Events.teamMemberRemoved, { organization: row.organizationId, team: row.team.id, user: row.userId });
}

/** `PUT .../teams/{teamId}/members/{userId}`: a member of the organization (404 otherwise) into the team, or a new role. */
export async function teamMemberUpserter(em: EntityManager, props: { team: ITeam; userId: string; role?: TeamMemberRole | undefined }): Promise<void> {
  await findMemberOrThrow(em, props.team.organizationId, props.userId);
  const existing = await em.findOne(TeamMember, { team: props.team.id, userId: props.userId });
  teamMemberSetter(em, { ...props, existing });
}

/** `DELETE .../teams/{teamId}/members/{userId}`: 404 when the user is not in the team. */
export async function teamMemberDeleter(em: EntityManager, props: { team: ITeam; userId: string }): Promise<void> {
  const row = await em.findOne(TeamMember, { team: props.team.id, userId: props.userId });
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
  const rows = await em.find(TeamMember, { team: team.id, userId: { $in: [...target.keys(), ...removed] } });
  const existing = new Map(rows.map((r) => [r.userId, r]));
  for (const [userId, role] of target) teamMemberSetter(em, { team, userId, role, existing: existing.get(userId) ?? null });
  for (const userId of removed) {
    const row = existing.get(userId);
    if (row) teamMemberRemover(em, { row });
  }
}

/** A new team with its first members (`member` role); a non-member in `members` is a 400 naming the field. */
export async function teamCreator(em: EntityManager, props: { organizationId: string; title: string; members?: string[] | undefined }): Promise<ITeam> {
  const members = props.members ?? [];
  const found = await resolveMemberRefs(em, props.organizationId, members);
  const missing = members.find((id) => !found.has(id));
  if (missing !== undefined) throw invalid(`Invalid request: members: ${JSON.stringify(missing)} is not a member of the organization`);
  const team = em.create(Team, { id: newId(), organizationId: props.organizationId, title: props.title, createdAt: new Date() });
  recordEvent(em, Events.teamCreated, { organization: team.organizationId, team: team.id, title: team.title });
  for (const userId of new Set(members)) teamMemberSetter(em, { team, userId, role: 'member', existing: null });
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
