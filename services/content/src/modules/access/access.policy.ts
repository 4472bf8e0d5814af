import type { Actor, DefaultLevel, Reader, Role } from '@quire/contracts';
import { highestRole, membershipOf, notFound, type Evaluation } from '@quire/kit';

/**
 * The one access rule of the content tree, shared by spaces (space.policy.ts) and collections
 * (collection.policy.ts). Pure functions of actor × facts; every `permissions` object comes from here.
 *
 * - Organization admins are admin on everything of their organization.
 * - Non-members get nothing.
 * - Other members get the content's `defaultLevel` when it names a role: it caps or raises their
 *   organization role. `inherit` takes the parent collection's level, then its parent's, and so on;
 *   `inherit` all the way up means the member's organization role. A `null` level (GitBook: guest level)
 *   means no access by default (a restricted space or collection), and stops the chain like a role does.
 *   Guests (a membership with a null role) get nothing by default.
 * - Explicit grants (a user's or one of the user's teams' role on the content, `inviteToSpace`…) raise the
 *   member's role, never lower it: the caller gets the highest of the default and every grant that reaches
 *   the content. The grants on the content itself always reach it; those on its parent collection reach it
 *   while it inherits (`defaultLevel: inherit`), and so on up the chain: the same walk as the levels.
 * - A reader (a published-content token) reads the spaces of the site spaces its site shows it (`read`, on
 *   nothing else, collections included) — and of them only the live revision, its hidden pages left out and its
 *   documents evaluated against the reader's claims (`readerSees…` below).
 */
export function effectiveLevel(own: DefaultLevel, ancestors: readonly DefaultLevel[] = []): DefaultLevel {
  let level = own;
  for (const next of ancestors) {
    if (level !== 'inherit') break;
    level = next;
  }
  return level;
}

/** An explicit role given to a user or a team on one space or collection. */
export interface Grant {
  kind: 'user' | 'team';
  id: string;
  role: Role;
}

/** What the rule needs to know of a space or collection. */
export interface ContentAccessFacts {
  organizationId: string;
  defaultLevel?: DefaultLevel | undefined;
  /** Levels of the parent collection, its parent… nearest first (`inherit` resolves through them). */
  ancestors?: readonly DefaultLevel[];
  /** The space these are the facts of (absent for a collection): what a reader's site spaces are checked against. */
  space?: string | undefined;
  /** Explicit grants: on the content itself first, then on its parent collection, its parent… (aligned with `ancestors`). */
  grants?: readonly (readonly Grant[])[];
}

/** The grants that reach the content: its own, then its ancestors' while the chain inherits. */
export function reachingGrants(facts: ContentAccessFacts): Grant[] {
  const out: Grant[] = [];
  const levels = [facts.defaultLevel ?? null, ...(facts.ancestors ?? [])];
  const grants = facts.grants ?? [];
  for (let i = 0; i < grants.length; i++) {
    out.push(...(grants[i] ?? []));
    if (levels[i] !== 'inherit') break;
  }
  return out;
}

/** The caller's role on a space or collection (null: no access, it is not visible). */
export function contentRole(actor: Actor, facts: ContentAccessFacts): Role | null {
  if (actor.kind === 'reader') return readerRole(actor.reader, facts);
  if (actor.kind !== 'user') return null;
  const m = membershipOf(actor, facts.organizationId);
  if (!m) return null;
  if (m.role === 'admin') return 'admin';
  const level = effectiveLevel(facts.defaultLevel ?? null, facts.ancestors);
  const base = m.role === null ? null : level === 'inherit' ? m.role : level;
  const teams = m.teams;
  const granted = reachingGrants(facts)
    .filter((g) => (g.kind === 'user' ? g.id === actor.userId : teams.includes(g.id)))
    .map((g) => g.role);
  return highestRole([base, ...granted]);
}

/** The levels content placed directly in a container inherits: the container's and its ancestors' ([] at the top level, null). */
export function levelsUnder(container: ContentAccessFacts | null): DefaultLevel[] {
  return container ? [container.defaultLevel ?? null, ...(container.ancestors ?? [])] : [];
}

/** The facts of content with its own grants (from `facts`) once placed directly in a container (null: the top level). */
export function factsIn(
  organizationId: string,
  facts: ContentAccessFacts,
  container: ContentAccessFacts | null,
): ContentAccessFacts {
  return {
    organizationId,
    ancestors: levelsUnder(container),
    grants: [facts.grants?.[0] ?? [], ...(container?.grants ?? [])],
  };
}

/** The facts of new content (no grants of its own yet) placed directly in a container (null: the top level). */
export function factsUnder(organizationId: string, container: ContentAccessFacts | null): ContentAccessFacts {
  return { organizationId, ancestors: levelsUnder(container), grants: [[], ...(container?.grants ?? [])] };
}

/** What a caller may list in an organization: everything (admins), nothing (guests), or what is open to members. */
export type ListScope = 'all' | 'none' | 'members';
export function listScope(actor: Actor, organizationId: string): ListScope {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  if (m.role === null) return 'none';
  return m.role === 'admin' ? 'all' : 'members';
}

/** A reader's role: `read` on a space one of its site spaces shows, of the site's organization; nothing else. */
function readerRole(reader: Reader, facts: ContentAccessFacts): Role | null {
  if (facts.space === undefined || reader.organization !== facts.organizationId) return null;
  return reader.siteSpaces.some((s) => s.space === facts.space) ? 'read' : null;
}

/**
 * Which revision of a space a reader reads: the live one only (the site shows nothing else) — a change request's,
 * or an older revision, is not found for it. Everyone else reads any revision of a space it may view.
 */
export function readerSeesRevision(
  actor: Actor,
  space: { revisionId: string },
  selected: { changeRequest: boolean; revisionId: string },
): boolean {
  return actor.kind !== 'reader' || (!selected.changeRequest && selected.revisionId === space.revisionId);
}

/**
 * Whether the caller sees a revision's pages as a published site's reader does: its hidden pages (and their
 * sub-pages) gone from every list, tree and path, and not found by id or path.
 */
export const readsAsReader = (actor: Actor): boolean => actor.kind === 'reader';

/**
 * How the documents the caller reads are evaluated (null: as stored). A reader's always are, against its claims:
 * it never sees a condition, nor what one hides from it, whatever it asks. Others ask with GitBook's `evaluated`:
 * `true` evaluates every condition as for an anonymous visitor (no claims), `deterministic-only` only those that
 * do not read `visitor` (the same for every reader).
 */
const ANONYMOUS = { visitor: { claims: { unsigned: {} } } };

export function documentEvaluation(
  actor: Actor,
  evaluated: boolean | 'deterministic-only' | undefined,
): Evaluation | null {
  if (actor.kind === 'reader') return { context: { visitor: { claims: actor.reader.claims } }, mode: 'all' };
  if (evaluated === true) return { context: ANONYMOUS, mode: 'all' };
  if (evaluated === 'deterministic-only') return { context: ANONYMOUS, mode: 'deterministic' };
  return null;
}
