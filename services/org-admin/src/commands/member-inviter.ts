import type { Role } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { User } from '../modules/users/user.entity.ts';
import { membershipSetter, userEnsurer } from './member-adder.ts';

export interface MemberInviterProps {
  organizationId: string;
  invites: { email: string; role: Role | null }[];
  /** Add the new members as SSO members. */
  sso: boolean;
}

/** One person invited: `joins` when the account existed before, and becomes a member only by accepting. */
export interface InvitedPerson {
  userId: string;
  email: string;
  role: Role | null;
  joins: boolean;
}

export interface MemberInviterResult {
  /** Ids of the users invited: new accounts added at once, existing accounts invited to accept (members left out). */
  users: string[];
  /** E-mails invited but not as SSO members: they belong to another organization already. */
  failedSSOEmails: string[];
  /** The people invited, each with the role it was invited with (for the invitation e-mails). */
  invited: InvitedPerson[];
}

/**
 * Invites each e-mail (the first occurrence of an e-mail wins) with its role. An e-mail without an account gets a
 * new account, a member at once (nobody else owns it). An existing account that is not a member is only invited:
 * it joins when its owner accepts the invitation (docs/sign-in.md), never by an administrator's call alone.
 * Existing members are left as they are.
 */
export async function memberInviter(em: EntityManager, props: MemberInviterProps): Promise<MemberInviterResult> {
  const result: MemberInviterResult = { users: [], failedSSOEmails: [], invited: [] };
  const seen = new Set<string>();
  for (const invite of props.invites) {
    const email = invite.email.trim().toLowerCase();
    if (seen.has(email)) continue;
    seen.add(email);
    const existing = await em.findOne(User, { email });
    const user = existing ?? (await userEnsurer(em, { email }));
    if (existing && (await em.findOne(Membership, { organizationId: props.organizationId, userId: user.id }))) continue;
    result.users.push(user.id);
    result.invited.push({ userId: user.id, email, role: invite.role, joins: existing !== null });
    if (existing) {
      if (props.sso && (await em.count(Membership, { userId: user.id })) > 0) result.failedSSOEmails.push(email);
      continue;
    }
    const membership = await membershipSetter(em, {
      organizationId: props.organizationId,
      userId: user.id,
      role: invite.role,
    });
    membership.sso = props.sso;
  }
  return result;
}
