import type { Actor, DefaultLevel, Role, SpacePermissions } from '@quire/contracts';
import { forbidden, membershipOf, notFound, roleAtLeast } from '@quire/kit';

/** What the policy needs to know of a space. */
export interface SpaceAccessFacts {
  organizationId: string;
  defaultLevel?: DefaultLevel | undefined;
  /** The parent collection's level, when the space is in a collection (`inherit` resolves through it). */
  collectionLevel?: DefaultLevel;
}

/**
 * The caller's role on a space:
 * - organization admins are admin everywhere;
 * - guests (membership with a null role) and non-members get nothing (grants come later);
 * - other members get the space's `defaultLevel` when it names a role (it caps or raises the org role),
 *   `inherit` resolves to the collection's level, then to the member's organization role;
 *   a `null` level means no access by default.
 */
export function spaceRole(actor: Actor, space: SpaceAccessFacts): Role | null {
  const m = membershipOf(actor, space.organizationId);
  if (!m || m.role === null) return null;
  if (m.role === 'admin') return 'admin';
  let level: DefaultLevel = space.defaultLevel ?? null;
  if (level === 'inherit') level = space.collectionLevel ?? 'inherit';
  if (level === 'inherit') return m.role;
  return level;
}

export function spacePermissions(role: Role | null): SpacePermissions {
  return {
    view: role !== null,
    access: role !== null,
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'review'),
    review: roleAtLeast(role, 'review'),
  };
}

/** 404 when the caller cannot see the space: its existence is not revealed. */
export function assertCanViewSpace(actor: Actor, space: SpaceAccessFacts): Role {
  const role = spaceRole(actor, space);
  if (role === null) throw notFound('Space');
  return role;
}

/** Creating spaces in an organization takes the `create` role (or admin). */
export function assertCanCreateSpace(actor: Actor, organizationId: string): void {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  if (!roleAtLeast(m.role, 'create')) throw forbidden('Creating spaces needs the `create` role in the organization');
}

/** For lists: which default levels make a live space visible to this caller (null = every space). */
export function visibleLevels(actor: Actor, organizationId: string): DefaultLevel[] | null | 'none' {
  const m = membershipOf(actor, organizationId);
  if (!m || m.role === null) return 'none';
  if (m.role === 'admin') return null;
  return ['inherit', 'admin', 'create', 'review', 'edit', 'comment', 'read'];
}
