import type { Actor, DefaultLevel, Role, SpacePermissions } from '@quire/contracts';
import { roleAtLeast } from '@quire/kit';
import { contentRole, listScope, openToMembers, requireRole } from '../access/access.policy.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';

/** What the policy needs to know of a space. */
export interface SpaceAccessFacts {
  organizationId: string;
  defaultLevel?: DefaultLevel | undefined;
  /** Levels of the parent collection, its parent… nearest first (`inherit` resolves through them). */
  ancestors?: readonly DefaultLevel[];
}

/**
 * Operation → the role it needs on the space (404 when the caller has none, 403 when it is too low).
 * GitBook's `permissions.admin` reads "can edit the title, install integrations and manage the space":
 * every setting is an admin matter.
 */
export const SPACE_ACTIONS = {
  /** GET the space (a deleted one too, until purged), lists. */
  view: 'read',
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
} as const satisfies Record<string, Role>;
export type SpaceAction = keyof typeof SPACE_ACTIONS;

const ACTION_TEXT: Record<SpaceAction, string> = {
  view: 'Viewing the space',
  update: 'Changing the space settings',
  delete: 'Deleting the space',
  restore: 'Restoring the space',
  duplicate: 'Duplicating the space',
  move: 'Moving the space',
  transfer: 'Transferring the space',
};

/** The caller's role on a space (see access.policy.ts for the rule). */
export function spaceRole(actor: Actor, space: SpaceAccessFacts): Role | null {
  return contentRole(actor, space.organizationId, space.defaultLevel ?? null, space.ancestors);
}

export function spacePermissions(role: Role | null): SpacePermissions {
  return {
    view: role !== null,
    access: role !== null,
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'review'),
    review: roleAtLeast(role, 'review'),
  };
}

/** The caller's role when it allows `action`; 404 when the space is not visible, 403 when the role is too low. */
export function assertSpaceAllows(actor: Actor, space: SpaceAccessFacts, action: SpaceAction): Role {
  return requireRole(spaceRole(actor, space), SPACE_ACTIONS[action], 'Space', ACTION_TEXT[action]);
}

/**
 * Which live spaces of an organization a caller can list. Non-admin members all see the same ones: a space
 * whose level names a role, or that inherits down to the organization, or from a collection open to members.
 */
export type SpaceScope = { kind: 'all' } | { kind: 'none' } | { kind: 'open'; openParents: string[] };
export function visibleSpaces(actor: Actor, organizationId: string, tree: CollectionTree): SpaceScope {
  const scope = listScope(actor, organizationId);
  if (scope !== 'members') return { kind: scope };
  return { kind: 'open', openParents: tree.ids.filter((id) => openToMembers('inherit', tree.levelsFrom(id))) };
}
