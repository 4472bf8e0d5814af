import type { Actor, DefaultLevel, Role } from '@quire/contracts';
import { membershipOf, notFound } from '@quire/kit';

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

/** What the rule needs to know of a space or collection. */
export interface ContentAccessFacts {
  organizationId: string;
  defaultLevel?: DefaultLevel | undefined;
  /** Levels of the parent collection, its parent… nearest first (`inherit` resolves through them). */
  ancestors?: readonly DefaultLevel[];
}

/** The caller's role on a space or collection (null: no access, it is not visible). */
export function contentRole(actor: Actor, facts: ContentAccessFacts): Role | null {
  const m = membershipOf(actor, facts.organizationId);
  if (!m || m.role === null) return null;
  if (m.role === 'admin') return 'admin';
  const level = effectiveLevel(facts.defaultLevel ?? null, facts.ancestors);
  return level === 'inherit' ? m.role : level;
}

/** The levels content placed directly in a container inherits: the container's and its ancestors' ([] at the top level, null). */
export function levelsUnder(container: ContentAccessFacts | null): DefaultLevel[] {
  return container ? [container.defaultLevel ?? null, ...(container.ancestors ?? [])] : [];
}

/** Whether non-admin members see content with this level and ancestors (it does not depend on their role). */
export function openToMembers(own: DefaultLevel, ancestors: readonly DefaultLevel[] = []): boolean {
  return effectiveLevel(own, ancestors) !== null;
}

/** What a caller may list in an organization: everything (admins), nothing (guests), or what is open to members. */
export type ListScope = 'all' | 'none' | 'members';
export function listScope(actor: Actor, organizationId: string): ListScope {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  if (m.role === null) return 'none';
  return m.role === 'admin' ? 'all' : 'members';
}
