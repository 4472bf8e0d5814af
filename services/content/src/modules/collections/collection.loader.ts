import type { List, Role } from '@quire/contracts';
import { membershipOf, notFound, pageOfList, paginate, type PageRequest } from '@quire/kit';
import { RESTORE_WINDOW_MS } from '../../commands/space-trash.ts';
import type { ContentContext } from '../../trpc.ts';
import { factsIn, factsUnder } from '../access/access.policy.ts';
import { assertCanTransfer } from '../access/organization.policy.ts';
import { grantRepository } from '../permissions/grant.repository.ts';
import { resolveDestination, type DestinationRequest } from '../tree/destination.ts';
import type { CollectionTree } from './collection-tree.ts';
import { Collection, type ICollection } from './collection.entity.ts';
import { type DeletedCollection, deletedCollectionRepository } from './deleted-collection.repository.ts';
import {
  assertCanCreateIn,
  collectionPolicy,
  deletedCollectionFacts,
  restorableCollections,
  returnParent,
  visibleCollections,
  type CollectionAccessFacts,
  type CollectionAction,
} from './collection.policy.ts';
import { collectionRepository } from './collection.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

export interface LoadedCollection {
  collection: ICollection;
  facts: CollectionAccessFacts;
  role: Role;
}

/** The collection the caller may `action` on, with its facts and the caller's role (404 not visible, 403 too low). */
export async function loadCollectionFor(
  ctx: Ctx,
  collectionId: string,
  action: CollectionAction,
): Promise<LoadedCollection> {
  const collection = await collectionRepository.findById(ctx.em, collectionId);
  if (!collection) throw notFound('Collection');
  const facts = await grantRepository.factsOf(ctx.em, 'collection', collection);
  return { collection, facts, role: collectionPolicy.assert(ctx.actor, facts, action) };
}

/**
 * Where new content goes: a collection of the organization (its facts), or the top level (null). 404 when
 * the caller is not a member of the organization or the collection is not one of its own.
 */
export async function loadContainer(
  ctx: Ctx,
  organizationId: string,
  parentId: string | null | undefined,
): Promise<CollectionAccessFacts | null> {
  if (!membershipOf(ctx.actor, organizationId)) throw notFound('Organization');
  if (parentId == null) return null;
  const parent = await collectionRepository.findIn(ctx.em, organizationId, parentId);
  if (!parent) throw notFound('Collection');
  return grantRepository.factsOf(ctx.em, 'collection', parent);
}

/**
 * Where new content goes (`loadContainer`), once the caller may create there (403 otherwise): the access facts
 * content created there starts with.
 */
export async function loadContainerToCreateIn(
  ctx: Ctx,
  organizationId: string,
  parentId: string | null | undefined,
): Promise<CollectionAccessFacts> {
  const container = await loadContainer(ctx, organizationId, parentId);
  assertCanCreateIn(ctx.actor, organizationId, container);
  return factsUnder(organizationId, container);
}

/**
 * Where a move goes (`resolveDestination`) and the access facts the moved item (now `facts`) has there. Moving
 * under another parent takes the right to create there (403); reordering among siblings does not.
 */
export async function loadMoveDestination(
  ctx: Ctx,
  req: DestinationRequest,
  facts: CollectionAccessFacts,
): Promise<{ parentId: string | null; facts: CollectionAccessFacts }> {
  const dest = await resolveDestination(ctx.em, req);
  const container = dest.collection ? await grantRepository.factsOf(ctx.em, 'collection', dest.collection) : null;
  if (dest.parentId !== (req.currentParentId ?? null)) assertCanCreateIn(ctx.actor, req.organizationId, container);
  return { parentId: dest.parentId, facts: factsIn(req.organizationId, facts, container) };
}

/** The collection the caller may transfer, to an organization it may transfer into (403; 409 to its own). */
export async function loadCollectionToTransfer(ctx: Ctx, collectionId: string, to: string): Promise<LoadedCollection> {
  const loaded = await loadCollectionFor(ctx, collectionId, 'transfer');
  assertCanTransfer(ctx.actor, loaded.collection.organizationId, to, 'collection');
  return loaded;
}

/**
 * A page of the organization's collections the caller can see (all of them, or only the top level when `nested`
 * is false), in tree order, with the tree their facts are read from.
 */
export async function loadVisibleCollections(
  ctx: Ctx,
  input: PageRequest & { organizationId: string; nested?: boolean | undefined },
): Promise<{ tree: CollectionTree; page: List<ICollection> }> {
  const tree = await collectionRepository.tree(ctx.em, input.organizationId);
  const visible = visibleCollections(ctx.actor, input.organizationId, tree);
  if (visible !== 'all' && !visible.length) return { tree, page: { count: 0, items: [] } };
  const where = {
    organizationId: input.organizationId,
    ...(input.nested === false ? { parentId: null } : {}),
    ...(visible !== 'all' ? { id: { $in: visible } } : {}),
  };
  return { tree, page: await paginate(ctx.em, Collection, where, { order: 'asc', id: 'asc' }, input, (c) => c) };
}

/** A collection of the trash with where it goes back and its access facts there. */
export interface LoadedDeletedCollection {
  deleted: DeletedCollection;
  parentId: string | null;
  facts: CollectionAccessFacts;
}

/**
 * The deleted collection the caller may restore (404 when it is not in the trash or not visible, 403 below `admin`
 * on it), where it goes back (its old parent while that exists, else the top level: 403 without `create` there)
 * and its access facts there.
 */
export async function loadDeletedCollectionToRestore(ctx: Ctx, collectionId: string): Promise<LoadedDeletedCollection> {
  const deleted = await deletedCollectionRepository.findById(ctx.em, collectionId);
  if (!deleted) throw notFound('Collection');
  const tree = await collectionRepository.tree(ctx.em, deleted.organizationId);
  const parentId = returnParent(tree, deleted.parentId);
  const facts = deletedCollectionFacts(tree, deleted, parentId);
  collectionPolicy.assert(ctx.actor, facts, 'restore');
  assertCanCreateIn(ctx.actor, deleted.organizationId, await loadContainer(ctx, deleted.organizationId, parentId));
  return { deleted, parentId, facts };
}

/**
 * A page of the organization's deleted collections: those deleted within the restore window (7 days) that the
 * caller may restore, the latest deleted first (404 for a caller who is not a member).
 */
export async function loadRestorableCollections(
  ctx: Ctx,
  input: PageRequest & { organizationId: string },
  now = new Date(),
): Promise<List<LoadedDeletedCollection>> {
  const tree = await collectionRepository.tree(ctx.em, input.organizationId);
  const deleted = await deletedCollectionRepository.deletedSince(
    ctx.em,
    input.organizationId,
    new Date(now.getTime() - RESTORE_WINDOW_MS),
  );
  const restorable = restorableCollections(ctx.actor, input.organizationId, tree, deleted);
  return pageOfList(restorable, (r) => [r.deleted.deletedAt.toISOString(), r.deleted.id], input, 'desc');
}
