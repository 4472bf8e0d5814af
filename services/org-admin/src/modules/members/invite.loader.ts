import { notFound } from '@quire/kit';
import type { UserContext } from '../../trpc.ts';
import { assertOrganizationAction } from '../organizations/organization.loader.ts';
import { Invite, type IInvite } from '../sign-in/sign-in.entity.ts';

/** The invitations of an organization whose link still works: not used, withdrawn (revoked) or expired. */
export const pendingInvitesOf = (organizationId: string, now = new Date()) => ({
  organizationId,
  usedAt: null,
  revokedAt: null,
  expiresAt: { $gt: now },
});

/** Asserts the caller manages the organization's members (its admins: 403/404 otherwise). */
export function assertInvitesFor(ctx: Pick<UserContext, 'actor'>, organizationId: string): void {
  assertOrganizationAction(ctx, { organizationId }, 'manageMembers');
}

/** A pending invitation of the organization, for its admins (404 when there is none, or it is no longer pending). */
export async function loadPendingInviteFor(
  ctx: Pick<UserContext, 'em' | 'actor'>,
  ids: { organizationId: string; inviteId: string },
): Promise<IInvite> {
  assertInvitesFor(ctx, ids.organizationId);
  const invite = await ctx.em.findOne(Invite, { id: ids.inviteId, ...pendingInvitesOf(ids.organizationId) });
  if (!invite) throw notFound('Invitation');
  return invite;
}
