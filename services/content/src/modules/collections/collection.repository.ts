import type { DefaultLevel } from '@quire/contracts';
import { marks, sql, sqlRun, type EntityManager } from '@quire/kit';
import { Collection, type ICollection } from './collection.entity.ts';
import { CollectionTree } from './collection-tree.ts';
import { grantRepository } from '../permissions/grant.repository.ts';

/** Queries of the collection table. */
export const collectionRepository = {
  async findById(em: EntityManager, id: string): Promise<ICollection | null> {
    return em.findOne(Collection, { id });
  },

  /** A collection of the organization, or null. */
  async findIn(em: EntityManager, organizationId: string, id: string): Promise<ICollection | null> {
    return em.findOne(Collection, { id, organizationId });
  },

  /** `id` and its ancestors, nearest first ([] for the top level). */
  async chain(em: EntityManager, id: string | null | undefined): Promise<{ id: string; defaultLevel: DefaultLevel }[]> {
    if (id == null) return [];
    const rows = await sql<{ id: string; default_level: DefaultLevel }>(
      em,
      `with recursive chain(id, parent_id, default_level, depth) as (
         select id, parent_id, default_level, 0 from :schema.collection where id = ?
         union all
         select c.id, c.parent_id, c.default_level, chain.depth + 1 from :schema.collection c join chain on c.id = chain.parent_id where chain.depth < 64
       ) select id, default_level from chain order by depth`,
      [id],
    );
    return rows.map((r) => ({ id: r.id, defaultLevel: r.default_level ?? null }));
  },

  /** Every collection of an organization, with the organization's explicit grants, as a tree (for lists and sub-tree operations). */
  async tree(em: EntityManager, organizationId: string): Promise<CollectionTree> {
    const rows = await sql<{ id: string; parent_id: string | null; default_level: DefaultLevel }>(
      em,
      `select id, parent_id, default_level from :schema.collection where organization_id = ?`,
      [organizationId],
    );
    const grants = await grantRepository.ofOrganization(em, organizationId);
    return new CollectionTree(
      rows.map((r) => ({ id: r.id, parentId: r.parent_id, defaultLevel: r.default_level ?? null })),
      grants,
    );
  },

  /** The direct children of a collection, spaces (deleted ones too) and collections, in their order. */
  async children(em: EntityManager, id: string): Promise<{ kind: 'space' | 'collection'; id: string }[]> {
    return sql<{ kind: 'space' | 'collection'; id: string }>(
      em,
      `select kind, id from (
         select 'space' as kind, id, ord from :schema.space where parent_id = ?
         union all
         select 'collection' as kind, id, ord from :schema.collection where parent_id = ?
       ) c order by ord, id`,
      [id, id],
    );
  },

  /** Re-parents a collection at `order` (no event: the caller's command records it). */
  async reparent(em: EntityManager, id: string, parentId: string | null, order: string): Promise<void> {
    await sqlRun(em, `update :schema.collection set parent_id = ?, ord = ? where id = ?`, [parentId, order, id]);
  },

  /** Moves collections to another organization. */
  async setOrganization(em: EntityManager, ids: string[], organizationId: string, now: Date): Promise<void> {
    await sqlRun(
      em,
      `update :schema.collection set organization_id = ?, updated_at = ? where id in (${marks(ids.length)})`,
      [organizationId, now, ...ids],
    );
  },
};
