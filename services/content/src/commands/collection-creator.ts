import { Events, type DefaultLevel } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Collection, type ICollection } from '../modules/collections/collection.entity.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';

export interface CollectionCreatorProps {
  organizationId: string;
  /** The parent collection (checked by the caller), or the top level. */
  parentId?: string | null | undefined;
  title?: string | undefined;
  now?: Date;
}

/** A new collection, last in its parent, inheriting its access level; `collection.created` goes to the outbox with it. */
export async function collectionCreator(em: EntityManager, props: CollectionCreatorProps): Promise<ICollection> {
  const now = props.now ?? new Date();
  const parentId = props.parentId ?? null;
  const order = await placeInTree(em, { organizationId: props.organizationId, parentId });
  const collection = em.create(Collection, {
    id: newId(),
    organizationId: props.organizationId,
    parentId,
    order,
    title: props.title ?? 'Untitled',
    description: null,
    defaultLevel: 'inherit' satisfies DefaultLevel,
    createdAt: now,
    updatedAt: now,
  });
  recordEvent(em, Events.collectionCreated, {
    collection: collection.id,
    organization: collection.organizationId,
    title: collection.title,
    ...(parentId ? { parent: parentId } : {}),
  });
  return collection;
}
