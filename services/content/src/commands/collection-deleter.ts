import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import { sql, sqlRun } from '../db.ts';
import { Collection, type ICollection } from '../modules/collections/collection.entity.ts';
import { lockCollectionTree, placeInTree, POSITION_GAP } from '../modules/tree/sibling-order.ts';

/**
 * Deletes a collection without losing anything: its spaces (deleted ones too, so a restore finds a home)
 * and sub-collections move up to its parent, after the parent's current children and in their own order.
 * Spaces that reach the top level lose `in-collection` visibility (→ `private`). They now inherit their
 * access level from the new parent. `collection.deleted` lists what moved.
 */
export async function deleteCollection(em: EntityManager, collection: ICollection): Promise<void> {
  await em.transactional(async (tx) => {
    await lockCollectionTree(tx, collection.organizationId);
    const dest = collection.parentId ?? null;
    const base = await placeInTree(tx, { organizationId: collection.organizationId, parentId: dest });
    const children = await sql<{ kind: 'space' | 'collection'; id: string }>(
      tx,
      `select kind, id from (
         select 'space' as kind, id, position from :schema.space where parent_id = ?
         union all
         select 'collection' as kind, id, position from :schema.collection where parent_id = ?
       ) c order by position, id`,
      [collection.id, collection.id],
    );
    const movedSpaces: string[] = [];
    const movedCollections: string[] = [];
    for (const [i, child] of children.entries()) {
      const position = base + i * POSITION_GAP;
      if (child.kind === 'space') {
        await sqlRun(
          tx,
          `update :schema.space set parent_id = ?, position = ?,
             visibility = case when ?::text is null and visibility = 'in-collection' then 'private' else visibility end
           where id = ?`,
          [dest, position, dest, child.id],
        );
        movedSpaces.push(child.id);
      } else {
        await sqlRun(tx, `update :schema.collection set parent_id = ?, position = ? where id = ?`, [dest, position, child.id]);
        movedCollections.push(child.id);
      }
    }
    tx.remove(tx.getReference(Collection, collection.id));
    recordEvent(tx, Events.collectionDeleted, {
      collection: collection.id,
      organization: collection.organizationId,
      ...(dest ? { parent: dest } : {}),
      movedSpaces,
      movedCollections,
    });
  });
}
