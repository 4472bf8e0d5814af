import type { Actor } from '@quire/contracts';
import { DomainError } from '../errors.ts';
import { roleAtLeast, type AccessLevel } from './roles.ts';

export interface PolicyDefinition<Facts, L extends AccessLevel, A extends string, P extends string> {
  /** The resource's name in messages: `Space` → "Space not found", "… needs the `admin` role on the space". */
  resource: string;
  /** The caller's level on the resource; null when the resource is not visible to it (404). */
  role(actor: Actor, facts: Facts): L | null;
  /** Action → the weakest level allowed to do it (403 below it). */
  actions: Record<A, AccessLevel>;
  /** What each action is, for the 403 message: "Changing the space settings needs the `admin` role on the space". */
  describe?: Partial<Record<A, string>>;
  /** A 403 message of its own for an action, instead of the composed one. */
  refusals?: Partial<Record<A, string>>;
  /** The `permissions` object of the resource: each boolean → the weakest level that has it. */
  permissions?: Record<P, AccessLevel>;
}

export interface Policy<Facts, L extends AccessLevel, A extends string, P extends string> {
  readonly resource: string;
  readonly actions: Readonly<Record<A, AccessLevel>>;
  /** The caller's level (null: not visible). */
  role(actor: Actor, facts: Facts): L | null;
  /** Whether the caller may do `action`. */
  allows(actor: Actor, facts: Facts, action: A): boolean;
  /** The caller's level when it allows `action`; 404 when the resource is not visible, 403 when the level is too low. */
  assert(actor: Actor, facts: Facts, action: A): L;
  /** The `permissions` booleans of a level (what a response shows the caller). */
  permissions(level: L | null): Record<P, boolean>;
}

/**
 * One policy per resource, Outline-style: a level function of actor × facts, an action table and a
 * permission table. The same definition answers "may the caller do this" (`assert`, 404/403) and computes
 * the `permissions` object every response carries, so the two cannot drift.
 */
export function definePolicy<Facts, L extends AccessLevel, const A extends string, const P extends string = never>(
  def: PolicyDefinition<Facts, L, A, P>,
): Policy<Facts, L, A, P> {
  const noun = def.resource.toLowerCase();
  const refusal = (action: A): string =>
    def.refusals?.[action] ??
    `${def.describe?.[action] ?? `This (${action})`} needs the \`${def.actions[action]}\` role on the ${noun}`;
  const permissionTable = Object.entries(def.permissions ?? {}) as [P, AccessLevel][];
  const permissionsOf = new Map<L | null, Record<P, boolean>>();
  return {
    resource: def.resource,
    actions: def.actions,
    role: def.role,
    allows: (actor, facts, action) => roleAtLeast(def.role(actor, facts), def.actions[action]),
    assert(actor, facts, action) {
      const level = def.role(actor, facts);
      if (level === null) throw new DomainError('not_found', `${def.resource} not found`);
      if (!roleAtLeast(level, def.actions[action])) throw new DomainError('forbidden', refusal(action));
      return level;
    },
    // A level's booleans are computed once (every response carrying `permissions` asks), and frozen: shared.
    permissions: (level) => {
      let answer = permissionsOf.get(level);
      if (!answer) {
        answer = Object.freeze(
          Object.fromEntries(permissionTable.map(([name, min]) => [name, roleAtLeast(level, min)])),
        ) as Record<P, boolean>;
        permissionsOf.set(level, answer);
      }
      return answer;
    },
  };
}
