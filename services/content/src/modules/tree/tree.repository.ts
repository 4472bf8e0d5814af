import { sql, sqlRun, type EntityManager } from '@quire/kit';

export type TreeKind = 'space' | 'collection';
export interface TreeRow {
  kind: TreeKind;
  id: string;
  position: number;
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
    const rows = await sql<{ kind: TreeKind; id: string; position: string }>(
      em,
      `select kind, id, position from (
         select 'space' as kind, id, position from :schema.space where organization_id = ? and parent_id is not distinct from ? and deleted_at is null
         union all
         select 'collection' as kind, id, position from :schema.collection where organization_id = ? and parent_id is not distinct from ?
       ) s order by position, id`,
      [organizationId, parentId, organizationId, parentId],
    );
    return rows.map((r) => ({ kind: r.kind, id: r.id, position: Number(r.position) }));
  },

  /** Writes new positions of one kind of item. */
  async setPositions(em: EntityManager, kind: TreeKind, rows: { id: string; position: number }[]): Promise<void> {
    if (!rows.length) return;
    const values = rows.map(() => '(?, ?::bigint)').join(', ');
    await sqlRun(
      em,
      `update :schema.${kind} t set position = v.position from (values ${values}) v(id, position) where t.id = v.id`,
      rows.flatMap((s) => [s.id, s.position]),
    );
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
