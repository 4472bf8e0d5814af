import type { Actor } from '@quire/contracts';
import { definePolicy } from '@quire/kit';
import { contentRole, listScope, type ContentAccessFacts } from '../access/access.policy.ts';
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
