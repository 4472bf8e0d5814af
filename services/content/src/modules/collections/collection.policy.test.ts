import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import { userActor, outcomeOf } from '@quire/kit/testing';
import {
  contentFacts as collection,
  itFollowsTheTable,
  itGivesTheRoles,
  member,
} from '../access/content-policy.testing.ts';
import { assertCanTransfer } from '../access/organization.policy.ts';
import { CollectionTree } from './collection-tree.ts';
import { assertCanCreateIn, collectionPolicy, visibleCollections, type CollectionAction } from './collection.policy.ts';

const collectionPermissions = collectionPolicy.permissions;

describe('collectionRole', () => {
  itGivesTheRoles(collectionPolicy, [
    ['an org admin on a closed collection', member('admin'), null, [], 'admin'],
    ['a member on an inheriting top-level collection', member('comment'), 'inherit', [], 'comment'],
    ['a member capped by the collection', member('create'), 'read', [], 'read'],
    ['a member raised by the collection', member('read'), 'create', [], 'create'],
    ['a sub-collection inheriting its parent', member('edit'), 'inherit', ['read'], 'read'],
    ['a sub-collection of a closed collection', member('edit'), 'inherit', [null], null],
    ['a guest', member(null), 'admin', [], null],
  ]);
});

describe('the collection permission table', () => {
  const table: [CollectionAction, Role][] = [
    ['view', 'read'],
    ['create', 'create'],
    ['update', 'admin'],
    ['delete', 'admin'],
    ['move', 'admin'],
    ['transfer', 'admin'],
    ['restore', 'admin'],
    ['viewPermissions', 'read'],
    ['managePermissions', 'admin'],
  ];
  itFollowsTheTable(collectionPolicy, table);

  it('creating at the top level takes the create org role; in a collection, create on it', () => {
    expect(outcomeOf(() => assertCanCreateIn(member('create'), 'o', null))).toBe('ok');
    expect(outcomeOf(() => assertCanCreateIn(member('edit'), 'o', null))).toBe('forbidden');
    expect(outcomeOf(() => assertCanCreateIn(member('admin', 'other'), 'o', null))).toBe('not_found');
    expect(outcomeOf(() => assertCanCreateIn(member('read'), 'o', collection('create')))).toBe('ok');
    expect(outcomeOf(() => assertCanCreateIn(member('create'), 'o', collection('read')))).toBe('forbidden');
    expect(outcomeOf(() => assertCanCreateIn(member('create'), 'o', collection(null)))).toBe('not_found');
  });

  it('transfers take the admin org role in both organizations, to another one', () => {
    const both = userActor('u', [
      { organization: 'a', role: 'admin' },
      { organization: 'b', role: 'admin' },
    ]);
    const editorInB = userActor('u', [
      { organization: 'a', role: 'admin' },
      { organization: 'b', role: 'edit' },
    ]);
    expect(outcomeOf(() => assertCanTransfer(both, 'a', 'b', 'collection'))).toBe('ok');
    expect(outcomeOf(() => assertCanTransfer(editorInB, 'a', 'b', 'collection'))).toBe('forbidden');
    expect(outcomeOf(() => assertCanTransfer(editorInB, 'b', 'a', 'collection'))).toBe('forbidden');
    expect(outcomeOf(() => assertCanTransfer(both, 'a', 'c', 'space'))).toBe('forbidden');
    expect(outcomeOf(() => assertCanTransfer(both, 'a', 'a', 'space'))).toBe('conflict');
  });
});

describe('visibleCollections', () => {
  const tree = new CollectionTree([
    { id: 'open', parentId: null, defaultLevel: 'inherit' },
    { id: 'closed', parentId: null, defaultLevel: null },
    { id: 'in-closed', parentId: 'closed', defaultLevel: 'inherit' },
    { id: 'reopened', parentId: 'closed', defaultLevel: 'comment' },
    { id: 'deep', parentId: 'reopened', defaultLevel: 'inherit' },
  ]);
  it('shows members the collections whose level resolves to a role', () => {
    expect(visibleCollections(member('admin'), 'o', tree)).toBe('all');
    expect(visibleCollections(member(null), 'o', tree)).toEqual([]);
    expect(visibleCollections(member('read'), 'o', tree)).toEqual(['open', 'reopened', 'deep']);
    expect(() => visibleCollections(member('read', 'other'), 'o', tree)).toThrow('Organization not found');
  });
  it('walks sub-trees and ancestors', () => {
    expect(tree.descendants('closed').sort()).toEqual(['deep', 'in-closed', 'reopened']);
    expect(tree.levelsFrom('deep')).toEqual(['inherit', 'comment', null]);
    expect(tree.levelsFrom(null)).toEqual([]);
  });
});

describe('collectionPermissions', () => {
  it('follows the role ladder', () => {
    expect(collectionPermissions('read')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions('admin')).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    expect(collectionPermissions(null)).toEqual({ view: false, admin: false, viewInviteLinks: false, create: false });
  });
});
