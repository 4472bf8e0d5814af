import type { Actor, CollectionPermissions, DefaultLevel, Role } from '@quire/contracts';
import { forbidden, membershipOf, notFound, roleAtLeast } from '@quire/kit';
import { contentRole, listScope, openToMembers, requireRole } from '../access/access.policy.ts';
import type { CollectionTree } from './collection-tree.ts';

/** What the policy needs to know of a collection. */
export interface CollectionAccessFacts {
  organizationId: string;
  defaultLevel: DefaultLevel;
  /** Levels of the parent collection, its parent… nearest first (`inherit` resolves through them). */
  ancestors?: readonly DefaultLevel[];
}

/** Operation → the role it needs on the collection (404 below `read`, 403 below the rest). */
export const COLLECTION_ACTIONS = {
  /** GET the collection, list its spaces. */
  view: 'read',
  /** PATCH title, description, defaultLevel. */
  update: 'admin',
  /** DELETE (its spaces and sub-collections move up to its parent). */
  delete: 'admin',
  /** POST move (plus `create` on the destination). */
  move: 'admin',
  /** Create spaces or collections in it, move content into it. */
  create: 'create',
} as const satisfies Record<string, Role>;
export type CollectionAction = keyof typeof COLLECTION_ACTIONS;

const ACTION_TEXT: Record<CollectionAction, string> = {
  view: 'Viewing the collection',
  update: 'Updating the collection',
  delete: 'Deleting the collection',
  move: 'Moving the collection',
  create: 'Creating or moving content into the collection',
};

export function collectionRole(actor: Actor, c: CollectionAccessFacts): Role | null {
  return contentRole(actor, c.organizationId, c.defaultLevel, c.ancestors);
}

export function collectionPermissions(role: Role | null): CollectionPermissions {
  return {
    view: role !== null,
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    create: roleAtLeast(role, 'create'),
  };
}

/** The caller's role when it allows `action`; 404 when the collection is not visible, 403 when the role is too low. */
export function assertCollectionAllows(actor: Actor, c: CollectionAccessFacts, action: CollectionAction): Role {
  return requireRole(collectionRole(actor, c), COLLECTION_ACTIONS[action], 'Collection', ACTION_TEXT[action]);
}

/**
 * Creating content (or moving it) at the top level of an organization takes the `create` organization role;
 * inside a collection it takes `create` on that collection (which a collection level can grant or withhold).
 */
export function assertCanCreateIn(actor: Actor, organizationId: string, container: CollectionAccessFacts | null): void {
  const m = membershipOf(actor, organizationId);
  if (!m) throw notFound('Organization');
  if (container === null) {
    if (!roleAtLeast(m.role, 'create')) throw forbidden('Creating content at the top level needs the `create` role in the organization');
    return;
  }
  assertCollectionAllows(actor, container, 'create');
}

/** Which collections of an organization the caller may list: `'all'`, or the ids it can see. */
export function visibleCollections(actor: Actor, organizationId: string, tree: CollectionTree): 'all' | string[] {
  const scope = listScope(actor, organizationId);
  if (scope === 'all') return 'all';
  if (scope === 'none') return [];
  return tree.ids.filter((id) => {
    const [own = null, ...ancestors] = tree.levelsFrom(id);
    return openToMembers(own, ancestors);
  });
}
