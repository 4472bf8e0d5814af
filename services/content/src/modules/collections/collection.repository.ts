import type { DefaultLevel } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { sql } from '../../db.ts';
import { Collection, type ICollection } from './collection.entity.ts';
import type { CollectionAccessFacts } from './collection.policy.ts';
import { CollectionTree } from './collection-tree.ts';

/** Queries of the collection table. */
export const collectionRepository = {
  async findById(em: EntityManager, id: string): Promise<ICollection | null> {
    return em.findOne(Collection, { id });
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

  /** What content directly in `id` inherits: the levels of `id` and its ancestors, nearest first. */
  async levelsFrom(em: EntityManager, id: string | null | undefined): Promise<DefaultLevel[]> {
    return (await collectionRepository.chain(em, id)).map((c) => c.defaultLevel);
  },

  async facts(em: EntityManager, c: ICollection): Promise<CollectionAccessFacts> {
    return { organizationId: c.organizationId, defaultLevel: c.defaultLevel ?? null, ancestors: await collectionRepository.levelsFrom(em, c.parentId) };
  },

  /** Every collection of an organization, as a tree (for lists and sub-tree operations). */
  async tree(em: EntityManager, organizationId: string): Promise<CollectionTree> {
    const rows = await sql<{ id: string; parent_id: string | null; default_level: DefaultLevel }>(
      em,
      `select id, parent_id, default_level from :schema.collection where organization_id = ?`,
      [organizationId],
    );
    return new CollectionTree(rows.map((r) => ({ id: r.id, parentId: r.parent_id, defaultLevel: r.default_level ?? null })));
  },
};
