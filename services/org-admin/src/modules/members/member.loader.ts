import type { Role } from '@quire/contracts';
import { notFound } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import type { IMembership, IOrganization } from '../organizations/organization.entity.ts';
import { loadOrganizationFor } from '../organizations/organization.loader.ts';
import { memberPolicy, type MemberAccessFacts } from './member.policy.ts';
import { findMembership } from './member.repository.ts';

/** The membership the caller may `action` on: 403/404 from the policy first, then 404 when there is no such member. */
export async function loadMemberFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  ids: MemberAccessFacts,
  action: keyof typeof memberPolicy.actions,
): Promise<IMembership> {
  memberPolicy.assert(ctx.actor, ids, action);
  const membership = await findMembership(ctx.em, ids.organizationId, ids.userId);
  if (!membership) throw notFound('Member');
  return membership;
}

/** An invitation as asked: addresses alone, or with their own role (the request's, else the organization's default). */
export interface InvitationRequest {
  organizationId: string;
  emails: (string | { email: string; role: Role | null })[];
  role?: Role | null | undefined;
}

/**
 * The organization the caller (an admin: 403 otherwise) invites into, and each invitation with its role: its own,
 * else the request's, else the organization's default role (`read` without one).
 */
export async function loadInvitation(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  input: InvitationRequest,
): Promise<{ organization: IOrganization; invites: { email: string; role: Role | null }[] }> {
  const organization = await loadOrganizationFor(ctx, input, 'manageMembers');
  const fallbackRole = input.role !== undefined ? input.role : (organization.defaultRole ?? 'read');
  const invites = input.emails.map((e) => (typeof e === 'string' ? { email: e, role: fallbackRole } : e));
  return { organization, invites };
}
