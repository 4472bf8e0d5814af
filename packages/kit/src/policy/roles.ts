import { ROLES, type Actor, type Membership, type Role } from '@quire/contracts';

/**
 * An access level: a role, or `guest` (a member of the organization without a role), below every role.
 * `null` where a level is expected means no access at all: the resource is not visible.
 */
export type AccessLevel = Role | 'guest';

/** guest < read < comment < edit < review < create < admin. */
const RANK: Record<AccessLevel, number> = {
  guest: 0,
  ...(Object.fromEntries(ROLES.map((r, i) => [r, ROLES.length - i])) as Record<Role, number>),
};

/** Whether `level` is at least `min` on the ladder (`null`, no access, is below everything). */
export function roleAtLeast(level: AccessLevel | null | undefined, min: AccessLevel): boolean {
  return level != null && RANK[level] >= RANK[min];
}

/** The highest role among `roles` (null when none: every one is null, or there are none). */
export function highestRole(roles: Iterable<Role | null>): Role | null {
  let best: Role | null = null;
  for (const r of roles) if (r !== null && (best === null || !roleAtLeast(best, r))) best = r;
  return best;
}

/** The actor's membership in an organization, if any. */
export function membershipOf(actor: Actor, organization: string): Membership | undefined {
  return actor.kind === 'user' ? actor.memberships.find((m) => m.organization === organization) : undefined;
}

/** The actor's level in an organization: its role, `guest` for a member without one, null for outsiders. */
export function organizationLevel(actor: Actor, organization: string): AccessLevel | null {
  const m = membershipOf(actor, organization);
  return m ? (m.role ?? 'guest') : null;
}
