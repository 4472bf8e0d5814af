import type { Role } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { Membership, Organization } from '../organizations/organization.entity.ts';
import { Invite, type IInvite } from './sign-in.entity.ts';

/** An invitation of an existing account waiting for its owner, as the account page lists it. */
export interface PendingInvitation {
  id: string;
  organization: string;
  role: Role | null;
}

/** The open invitations of an existing account (unused, not revoked, unexpired) to organizations it is not in. */
async function openInvitesOf(em: EntityManager, userId: string): Promise<IInvite[]> {
  const invites = await em.find(
    Invite,
    { userId, joins: true, usedAt: null, revokedAt: null, expiresAt: { $gt: new Date() } },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const memberOf = new Set((await em.find(Membership, { userId })).map((m) => m.organizationId));
  return invites.filter((i) => !memberOf.has(i.organizationId));
}

/** The account page's list of the invitations its owner may accept there. */
export async function pendingInvitationsOf(em: EntityManager, userId: string): Promise<PendingInvitation[]> {
  const invites = await openInvitesOf(em, userId);
  if (!invites.length) return [];
  const orgs = await em.find(Organization, { id: { $in: invites.map((i) => i.organizationId) } });
  const titles = new Map(orgs.map((o) => [o.id, o.title]));
  return invites.map((i) => ({
    id: i.id,
    organization: titles.get(i.organizationId) ?? i.organizationId,
    role: i.role ?? null,
  }));
}

/** The open invitation `id` of the signed-in account, null when it is not one (another's, used, revoked, expired). */
export async function loadOpenInvitation(em: EntityManager, userId: string, id: string): Promise<IInvite | null> {
  return (await openInvitesOf(em, userId)).find((i) => i.id === id) ?? null;
}
