import type { DefaultLevel, Role } from '@quire/contracts';
import { sql, sqlRun, type EntityManager } from '@quire/kit';
import type { Grant } from '../access/access.policy.ts';

/** A grant of a deleted collection, as it was (restored with it). */
export interface DeletedGrant {
  kind: 'user' | 'team';
  id: string;
  role: Role;
  grantedAt: string;
}

/** What a collection's delete moved up to its parent: where the item was (`ord`) and where the delete put it. */
export interface MovedChild {
  kind: 'space' | 'collection';
  id: string;
  /** Its order key in the collection. */
  ord: string;
  /** Its order key in the parent the delete moved it to. */
  movedOrd: string;
  /** A space made `private` by the move to the top level (it was `in-collection`). */
  wasInCollection?: boolean;
}

/** A collection in the trash: the collection as it was, its grants and what its delete moved. */
export interface DeletedCollection {
  id: string;
  organizationId: string;
  parentId: string | null;
  order: string;
  title: string;
  description: string | null;
  defaultLevel: DefaultLevel;
  createdAt: Date;
  deletedAt: Date;
  deletedBy: string | null;
  grants: DeletedGrant[];
  moved: MovedChild[];
}

interface Row {
  id: string;
  organization_id: string;
  parent_id: string | null;
  ord: string;
  title: string;
  description: string | null;
  default_level: DefaultLevel;
  created_at: Date;
  deleted_at: Date;
  deleted_by: string | null;
  grants: DeletedGrant[];
  moved: MovedChild[];
}

const fromRow = (r: Row): DeletedCollection => ({
  id: r.id,
  organizationId: r.organization_id,
  parentId: r.parent_id,
  order: r.ord,
  title: r.title,
  description: r.description,
  defaultLevel: r.default_level ?? null,
  createdAt: new Date(r.created_at),
  deletedAt: new Date(r.deleted_at),
  deletedBy: r.deleted_by,
  grants: r.grants,
  moved: r.moved,
});

/** The grants of a deleted collection as the access policy reads them. */
export const grantsOfDeleted = (d: DeletedCollection): Grant[] =>
  d.grants.map((g) => ({ kind: g.kind, id: g.id, role: g.role }));

/** The trash of collections (`deleted_collection`) and what a delete or a restore changes in the tree. */
export const deletedCollectionRepository = {
  /** The direct children of a collection (deleted spaces too) with their order key and, for a space, its visibility. */
  async children(
    em: EntityManager,
    id: string,
  ): Promise<{ kind: 'space' | 'collection'; id: string; ord: string; visibility: string | null }[]> {
    return sql(
      em,
      `select kind, id, ord, visibility from (
         select 'space' as kind, id, ord, visibility from :schema.space where parent_id = ?
         union all
         select 'collection' as kind, id, ord, null as visibility from :schema.collection where parent_id = ?
       ) c order by ord, id`,
      [id, id],
    );
  },

  /** The explicit grants on a collection (before it is deleted: they go with its row). */
  async grantsOf(em: EntityManager, id: string): Promise<DeletedGrant[]> {
    const rows = await sql<{ principal_kind: 'user' | 'team'; principal_id: string; role: Role; granted_at: Date }>(
      em,
      `select principal_kind, principal_id, role, granted_at from :schema.collection_grant where collection_id = ?
       order by principal_kind, principal_id`,
      [id],
    );
    return rows.map((r) => ({
      kind: r.principal_kind,
      id: r.principal_id,
      role: r.role,
      grantedAt: new Date(r.granted_at).toISOString(),
    }));
  },

  /** Puts a deleted collection in the trash (replacing an older entry of the same id). */
  async insert(em: EntityManager, d: DeletedCollection): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.deleted_collection
         (id, organization_id, parent_id, ord, title, description, default_level, created_at, deleted_at, deleted_by, grants, moved)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)
       on conflict (id) do update set organization_id = excluded.organization_id, parent_id = excluded.parent_id,
         ord = excluded.ord, title = excluded.title, description = excluded.description,
         default_level = excluded.default_level, created_at = excluded.created_at, deleted_at = excluded.deleted_at,
         deleted_by = excluded.deleted_by, grants = excluded.grants, moved = excluded.moved`,
      [
        d.id,
        d.organizationId,
        d.parentId,
        d.order,
        d.title,
        d.description,
        d.defaultLevel,
        d.createdAt,
        d.deletedAt,
        d.deletedBy,
        JSON.stringify(d.grants),
        JSON.stringify(d.moved),
      ],
    );
  },

  /** A collection of the trash (whatever its age: the caller checks the restore window), or null. */
  async findById(em: EntityManager, id: string): Promise<DeletedCollection | null> {
    const [row] = await sql<Row>(em, `select * from :schema.deleted_collection where id = ?`, [id]);
    return row ? fromRow(row) : null;
  },

  /** The collections of an organization deleted at or after `since` (still restorable), the latest deleted first. */
  async deletedSince(em: EntityManager, organizationId: string, since: Date): Promise<DeletedCollection[]> {
    const rows = await sql<Row>(
      em,
      `select * from :schema.deleted_collection where organization_id = ? and deleted_at >= ?
       order by deleted_at desc, id desc`,
      [organizationId, since],
    );
    return rows.map(fromRow);
  },

  /**
   * Takes a collection out of the trash if it was deleted at or after `since`: true when this call did (a restore
   * racing another restore or the purge finds nothing).
   */
  async takeIfDeletedSince(em: EntityManager, id: string, since: Date): Promise<boolean> {
    return (
      (await sqlRun(em, `delete from :schema.deleted_collection where id = ? and deleted_at >= ?`, [id, since])) > 0
    );
  },

  /** Creates the collection again with its id, place, fields and grants (`now`: its `updated_at`). */
  async recreate(em: EntityManager, d: DeletedCollection, parentId: string | null, now: Date): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.collection
         (id, organization_id, parent_id, ord, title, description, default_level, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [d.id, d.organizationId, parentId, d.order, d.title, d.description, d.defaultLevel, d.createdAt, now],
    );
    for (const g of d.grants) {
      await sqlRun(
        em,
        `insert into :schema.collection_grant (collection_id, organization_id, principal_kind, principal_id, role, granted_at)
         values (?, ?, ?, ?, ?, ?)`,
        [d.id, d.organizationId, g.kind, g.id, g.role, g.grantedAt],
      );
    }
  },

  /**
   * Moves an item back into the restored collection at its old order key, if it is still where the delete put it
   * (its organization, `from` and `movedOrd`: one transferred to another organization since stays there); a space made private by the delete is `in-collection` again if it still is private.
   * True when it moved.
   */
  async moveBack(
    em: EntityManager,
    child: MovedChild,
    where: { organizationId: string; from: string | null },
    into: string,
  ): Promise<boolean> {
    const table = child.kind === 'space' ? ':schema.space' : ':schema.collection';
    const visibility =
      child.kind === 'space' && child.wasInCollection
        ? `, visibility = case when visibility = 'private' then 'in-collection' else visibility end`
        : '';
    return (
      (await sqlRun(
        em,
        `update ${table} set parent_id = ?, ord = ?${visibility}
         where id = ? and organization_id = ? and parent_id is not distinct from ? and ord = ?`,
        [into, child.ord, child.id, where.organizationId, where.from, child.movedOrd],
      )) > 0
    );
  },

  /** Removes for good up to `limit` collections deleted before `before`; their ids and organizations. */
  async purgeBefore(
    em: EntityManager,
    before: Date,
    limit: number,
  ): Promise<{ id: string; organization_id: string }[]> {
    return sql(
      em,
      `delete from :schema.deleted_collection where id in (
         select id from :schema.deleted_collection where deleted_at < ? order by deleted_at limit ? for update skip locked)
       returning id, organization_id`,
      [before, limit],
    );
  },
};
