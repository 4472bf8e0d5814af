import { describe, expect, it } from 'vitest';
import { ROLES, type Actor, type DefaultLevel, type Role } from '@quire/contracts';
import { outcomeOf } from '@quire/kit/testing';
import type { Grant } from '../access/access.policy.ts';
import { CollectionTree } from '../collections/collection-tree.ts';
import { collectionPolicy } from '../collections/collection.policy.ts';
import { spacePolicy, visibleSpaces, type SpaceAction, type SpaceScope } from '../spaces/space.policy.ts';

/**
 * The permission matrix: organization role × collection level × grant on the collection × space level × grant on the
 * space × who holds the grant (the user or one of their teams) × every space action, checked against an oracle
 * written from the rule in docs/permissions.md (not from the code): organization admins are admin everywhere;
 * otherwise the role is the highest of the default (the space's level, or its collection's when it inherits, or the
 * organization role when both inherit; nothing for guests) and the grants that reach the space (its own; its
 * collection's while it inherits).
 */
const RANK = (r: Role | null) => (r === null ? 0 : ROLES.length - ROLES.indexOf(r));
const max = (...roles: (Role | null)[]) => roles.reduce<Role | null>((a, b) => (RANK(b) > RANK(a) ? b : a), null);

function oracle(
  org: Role | null,
  collLevel: DefaultLevel,
  collGrant: Role | null,
  spaceLevel: DefaultLevel,
  spaceGrant: Role | null,
): Role | null {
  if (org === 'admin') return 'admin';
  const inheritsCollection = spaceLevel === 'inherit';
  const level = inheritsCollection ? collLevel : spaceLevel;
  const byDefault = org === null ? null : level === 'inherit' ? org : level;
  return max(byDefault, spaceGrant, inheritsCollection ? collGrant : null);
}

const ORG_ROLES: (Role | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
const COLLECTION_LEVELS: DefaultLevel[] = ['inherit', null, 'comment'];
const SPACE_LEVELS: DefaultLevel[] = ['inherit', null, 'read'];
const COLLECTION_GRANTS: (Role | null)[] = [null, 'read', 'edit', 'admin'];
const SPACE_GRANTS: (Role | null)[] = [null, 'comment', 'review', 'admin'];
const HOLDERS = ['user', 'team'] as const;
const ACTIONS = Object.keys(spacePolicy.actions) as SpaceAction[];

const actorOf = (role: Role | null, org = 'o'): Actor => ({
  kind: 'user',
  userId: 'u',
  memberships: [{ organization: org, role, teams: ['t-other', 't1'] }],
});
const grantTo = (holder: 'user' | 'team', role: Role | null): Grant[] =>
  role === null ? [] : [holder === 'user' ? { kind: 'user', id: 'u', role } : { kind: 'team', id: 't1', role }];
// Grants to someone else never count.
const noise: Grant[] = [
  { kind: 'user', id: 'someone', role: 'admin' },
  { kind: 'team', id: 't-not-mine', role: 'admin' },
];

function outcome(
  actor: Actor,
  facts: Parameters<typeof spacePolicy.assert>[1],
  action: SpaceAction,
): 'ok' | 'forbidden' | 'not_found' {
  return outcomeOf(() => spacePolicy.assert(actor, facts, action)) as 'ok' | 'forbidden' | 'not_found';
}

/** Whether a list filter (`visibleWhere`'s conditions, evaluated in memory) shows a space of collection `c`. */
function listed(scope: SpaceScope, s: { id: string; parentId: string | null; defaultLevel: DefaultLevel }): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  return (
    (scope.byLevel &&
      ((s.defaultLevel !== null && s.defaultLevel !== 'inherit') ||
        (s.defaultLevel === 'inherit' && s.parentId === null))) ||
    (s.defaultLevel === 'inherit' && s.parentId !== null && scope.openParents.includes(s.parentId)) ||
    scope.grantedSpaces.includes(s.id)
  );
}

describe('the permission matrix (organization role × collection × space × action)', () => {
  let cases = 0;
  for (const org of ORG_ROLES) {
    it(`organization role ${org ?? 'guest'}`, () => {
      for (const collLevel of COLLECTION_LEVELS)
        for (const collGrant of COLLECTION_GRANTS)
          for (const spaceLevel of SPACE_LEVELS)
            for (const spaceGrant of SPACE_GRANTS)
              for (const holder of HOLDERS) {
                const actor = actorOf(org);
                const facts = {
                  organizationId: 'o',
                  defaultLevel: spaceLevel,
                  ancestors: [collLevel],
                  grants: [
                    [...noise, ...grantTo(holder, spaceGrant)],
                    [...noise, ...grantTo(holder, collGrant)],
                  ],
                };
                const expected = oracle(org, collLevel, collGrant, spaceLevel, spaceGrant);
                const label = `${org ?? 'guest'} / collection ${collLevel} + ${holder} grant ${collGrant} / space ${spaceLevel} + ${holder} grant ${spaceGrant}`;
                expect(spacePolicy.role(actor, facts), label).toBe(expected);
                for (const action of ACTIONS) {
                  const min = spacePolicy.actions[action];
                  const want =
                    expected === null ? 'not_found' : RANK(expected) >= RANK(min as Role) ? 'ok' : 'forbidden';
                  expect(outcome(actor, facts, action), `${label}: ${action}`).toBe(want);
                  cases++;
                }
                // The same facts from a collection tree, and the list filter, agree with the policy.
                const tree = new CollectionTree([{ id: 'c', parentId: null, defaultLevel: collLevel }], {
                  collections: new Map([['c', [...noise, ...grantTo(holder, collGrant)]]]),
                  spaces: new Map([['s', [...noise, ...grantTo(holder, spaceGrant)]]]),
                });
                const space = { id: 's', organizationId: 'o', parentId: 'c', defaultLevel: spaceLevel };
                expect(spacePolicy.role(actor, tree.factsOf(space)), `${label} (tree)`).toBe(expected);
                expect(listed(visibleSpaces(actor, 'o', tree), space), `${label} (listed)`).toBe(expected !== null);
                // The collection itself: its level and its own grants.
                expect(collectionPolicy.role(actor, tree.collectionFacts('o', 'c')), `${label} (collection)`).toBe(
                  org === 'admin'
                    ? 'admin'
                    : max(org === null ? null : collLevel === 'inherit' ? org : collLevel, collGrant),
                );
              }
    });
  }
  it('covered every cell', () =>
    expect(cases).toBe(
      ORG_ROLES.length *
        COLLECTION_LEVELS.length *
        COLLECTION_GRANTS.length *
        SPACE_LEVELS.length *
        SPACE_GRANTS.length *
        HOLDERS.length *
        ACTIONS.length,
    ));
});

describe('other organizations', () => {
  it('see nothing, whatever grants name their user or teams', () => {
    const outsider: Actor = {
      kind: 'user',
      userId: 'u',
      memberships: [{ organization: 'other', role: 'admin', teams: ['t1'] }],
    };
    const facts = {
      organizationId: 'o',
      defaultLevel: 'admin' as const,
      ancestors: [],
      grants: [
        [
          { kind: 'user' as const, id: 'u', role: 'admin' as const },
          { kind: 'team' as const, id: 't1', role: 'admin' as const },
        ],
      ],
    };
    expect(spacePolicy.role(outsider, facts)).toBeNull();
    expect(outcome(outsider, facts, 'view')).toBe('not_found');
    const tree = new CollectionTree([], { collections: new Map(), spaces: new Map([['s', facts.grants[0]!]]) });
    expect(() => visibleSpaces(outsider, 'o', tree)).toThrow('Organization not found');
  });

  it('anonymous and service callers get no role from grants', () => {
    const facts = {
      organizationId: 'o',
      defaultLevel: 'read' as const,
      grants: [[{ kind: 'user' as const, id: 'u', role: 'admin' as const }]],
    };
    expect(spacePolicy.role({ kind: 'anonymous' }, facts)).toBeNull();
    expect(spacePolicy.role({ kind: 'service', service: 'sites' }, facts)).toBeNull();
  });
});

describe('a grant on a grandparent collection', () => {
  it('reaches a space while every level between inherits, and stops at the first one that does not', () => {
    const reader = actorOf('read');
    const grants = [[], [], [{ kind: 'user' as const, id: 'u', role: 'edit' as const }]];
    expect(
      spacePolicy.role(reader, {
        organizationId: 'o',
        defaultLevel: 'inherit',
        ancestors: ['inherit', 'inherit'],
        grants,
      }),
    ).toBe('edit');
    expect(
      spacePolicy.role(reader, {
        organizationId: 'o',
        defaultLevel: 'inherit',
        ancestors: ['comment', 'inherit'],
        grants,
      }),
    ).toBe('comment');
  });
});
