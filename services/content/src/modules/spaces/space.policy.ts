import type { Actor } from '@quire/contracts';
import { definePolicy } from '@quire/kit';
import { contentRole, listScope, type ContentAccessFacts } from '../access/access.policy.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';

export type SpaceAccessFacts = ContentAccessFacts;

/**
 * Spaces: operation → the role it needs on the space (404 when the caller has none, 403 when it is too low).
 * GitBook's `permissions.admin` reads "can edit the title, install integrations and manage the space":
 * every setting is an admin matter.
 */
export const spacePolicy = definePolicy({
  resource: 'Space',
  role: contentRole,
  actions: {
    /** GET the space (a deleted one too, until purged), lists. */
    view: 'read',
    /** Search its live content (a deleted space: 404). */
    search: 'read',
    /** PATCH title, emoji, icon, visibility, editMode, defaultLevel. */
    update: 'admin',
    /** DELETE (to the trash). */
    delete: 'admin',
    /** POST restore (within 7 days). */
    restore: 'admin',
    /** POST duplicate (plus `create` where the copy goes: the source's parent). */
    duplicate: 'read',
    /** POST move (plus `create` on the destination when the parent changes). */
    move: 'admin',
    /** POST transfer (plus organization admin in both organizations). */
    transfer: 'admin',
    /** Create change requests, change their subject and status, write their content, update them from main. */
    edit: 'edit',
    /** Request reviewers, review change requests. */
    review: 'review',
    /** Merge change requests into the space (`permissions.merge`). */
    merge: 'review',
    /** Import a website straight into the space: its live content changes at once, as with a merge. */
    import: 'review',
    /** Post, reply to, react to, resolve comments (the space's or its change requests'). */
    comment: 'comment',
    /** Export the content (the space's or a change request's) as PDF. */
    export: 'read',
    /** Import a Git repository: merged into the live content at once, as a website import (`review`). */
    gitImport: 'review',
    /** Export the content to a Git repository (GitBook's `triggerGitSync` permission: `edit`). */
    gitExport: 'edit',
    /** Read the space's Git Sync state (GitBook's `space:read`). */
    gitInfo: 'read',
    /** List who was given an explicit role on the space, and everyone who can access it. */
    viewPermissions: 'read',
    /** Give users and teams a role on the space, change or remove it (`inviteToSpace`…). */
    managePermissions: 'admin',
  },
  describe: {
    view: 'Viewing the space',
    search: 'Searching the space',
    update: 'Changing the space settings',
    delete: 'Deleting the space',
    restore: 'Restoring the space',
    duplicate: 'Duplicating the space',
    move: 'Moving the space',
    transfer: 'Transferring the space',
    edit: 'Editing the content',
    review: 'Reviewing change requests',
    merge: 'Merging change requests',
    import: 'Importing content into the space (merged at once)',
    comment: 'Commenting',
    export: 'Exporting the content as PDF',
    gitImport: 'Importing a Git repository into the space',
    gitExport: 'Exporting the content to a Git repository',
    gitInfo: 'Viewing the Git Sync of the space',
    viewPermissions: 'Viewing the permissions of the space',
    managePermissions: 'Managing the permissions of the space',
  },
  permissions: {
    view: 'read',
    access: 'read',
    admin: 'admin',
    viewInviteLinks: 'admin',
    edit: 'edit',
    triggerGitSync: 'edit',
    comment: 'comment',
    merge: 'review',
    review: 'review',
  },
});
export type SpaceAction = keyof typeof spacePolicy.actions;

/**
 * Which live spaces of an organization a caller can list. Members with a role see a space whose level names a
 * role, or that inherits down to the organization; every caller (guests too) sees the spaces inheriting from a
 * collection that gives them access (`openParents`: by its levels or by a grant reaching them) and the spaces with
 * a grant of their own (`grantedSpaces`).
 */
export type SpaceScope =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'open'; byLevel: boolean; openParents: string[]; grantedSpaces: string[] };

export function visibleSpaces(actor: Actor, organizationId: string, tree: CollectionTree): SpaceScope {
  const scope = listScope(actor, organizationId);
  if (scope === 'all') return { kind: 'all' };
  const openParents = tree.ids.filter(
    (id) => contentRole(actor, tree.factsOf({ organizationId, defaultLevel: 'inherit', parentId: id })) !== null,
  );
  const grantedSpaces = tree.grantedSpaceIds.filter(
    (id) => contentRole(actor, tree.factsOf({ id, organizationId, defaultLevel: null })) !== null,
  );
  const byLevel = scope === 'members';
  if (!byLevel && !openParents.length && !grantedSpaces.length) return { kind: 'none' };
  return { kind: 'open', byLevel, openParents, grantedSpaces };
}

/**
 * The spaces of the trash a caller may see: those it may restore (the space's admins; an organization's admins are
 * admins of every space). 404 for a caller who is not a member of the organization.
 */
export function restorableSpaces<S extends Parameters<CollectionTree['factsOf']>[0]>(
  actor: Actor,
  organizationId: string,
  tree: CollectionTree,
  spaces: S[],
): S[] {
  listScope(actor, organizationId);
  return spaces.filter((s) => spacePolicy.allows(actor, tree.factsOf(s), 'restore'));
}
