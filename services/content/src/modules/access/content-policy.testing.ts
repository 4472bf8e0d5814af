import { expect, it } from 'vitest';
import type { Actor, DefaultLevel, Role } from '@quire/contracts';
import type { DomainError, Policy } from '@quire/kit';
import { userActor } from '@quire/kit/testing';
import type { ContentAccessFacts } from './access.policy.ts';

/** Test helpers of the space and collection policies: members of organization `o` and the facts of its content. */

/** A member of `org` with `role` (null: a guest). */
export const member = (role: Role | null, org = 'o'): Actor => userActor('u', [{ organization: org, role }]);
/** A user of no organization. */
export const stranger: Actor = userActor('x');
/** A space or collection of organization `o`: its level, then its parent collection's, its parent's… */
export const contentFacts = (defaultLevel: DefaultLevel, ancestors: DefaultLevel[] = []): ContentAccessFacts => ({
  organizationId: 'o',
  defaultLevel,
  ancestors,
});

/** A case of `itGivesTheRoles`: its name, the actor, the content's level, its ancestors' levels, the role expected. */
export type RoleCase = [string, Actor, DefaultLevel, DefaultLevel[], Role | null];

/** The role a policy gives each case's actor on content of the case's level (under collections of those levels). */
export function itGivesTheRoles<A extends string, P extends string>(
  policy: Policy<ContentAccessFacts, Role, A, P>,
  cases: RoleCase[],
) {
  it.each(cases)('%s', (_name, actor, level, ancestors, expected) => {
    expect(policy.role(actor, contentFacts(level, ancestors))).toBe(expected);
  });
}

const ladder: Role[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/**
 * The tests of a policy's action table (action → the weakest member role allowed on inheriting top-level content,
 * where the organization role is the role): it declares every action, `assert` answers the role from that minimum up
 * and 403 below it, and a guest or a stranger gets the resource's 404.
 */
export function itFollowsTheTable<A extends string, P extends string>(
  policy: Policy<ContentAccessFacts, Role, A, P>,
  table: [A, Role][],
) {
  it('declares every action', () => expect(Object.fromEntries(table)).toEqual(policy.actions));
  it.each(table)('%s needs %s', (action, min) => {
    for (const role of ladder) {
      const allowed = ladder.indexOf(role) >= ladder.indexOf(min);
      const outcome = (() => {
        try {
          return policy.assert(member(role), contentFacts('inherit'), action);
        } catch (err) {
          return (err as DomainError).reason;
        }
      })();
      expect(outcome, `${role} → ${action}`).toBe(allowed ? role : 'forbidden');
    }
    for (const actor of [member(null), stranger]) {
      expect(() => policy.assert(actor, contentFacts('inherit'), action)).toThrow(
        expect.objectContaining({ reason: 'not_found', message: `${policy.resource} not found` }),
      );
    }
  });
}
