import { sql, type EntityManager } from '@quire/kit';

export type TreeKind = 'space' | 'collection';
export interface TreeRow {
  kind: TreeKind;
  id: string;
  order: string;
}

/** The SQL of the content tree's order (sibling-order.ts holds the rules). */
export const treeRepository = {
  /** Serializes changes to one sibling group until the transaction ends. Call inside a transaction. */
  async lockSiblingGroup(em: EntityManager, organizationId: string, parentId: string | null): Promise<void> {
    await sql(em, `select pg_advisory_xact_lock(hashtextextended(?, 0))`, [
      `content-tree:${organizationId}:${parentId ?? ''}`,
    ]);
  },

  /** Serializes changes to the shape of an organization's collection tree (moves, deletes, transfers): no cycles. */
  async lockCollectionTree(em: EntityManager, organizationId: string): Promise<void> {
    await sql(em, `select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`content-collections:${organizationId}`]);
  },

  /** The live spaces and the collections directly in a parent, in order. */
  async siblings(em: EntityManager, organizationId: string, parentId: string | null): Promise<TreeRow[]> {
    return sql<TreeRow>(
      em,
      `select kind, id, ord as "order" from (
         select 'space' as kind, id, ord from :schema.space where organization_id = ? and parent_id is not distinct from ? and deleted_at is null
         union all
         select 'collection' as kind, id, ord from :schema.collection where organization_id = ? and parent_id is not distinct from ?
       ) s order by ord, id`,
      [organizationId, parentId, organizationId, parentId],
    );
  },

  /**
   * The order key of the last sibling in a group (`exclude`: an item's id left out, it being moved), or null when it
   * is empty: one row per table read backwards by `(ord, id)`, whatever the number of siblings.
   */
  async lastOrder(
    em: EntityManager,
    organizationId: string,
    parentId: string | null,
    exclude: string | undefined,
  ): Promise<string | null> {
    const last = (table: 'space' | 'collection') =>
      `(select ord, id from :schema.${table} where organization_id = ? and parent_id is not distinct from ?
          and id <> ?${table === 'space' ? ' and deleted_at is null' : ''} order by ord desc, id desc limit 1)`;
    const rows = await sql<{ ord: string }>(
      em,
      `select ord from (${last('space')} union all ${last('collection')}) s order by ord desc, id desc limit 1`,
      [organizationId, parentId, exclude ?? '', organizationId, parentId, exclude ?? ''],
    );
    return rows[0]?.ord ?? null;
  },

  /** The parent of a live space or a collection of the organization: `undefined` when there is no such item. */
  async parentOf(
    em: EntityManager,
    kind: TreeKind,
    id: string,
    organizationId: string,
  ): Promise<string | null | undefined> {
    const rows = await sql<{ parent_id: string | null }>(
      em,
      `select parent_id from :schema.${kind} where id = ? and organization_id = ?${kind === 'space' ? ' and deleted_at is null' : ''}`,
      [id, organizationId],
    );
    return rows[0] ? rows[0].parent_id : undefined;
  },
};
