import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import { itFollowsTheTable, itGivesTheRoles, member, stranger } from '../access/content-policy.testing.ts';
import { CollectionTree } from '../collections/collection-tree.ts';
import { restorableSpaces, spacePolicy, visibleSpaces, type SpaceAction } from './space.policy.ts';

const spacePermissions = spacePolicy.permissions;

describe('spaceRole', () => {
  itGivesTheRoles(spacePolicy, [
    ['an org admin on a closed space', member('admin'), null, [], 'admin'],
    ['an org admin on a read-only space', member('admin'), 'read', [], 'admin'],
    ['an editor on an inheriting top-level space', member('edit'), 'inherit', [], 'edit'],
    ['a reader on an inheriting top-level space', member('read'), 'inherit', [], 'read'],
    ['an editor capped by the space', member('edit'), 'read', [], 'read'],
    ['a reader raised by the space', member('read'), 'edit', [], 'edit'],
    ['a reader raised to space admin', member('read'), 'admin', [], 'admin'],
    ['an editor on a closed space', member('edit'), null, [], null],
    ['inherit from the collection', member('edit'), 'inherit', ['comment'], 'comment'],
    [
      'inherit through inheriting collections to the org role',
      member('edit'),
      'inherit',
      ['inherit', 'inherit'],
      'edit',
    ],
    ['inherit through the grandparent collection', member('read'), 'inherit', ['inherit', 'review'], 'review'],
    ['a closed collection closes inheriting spaces', member('edit'), 'inherit', [null, 'admin'], null],
    ['the space level wins over its collection', member('read'), 'edit', [null], 'edit'],
    ['the nearest collection level wins', member('read'), 'inherit', ['comment', 'admin'], 'comment'],
    ['a guest', member(null), 'read', [], null],
    ['a member of another organization', member('admin', 'other'), 'read', [], null],
    ['a user without memberships', stranger, 'inherit', [], null],
    ['anonymous', { kind: 'anonymous' }, 'read', [], null],
  ]);
});

describe('the space permission table', () => {
  // Operation → the weakest member role allowed on an inheriting top-level space (org role = space role).
  const table: [SpaceAction, Role][] = [
    ['view', 'read'],
    ['search', 'read'],
    ['duplicate', 'read'],
    ['update', 'admin'],
    ['delete', 'admin'],
    ['restore', 'admin'],
    ['move', 'admin'],
    ['transfer', 'admin'],
    ['edit', 'edit'],
    ['review', 'review'],
    ['merge', 'review'],
    ['import', 'review'],
    ['gitImport', 'review'],
    ['gitExport', 'edit'],
    ['gitInfo', 'read'],
    ['comment', 'comment'],
    ['export', 'read'],
    ['viewPermissions', 'read'],
    ['managePermissions', 'admin'],
  ];
  itFollowsTheTable(spacePolicy, table);
});

describe('visibleSpaces', () => {
  const tree = new CollectionTree([
    { id: 'open', parentId: null, defaultLevel: 'inherit' },
    { id: 'closed', parentId: null, defaultLevel: null },
    { id: 'in-closed', parentId: 'closed', defaultLevel: 'inherit' },
    { id: 'reopened', parentId: 'closed', defaultLevel: 'read' },
  ]);
  it('gives admins everything, guests nothing (without grants) and strangers a 404', () => {
    expect(visibleSpaces(member('admin'), 'o', tree)).toEqual({ kind: 'all' });
    expect(visibleSpaces(member(null), 'o', tree)).toEqual({ kind: 'none' });
    expect(() => visibleSpaces(stranger, 'o', tree)).toThrow('Organization not found');
  });
  it('lists the collections whose inheriting spaces members see, whatever their role', () => {
    for (const role of ['read', 'edit', 'create'] as const) {
      expect(visibleSpaces(member(role), 'o', tree)).toEqual({
        kind: 'open',
        byLevel: true,
        openParents: ['open', 'reopened'],
        grantedSpaces: [],
      });
    }
  });
});

describe('restorableSpaces (the trash)', () => {
  const tree = new CollectionTree([{ id: 'closed', parentId: null, defaultLevel: null }]);
  const space = (id: string, defaultLevel: 'inherit' | 'admin' | null, parentId: string | null = null) => ({
    id,
    organizationId: 'o',
    defaultLevel,
    parentId,
  });
  const trash = [space('top', 'inherit'), space('raised', 'admin'), space('hidden', 'inherit', 'closed')];
  it('shows organization admins every deleted space, others those they are admin of, strangers a 404', () => {
    expect(restorableSpaces(member('admin'), 'o', tree, trash).map((s) => s.id)).toEqual(['top', 'raised', 'hidden']);
    expect(restorableSpaces(member('create'), 'o', tree, trash).map((s) => s.id)).toEqual(['raised']);
    expect(restorableSpaces(member('read'), 'o', tree, trash).map((s) => s.id)).toEqual(['raised']);
    expect(restorableSpaces(member(null), 'o', tree, trash)).toEqual([]);
    expect(() => restorableSpaces(stranger, 'o', tree, trash)).toThrow('Organization not found');
  });
});

describe('spacePermissions', () => {
  it('follows the role ladder', () => {
    expect(spacePermissions('read')).toEqual({
      view: true,
      access: true,
      admin: false,
      viewInviteLinks: false,
      edit: false,
      triggerGitSync: false,
      comment: false,
      merge: false,
      review: false,
    });
    expect(spacePermissions('comment')).toMatchObject({ comment: true, edit: false });
    expect(spacePermissions('edit')).toMatchObject({ edit: true, comment: true, merge: false, review: false });
    expect(spacePermissions('review')).toMatchObject({ merge: true, review: true, admin: false });
    expect(Object.values(spacePermissions('admin')).every(Boolean)).toBe(true);
    expect(Object.values(spacePermissions(null)).some(Boolean)).toBe(false);
  });
});

describe('a reader (published-content token)', () => {
  const reader = (spaces: string[], organization = 'org1') =>
    ({
      kind: 'reader',
      reader: {
        site: 'site1',
        organization,
        siteSpaces: spaces.map((space, i) => ({ id: `ss${i}`, space })),
        claims: {},
      },
    }) as const;
  const facts = (space?: string, defaultLevel: 'inherit' | null = null) => ({
    organizationId: 'org1',
    defaultLevel,
    ...(space ? { space } : {}),
  });

  it('reads the spaces of its site spaces, whatever their level, and nothing else', () => {
    expect(spacePolicy.role(reader(['s1']), facts('s1'))).toBe('read');
    expect(spacePolicy.role(reader(['s1']), facts('s1', 'inherit'))).toBe('read');
    expect(spacePolicy.role(reader(['s1']), facts('s2'))).toBeNull();
    // A collection (no space) or another organization's space of the same id.
    expect(spacePolicy.role(reader(['s1']), facts())).toBeNull();
    expect(spacePolicy.role(reader(['s1'], 'org2'), facts('s1'))).toBeNull();
    expect(spacePolicy.allows(reader(['s1']), facts('s1'), 'view')).toBe(true);
    expect(() => spacePolicy.assert(reader(['s1']), facts('s1'), 'edit')).toThrow(/edit/i);
    expect(() => spacePolicy.assert(reader(['s1']), facts('s2'), 'view')).toThrow(/not found/i);
  });
});
