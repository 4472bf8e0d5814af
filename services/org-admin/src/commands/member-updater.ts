import { Events, type Role } from '@quire/contracts';
import { conflict, recordEvent, type EntityManager } from '@quire/kit';
import { countAdmins } from '../modules/members/member.repository.ts';
import type { IMembership } from '../modules/organizations/organization.entity.ts';
import { TeamMember } from '../modules/teams/team.entity.ts';
import { membershipSetter } from './member-adder.ts';
import { teamMemberRemover } from './team-member-updater.ts';

/** An organization always keeps at least one admin: the last one can be neither demoted nor removed (409). */
async function assertKeepsAnAdmin(em: EntityManager, m: IMembership, next: Role | null | 'removed'): Promise<void> {
  if (m.role === 'admin' && next !== 'admin' && (await countAdmins(em, m.organizationId)) <= 1)
    throw conflict('The organization must keep at least one admin');
}

/** Changes a member's role (`null`: guest). */
export async function memberRoleUpdater(
  em: EntityManager,
  props: { membership: IMembership; role: Role | null | undefined },
): Promise<IMembership> {
  const { membership } = props;
  if (props.role === undefined || props.role === membership.role) return membership;
  await assertKeepsAnAdmin(em, membership, props.role);
  return membershipSetter(em, {
    organizationId: membership.organizationId,
    userId: membership.userId,
    role: props.role,
  });
}

/** Takes a member out of the organization and of its teams (each with its event), then `member.removed`. */
export async function memberRemover(em: EntityManager, { membership }: { membership: IMembership }): Promise<void> {
  await assertKeepsAnAdmin(em, membership, 'removed');
  for (const row of await em.find(TeamMember, { organizationId: membership.organizationId, userId: membership.userId }))
    teamMemberRemover(em, { row });
  em.remove(membership);
  recordEvent(em, Events.memberRemoved, { organization: membership.organizationId, user: membership.userId });
}

/** Marks a member as an SSO member. */
export function memberSsoEnabler(em: EntityManager, { membership }: { membership: IMembership }): IMembership {
  if (!membership.sso) {
    membership.sso = true;
    em.persist(membership);
  }
  return membership;
}

/** Records that a member was seen now (`POST /orgs/{o}/ping`). */
export function memberSeenRecorder(
  em: EntityManager,
  { membership, now = new Date() }: { membership: IMembership; now?: Date },
): IMembership {
  membership.lastSeenAt = now;
  em.persist(membership);
  return membership;
}
