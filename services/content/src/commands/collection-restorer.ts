import { Events } from '@quire/contracts';
import { DomainError, notFound, recordEvent, type EntityManager } from '@quire/kit';
import type { ICollection } from '../modules/collections/collection.entity.ts';
import { collectionRepository } from '../modules/collections/collection.repository.ts';
import {
  type DeletedCollection,
  deletedCollectionRepository,
} from '../modules/collections/deleted-collection.repository.ts';
import { treeRepository } from '../modules/tree/tree.repository.ts';
import { RESTORE_WINDOW_DAYS, RESTORE_WINDOW_MS } from './space-trash.ts';

export interface CollectionRestorerProps {
  deleted: DeletedCollection;
  /** Where it goes back: its old parent when that collection still exists, else the top level (the loader's call). */
  parentId: string | null;
  now?: Date;
}

/**
 * Takes a collection out of the trash within the restore window (412 after it): the collection again, with its id,
 * title, description, level, order key and grants, in `parentId`; each space and sub-collection its delete moved up
 * goes back into it, at its old order key, if it is still where the delete put it (one moved since stays where it
 * is), and a space the delete made private is `in-collection` again if it still is private. `collection.restored`
 * lists what moved back. The take is conditional on the window: a restore racing the purge or another restore
 * either wins or finds nothing (404).
 */
export async function collectionRestorer(
  em: EntityManager,
  { deleted, parentId, now = new Date() }: CollectionRestorerProps,
): Promise<ICollection> {
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS);
  if (deleted.deletedAt < cutoff) {
    throw new DomainError(
      'precondition_failed',
      `The collection was deleted more than ${RESTORE_WINDOW_DAYS} days ago and can no longer be restored`,
    );
  }
  await treeRepository.lockCollectionTree(em, deleted.organizationId);
  if (!(await deletedCollectionRepository.takeIfDeletedSince(em, deleted.id, cutoff))) throw notFound('Collection');
  await deletedCollectionRepository.recreate(em, deleted, parentId, now);
  const movedSpaces: string[] = [];
  const movedCollections: string[] = [];
  for (const child of deleted.moved) {
    const where = { organizationId: deleted.organizationId, from: deleted.parentId };
    if (!(await deletedCollectionRepository.moveBack(em, child, where, deleted.id))) continue;
    (child.kind === 'space' ? movedSpaces : movedCollections).push(child.id);
  }
  recordEvent(em, Events.collectionRestored, {
    collection: deleted.id,
    organization: deleted.organizationId,
    title: deleted.title,
    ...(parentId ? { parent: parentId } : {}),
    movedSpaces,
    movedCollections,
  });
  const restored = await collectionRepository.findById(em, deleted.id);
  if (!restored) throw notFound('Collection');
  return restored;
}

export interface DeletedCollectionPurgerProps {
  now?: Date;
  /** At most this many collections. */
  limit: number;
}

/** Removes from the trash, for good, up to `limit` collections deleted more than 7 days before `now`; their ids. */
export async function deletedCollectionPurger(
  em: EntityManager,
  { now = new Date(), limit }: DeletedCollectionPurgerProps,
): Promise<string[]> {
  const gone = await deletedCollectionRepository.purgeBefore(em, new Date(now.getTime() - RESTORE_WINDOW_MS), limit);
  return gone.map((r) => r.id);
}
