import { Events } from '@quire/contracts';
import { orderKeyBetween, recordEvent, type EntityManager } from '@quire/kit';
import { Collection, type ICollection } from '../modules/collections/collection.entity.ts';
import { collectionRepository } from '../modules/collections/collection.repository.ts';
import { deletedCollectionRepository, type MovedChild } from '../modules/collections/deleted-collection.repository.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';
import { treeRepository } from '../modules/tree/tree.repository.ts';

export interface CollectionDeleterProps {
  collection: ICollection;
  /** The user who deletes it (shown in the trash). */
  by?: string | undefined;
  now?: Date;
}

/**
 * Deletes a collection without losing anything: its spaces (deleted ones too, so a restore finds a home)
 * and sub-collections move up to its parent, after the parent's current children and in their own order.
 * Spaces that reach the top level lose `in-collection` visibility (→ `private`). They now inherit their
 * access level from the new parent. `collection.deleted` lists what moved. The collection goes to the trash
 * (`deleted_collection`: itself, its grants, what moved and where to), from where `collectionRestorer` brings it
 * back within 7 days.
 */
export async function collectionDeleter(
  em: EntityManager,
  { collection, by, now = new Date() }: CollectionDeleterProps,
): Promise<void> {
  await treeRepository.lockCollectionTree(em, collection.organizationId);
  const dest = collection.parentId ?? null;
  let order = await placeInTree(em, { organizationId: collection.organizationId, parentId: dest });
  const movedSpaces: string[] = [];
  const movedCollections: string[] = [];
  const moved: MovedChild[] = [];
  for (const [i, child] of (await deletedCollectionRepository.children(em, collection.id)).entries()) {
    if (i > 0) order = orderKeyBetween(order, null);
    moved.push({
      kind: child.kind,
      id: child.id,
      ord: child.ord,
      movedOrd: order,
      ...(dest === null && child.visibility === 'in-collection' ? { wasInCollection: true } : {}),
    });
    if (child.kind === 'space') {
      await spaceRepository.reparent(em, child.id, dest, order);
      movedSpaces.push(child.id);
    } else {
      await collectionRepository.reparent(em, child.id, dest, order);
      movedCollections.push(child.id);
    }
  }
  await deletedCollectionRepository.insert(em, {
    id: collection.id,
    organizationId: collection.organizationId,
    parentId: dest,
    order: collection.order,
    title: collection.title,
    description: collection.description ?? null,
    defaultLevel: collection.defaultLevel ?? null,
    createdAt: collection.createdAt,
    deletedAt: now,
    deletedBy: by ?? null,
    grants: await deletedCollectionRepository.grantsOf(em, collection.id),
    moved,
  });
  em.remove(em.getReference(Collection, collection.id));
  recordEvent(em, Events.collectionDeleted, {
    collection: collection.id,
    organization: collection.organizationId,
    ...(dest ? { parent: dest } : {}),
    movedSpaces,
    movedCollections,
  });
}
