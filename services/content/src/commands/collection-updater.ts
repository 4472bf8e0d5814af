import { Events, type DefaultLevel } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { ICollection } from '../modules/collections/collection.entity.ts';

export interface CollectionUpdaterProps {
  collection: ICollection;
  title?: string | undefined;
  /** An empty description removes it. */
  description?: string | undefined;
  defaultLevel?: DefaultLevel | undefined;
  now?: Date;
}

/** Applies the fields that change; `collection.updated` names them (none changed: no write, no event). */
export async function collectionUpdater(em: EntityManager, props: CollectionUpdaterProps): Promise<ICollection> {
  const { collection } = props;
  const changes: Partial<Pick<ICollection, 'title' | 'description' | 'defaultLevel'>> = {};
  if (props.title !== undefined && props.title !== collection.title) changes.title = props.title;
  if (props.description !== undefined && (props.description || null) !== collection.description)
    changes.description = props.description || null;
  if (props.defaultLevel !== undefined && props.defaultLevel !== (collection.defaultLevel ?? null))
    changes.defaultLevel = props.defaultLevel;
  const fields = Object.keys(changes);
  if (!fields.length) return collection;
  Object.assign(collection, changes, { updatedAt: props.now ?? new Date() });
  em.persist(collection);
  recordEvent(em, Events.collectionUpdated, {
    collection: collection.id,
    organization: collection.organizationId,
    title: collection.title,
    fields,
  });
  return collection;
}
