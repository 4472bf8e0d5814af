import { Events, type DefaultLevel } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Collection, type ICollection } from '../modules/collections/collection.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';

export interface CreateCollectionProps {
  organizationId: string;
  /** The parent collection (checked by the caller), or the top level. */
  parentId?: string | null | undefined;
  title?: string | undefined;
  now?: Date;
}

/** A new collection, last in its parent, inheriting its access level; `collection.created` goes to the outbox with it. */
export async function createCollection(em: EntityManager, props: CreateCollectionProps): Promise<ICollection> {
  return em.transactional(async (tx) => {
    const now = props.now ?? new Date();
    const parentId = props.parentId ?? null;
    const position = await placeInTree(tx, { organizationId: props.organizationId, parentId });
    const collection = tx.create(Collection, {
      id: newId(),
      organizationId: props.organizationId,
      parentId,
      position,
      title: props.title ?? 'Untitled',
      description: null,
      defaultLevel: 'inherit' satisfies DefaultLevel,
      createdAt: now,
      updatedAt: now,
    });
    recordEvent(tx, Events.collectionCreated, { collection: collection.id, organization: collection.organizationId, title: collection.title, ...(parentId ? { parent: parentId } : {}) });
    return collection;
  });
}
