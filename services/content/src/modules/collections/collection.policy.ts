import type { Actor } from '@quire/contracts';
import { definePolicy } from '@quire/kit';
import { contentRole, type Grant, listScope, type ContentAccessFacts } from '../access/access.policy.ts';
import { organizationContentPolicy } from '../access/organization.policy.ts';
import type { CollectionTree } from './collection-tree.ts';

export type CollectionAccessFacts = ContentAccessFacts;

/** Collections: operation → the role it needs on the collection (404 below `read`, 403 below the rest). */
export const collectionPolicy = definePolicy({
  resource: 'Collection',
  role: contentRole,
  actions: {
    /** GET the collection, list its spaces. */
    view: 'read',
    /** PATCH title, description, defaultLevel. */
    update: 'admin',
    /** DELETE (its spaces and sub-collections move up to its parent). */
    delete: 'admin',
    /** POST move (plus `create` on the destination). */
    move: 'admin',
    /** POST transfer (plus organization admin in both organizations). */
    transfer: 'admin',
    /** POST restore from the trash (plus `create` where it goes back). */
    restore: 'admin',
    /** Create spaces or collections in it, move content into it. */
    create: 'create',
    /** List who was given an explicit role on the collection, and everyone who can access it. */
    viewPermissions: 'read',
    /** Give users and teams a role on the collection, change or remove it (`inviteToCollection`…). */
    managePermissions: 'admin',
  },
  describe: {
    view: 'Viewing the collection',
    update: 'Updating the collection',
    delete: 'Deleting the collection',
    move: 'Moving the collection',
    transfer: 'Transferring the collection',
    restore: 'Restoring the collection',
    create: 'Creating or moving content into the collection',
    viewPermissions: 'Viewing the permissions of the collection',
    managePermissions: 'Managing the permissions of the collection',
  },
  permissions: { view: 'read', admin: 'admin', viewInviteLinks: 'admin', create: 'create' },
});
export type CollectionAction = keyof typeof collectionPolicy.actions;

/**
 * Creating content (or moving it) at the top level of an organization takes the `create` organization role;
 * inside a collection it takes `create` on that collection (which a collection level can grant or withhold).
 */
export function assertCanCreateIn(actor: Actor, organizationId: string, container: CollectionAccessFacts | null): void {
  if (container === null) organizationContentPolicy.assert(actor, { organizationId }, 'createContent');
  else collectionPolicy.assert(actor, container, 'create');
}

/** Which collections of an organization the caller may list: `'all'`, or the ids it can see. */
export function visibleCollections(actor: Actor, organizationId: string, tree: CollectionTree): 'all' | string[] {
  if (listScope(actor, organizationId) === 'all') return 'all';
  return tree.ids.filter((id) => contentRole(actor, tree.collectionFacts(organizationId, id)) !== null);
}

/**
 * The access facts of a deleted collection as they would be once restored under `parentId` (its own level and
 * grants, kept in the trash, then its new parent's chain), from the tree (no query).
 */
export function deletedCollectionFacts(
  tree: CollectionTree,
  d: { organizationId: string; defaultLevel: CollectionAccessFacts['defaultLevel']; grants: readonly Grant[] },
  parentId: string | null,
): CollectionAccessFacts {
  return {
    organizationId: d.organizationId,
    defaultLevel: d.defaultLevel ?? null,
    ancestors: tree.levelsFrom(parentId),
    grants: [d.grants, ...tree.grantsFrom(parentId)],
  };
}

/**
 * The deleted collections the caller may restore (`restore`: admins of the collection as it would be restored;
 * the organization's admins, all), each with those facts and the parent it goes back into (404 for a non-member).
 */
export function restorableCollections<
  D extends {
    organizationId: string;
    defaultLevel: CollectionAccessFacts['defaultLevel'];
    grants: readonly Grant[];
    parentId: string | null;
  },
>(
  actor: Actor,
  organizationId: string,
  tree: CollectionTree,
  deleted: D[],
): { deleted: D; parentId: string | null; facts: CollectionAccessFacts }[] {
  listScope(actor, organizationId);
  return deleted
    .map((d) => {
      const parentId = returnParent(tree, d.parentId);
      return { deleted: d, parentId, facts: deletedCollectionFacts(tree, d, parentId) };
    })
    .filter(({ facts }) => collectionPolicy.allows(actor, facts, 'restore'));
}

/** Where a deleted collection goes back: its old parent while that collection exists, else the top level. */
export const returnParent = (tree: CollectionTree, parentId: string | null): string | null =>
  parentId !== null && tree.has(parentId) ? parentId : null;
