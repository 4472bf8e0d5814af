import type { Role } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { Membership } from '../modules/organizations/organization.entity.ts';
import { membershipSetter, userEnsurer } from './member-adder.ts';

export interface MemberInviterProps {
  organizationId: string;
  invites: { email: string; role: Role | null }[];
  /** Add the new members as SSO members. */
  sso: boolean;
}

export interface MemberInviterResult {
  /** Ids of the users added to the organization (existing members are left as they are and not listed). */
  users: string[];
  /** E-mails added as members but not as SSO members: they belong to another organization already. */
  failedSSOEmails: string[];
  /** The users added, each with the role it was invited with (for the invitation e-mails). */
  added: { userId: string; email: string; role: Role | null }[];
}

/**
 * Adds each e-mail's user (created when new) to the organization with its role; the first occurrence
 * of an e-mail wins.
 */
export async function memberInviter(em: EntityManager, props: MemberInviterProps): Promise<MemberInviterResult> {
  const result: MemberInviterResult = { users: [], failedSSOEmails: [], added: [] };
  const seen = new Set<string>();
  for (const invite of props.invites) {
    const email = invite.email.trim().toLowerCase();
    if (seen.has(email)) continue;
    seen.add(email);
    const user = await userEnsurer(em, { email });
    if (await em.findOne(Membership, { organizationId: props.organizationId, userId: user.id })) continue;
    const membership = await membershipSetter(em, {
      organizationId: props.organizationId,
      userId: user.id,
      role: invite.role,
    });
    result.users.push(user.id);
    result.added.push({ userId: user.id, email, role: invite.role });
    if (!props.sso) continue;
    const elsewhere = await em.count(Membership, { userId: user.id, organizationId: { $ne: props.organizationId } });
    if (elsewhere > 0) result.failedSSOEmails.push(email);
    else membership.sso = true;
  }
  return result;
}
