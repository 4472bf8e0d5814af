import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import { sql, sqlRun } from '../db.ts';
import type { ICollection } from '../modules/collections/collection.entity.ts';
import { collectionRepository } from '../modules/collections/collection.repository.ts';
import { lockCollectionTree, placeInTree } from '../modules/tree/sibling-order.ts';

export interface TransferCollectionProps {
  collection: ICollection;
  /** The target organization (the caller's admin role in both is checked by the policy). */
  organizationId: string;
  now?: Date;
}

/**
 * Moves a collection, its sub-collections and all their spaces (with their content; deleted spaces too) to
 * another organization in one transaction: the collection goes last at the target's top level, the
 * sub-tree keeps its shape and order. `collection.transferred`, and `space.transferred` for each space.
 */
export async function transferCollection(em: EntityManager, props: TransferCollectionProps): Promise<ICollection> {
  const { collection } = props;
  const from = collection.organizationId;
  const to = props.organizationId;
  return em.transactional(async (tx) => {
    for (const org of [from, to].sort()) await lockCollectionTree(tx, org);
    const tree = await collectionRepository.tree(tx, from);
    const collections = [collection.id, ...tree.descendants(collection.id)];
    const position = await placeInTree(tx, { organizationId: to, parentId: null });
    const now = props.now ?? new Date();
    const marks = collections.map(() => '?').join(', ');
    await sqlRun(tx, `update :schema.collection set organization_id = ?, updated_at = ? where id in (${marks})`, [to, now, ...collections]);
    const spaces = await sql<{ id: string; title: string }>(
      tx,
      `update :schema.space set organization_id = ?, updated_at = ? where parent_id in (${marks}) returning id, title`,
      [to, now, ...collections],
    );
    collection.organizationId = to;
    collection.parentId = null;
    collection.position = position;
    collection.updatedAt = now;
    tx.persist(collection);
    recordEvent(tx, Events.collectionTransferred, { collection: collection.id, organization: to, previousOrganization: from, collections, spaces: spaces.map((s) => s.id) });
    for (const s of spaces) recordEvent(tx, Events.spaceTransferred, { space: s.id, organization: to, previousOrganization: from, title: s.title, collection: collection.id });
    return collection;
  });
}
