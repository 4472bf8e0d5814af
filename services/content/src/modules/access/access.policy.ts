import type { Actor, DefaultLevel, Role } from '@quire/contracts';
import { conflict, forbidden, membershipOf, notFound, roleAtLeast } from '@quire/kit';

/**
 * The one access rule of the content tree, shared by spaces (space.policy.ts) and collections
 * (collection.policy.ts). Pure functions of actor × facts; every `permissions` object comes from here.
 *
 * - Organization admins are admin on everything of their organization.
 * - Guests (a membership with a null role) and non-members get nothing (explicit grants come later).
 * - Other members get the content's `defaultLevel` when it names a role: it caps or raises their
 *   organization role. `inherit` takes the parent collection's level, then its parent's, and so on;
 *   `inherit` all the way up means the member's organization role. A `null` level (GitBook: guest level)
 *   means no access by default, and stops the chain like a role does.
 */
export function effectiveLevel(own: DefaultLevel, ancestors: readonly DefaultLevel[] = []): DefaultLevel {
  let level = own;
  for (const next of ancestors) {
    if (level !== 'inherit') break;
    level = next;
  }
  return level;
}

/** The caller's role on a space or collection of `organizationId` (null: no access, it is not visible). */
export function contentRole(actor: Actor, organizationId: string, own: DefaultLevel, ancestors: readonly DefaultLevel[] = []): Role | null {
  const m = membershipOf(actor, organizationId);
  if (!m || m.role === null) return null;
  if (m.role === 'admin') return 'admin';
  const level = effectiveLevel(own, ancestors);
  return level === 'inherit' ? m.role : level;
}

/** Whether non-admin members see content with this level and ancestors (it does not depend on their role). */
export function openToMembers(own: DefaultLevel, ancestors: readonly DefaultLevel[] = []): boolean {
  return effectiveLevel(own, ancestors) !== null;
}

/** 404 when the caller cannot see the resource (its existence is not revealed), 403 when its role is too low. */
export function requireRole(role: Role | null, min: Role, resource: 'Space' | 'Collection', action: string): Role {
  if (role === null) throw notFound(resource);
  if (!roleAtLeast(role, min)) throw forbidden(`${action} needs the \`${min}\` role on the ${resource.toLowerCase()}`);
  return role;
}

/** What a caller may list in an organization: everything (admins), nothing (guests), or what is open to members. */
export type ListScope = 'all' | 'none' | 'members';
export function listScope(actor: Actor, organizationId: string): ListScope {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  if (m.role === null) return 'none';
  return m.role === 'admin' ? 'all' : 'members';
}

/** Transfers move content between organizations: the caller must be an organization admin in both. */
export function assertCanTransfer(actor: Actor, from: string, to: string, resource: 'Space' | 'Collection'): void {
  if (membershipOf(actor, from)?.role !== 'admin') throw forbidden(`Transferring a ${resource.toLowerCase()} needs the admin role in its organization`);
  if (membershipOf(actor, to)?.role !== 'admin') throw forbidden(`Transferring a ${resource.toLowerCase()} needs the admin role in the target organization`);
  if (from === to) throw conflict(`The ${resource.toLowerCase()} already belongs to this organization`);
}
