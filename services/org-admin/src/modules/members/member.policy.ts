import type { Actor, Role } from '@quire/contracts';
import { conflict } from '@quire/kit';
import { assertCanAdmin, assertCanListMembers, requireMembership } from '../organizations/organization.policy.ts';

/** A member's own record is always visible to them (guests too); other members' records need the right to list members. */
export function assertCanViewMember(actor: Actor, organizationId: string, userId: string): void {
  requireMembership(actor, organizationId);
  if (actor.kind === 'user' && actor.userId === userId) return;
  assertCanListMembers(actor, organizationId);
}

/** Roles, removals, SSO flags and invites: organization admins only. */
export function assertCanManageMembers(actor: Actor, organizationId: string): void {
  assertCanAdmin(actor, organizationId, 'Only organization admins can manage members');
}

/** An organization always keeps at least one admin: the last one can be neither demoted nor removed. */
export function assertKeepsAnAdmin(currentRole: Role | null, nextRole: Role | null | 'removed', adminCount: number): void {
  if (currentRole === 'admin' && nextRole !== 'admin' && adminCount <= 1) {
    throw conflict('The organization must keep at least one admin');
  }
}
