import { ROLES, type Actor, type Membership, type Role } from '@quire/contracts';

/** admin > create > review > edit > comment > read. */
const RANK: Record<Role, number> = Object.fromEntries(ROLES.map((r, i) => [r, ROLES.length - i])) as Record<Role, number>;

/** Whether `role` is at least `min` on the ladder (a guest, `null`, is below every role). */
export function roleAtLeast(role: Role | null | undefined, min: Role): boolean {
  return role != null && RANK[role] >= RANK[min];
}

/** The actor's membership in an organization, if any. */
export function membershipOf(actor: Actor, organization: string): Membership | undefined {
  return actor.kind === 'user' ? actor.memberships.find((m) => m.organization === organization) : undefined;
}
