import { Events, type ContentPosition } from '@quire/contracts';
import { invalid, recordEvent, type EntityManager } from '@quire/kit';
import type { ICollection } from '../modules/collections/collection.entity.ts';
import { collectionRepository } from '../modules/collections/collection.repository.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';
import { treeRepository } from '../modules/tree/tree.repository.ts';

export interface CollectionMoverProps {
  collection: ICollection;
  /** The destination parent (resolved and checked by the caller: modules/tree/destination.ts). */
  parentId: string | null;
  position?: ContentPosition | undefined;
  now?: Date;
}

/**
 * Puts a collection (with everything in it) in its destination parent, before/after a sibling or last.
 * 400 when the destination is the collection itself or inside it (no cycles). `collection.moved`.
 */
export async function collectionMover(em: EntityManager, props: CollectionMoverProps): Promise<ICollection> {
  const { collection } = props;
  await treeRepository.lockCollectionTree(em, collection.organizationId);
  if (props.parentId !== null) {
    const chain = await collectionRepository.chain(em, props.parentId);
    if (chain.some((c) => c.id === collection.id))
      throw invalid('parent: a collection cannot move into itself or one of its sub-collections');
  }
  const order = await placeInTree(em, {
    organizationId: collection.organizationId,
    parentId: props.parentId,
    position: props.position,
    item: { kind: 'collection', id: collection.id },
  });
  collection.parentId = props.parentId;
  collection.order = order;
  collection.updatedAt = props.now ?? new Date();
  em.persist(collection);
  recordEvent(em, Events.collectionMoved, {
    collection: collection.id,
    organization: collection.organizationId,
    ...(collection.parentId ? { parent: collection.parentId } : {}),
  });
  return collection;
}
