import { Events } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import { Collection, type ICollection } from '../modules/collections/collection.entity.ts';
import { createdEventOf, newItemFields, type NewItemProps } from '../modules/tree/sibling-order.ts';

/** A new collection, last in its parent, inheriting its access level; `collection.created` goes to the outbox with it. */
export async function collectionCreator(em: EntityManager, props: NewItemProps): Promise<ICollection> {
  const collection = em.create(Collection, { id: newId(), ...(await newItemFields(em, props)), description: null });
  recordEvent(em, Events.collectionCreated, {
    collection: collection.id,
    ...createdEventOf(collection),
  });
  return collection;
}
