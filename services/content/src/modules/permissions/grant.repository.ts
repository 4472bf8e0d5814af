import type { DefaultLevel, Role } from '@quire/contracts';
import { marks, sql, sqlRun, type EntityManager } from '@quire/kit';
import type { ContentAccessFacts, Grant } from '../access/access.policy.ts';
import type { GrantIndex } from '../collections/collection-tree.ts';

export type GrantResource = 'space' | 'collection';
export type PrincipalKind = 'user' | 'team';

const TABLE: Record<GrantResource, string> = { space: ':schema.space_grant', collection: ':schema.collection_grant' };
const COLUMN: Record<GrantResource, string> = { space: 'space_id', collection: 'collection_id' };

interface GrantRow {
  principal_kind: PrincipalKind;
  principal_id: string;
  role: Role;
}
const toGrant = (r: GrantRow): Grant => ({ kind: r.principal_kind, id: r.principal_id, role: r.role });

/** One row of an item's access facts: a level of its collection chain, or a grant (depth 0: the item's own). */
export interface AccessRow {
  depth: number;
  level: DefaultLevel | null;
  is_level: boolean;
  principal_kind: PrincipalKind;
  principal_id: string;
  role: Role;
}

/**
 * The statement of an item's access rows: the levels and grants of its collection chain (from `parent`, an SQL
 * expression: a parameter or an outer column) and its own grants (`id`), for `accessFactsOf`. A repository
 * reading an item may embed it (as a subquery aggregated with `json_agg`) to get the item and its facts in one
 * round trip.
 */
export const accessRowsOf = (kind: GrantResource, parent: string, id: string) =>
  `with recursive chain(id, parent_id, default_level, depth) as (
     select id, parent_id, default_level, 1 from :schema.collection where id = ${parent}
     union all
     select c.id, c.parent_id, c.default_level, chain.depth + 1 from :schema.collection c join chain on c.id = chain.parent_id where chain.depth < 64
   )
   select depth, default_level as level, true as is_level, null as principal_kind, null as principal_id, null as role from chain
   union all
   select chain.depth, null, false, g.principal_kind, g.principal_id, g.role from chain join :schema.collection_grant g on g.collection_id = chain.id
   union all
   select 0, null, false, g.principal_kind, g.principal_id, g.role from ${TABLE[kind]} g where g.${COLUMN[kind]} = ${id}`;

/** The access facts of an item (`kind`: a space or a collection, as `accessRowsOf` read it) from its access rows. */
export function accessFactsOf(
  kind: GrantResource,
  item: { id: string; organizationId: string; defaultLevel?: DefaultLevel | undefined },
  rows: readonly AccessRow[],
): ContentAccessFacts {
  const ancestors: DefaultLevel[] = [];
  const grants: Grant[][] = [[]];
  for (const r of rows) {
    const depth = Number(r.depth);
    if (r.is_level) ancestors[depth - 1] = r.level ?? null;
    else (grants[depth] ??= []).push(toGrant(r));
  }
  for (let i = 0; i <= ancestors.length; i++) grants[i] ??= [];
  return {
    organizationId: item.organizationId,
    ...(kind === 'space' ? { space: item.id } : {}),
    defaultLevel: item.defaultLevel ?? null,
    ancestors,
    grants: grants.slice(0, ancestors.length + 1),
  };
}

/** `accessRowsOf` an item by its parameters, built once per kind (the statement cache keys on the text). */
const ACCESS_ROWS: Record<GrantResource, string> = {
  space: accessRowsOf('space', '?', '?'),
  collection: accessRowsOf('collection', '?', '?'),
};

/** Explicit grants on spaces and collections (`space_grant`, `collection_grant`). */
export const grantRepository = {
  /**
   * The access facts of a space or collection: the levels and the grants of its collection chain and its own
   * grants, in one statement.
   */
  async factsOf(
    em: EntityManager,
    kind: GrantResource,
    item: {
      id: string;
      organizationId: string;
      defaultLevel?: DefaultLevel | undefined;
      parentId?: string | null | undefined;
    },
  ): Promise<ContentAccessFacts> {
    const rows = await sql<AccessRow>(em, ACCESS_ROWS[kind], [item.parentId ?? null, item.id]);
    return accessFactsOf(kind, item, rows);
  },

  /** Every grant of an organization, by space and collection (for lists, with the collection tree). */
  async ofOrganization(em: EntityManager, organizationId: string): Promise<GrantIndex> {
    const rows = await sql<GrantRow & { kind: GrantResource; resource: string }>(
      em,
      `select 'space' as kind, space_id as resource, principal_kind, principal_id, role from :schema.space_grant where organization_id = ?
       union all
       select 'collection', collection_id, principal_kind, principal_id, role from :schema.collection_grant where organization_id = ?`,
      [organizationId, organizationId],
    );
    const spaces = new Map<string, Grant[]>();
    const collections = new Map<string, Grant[]>();
    for (const r of rows) {
      const map = r.kind === 'space' ? spaces : collections;
      const list = map.get(r.resource) ?? [];
      list.push(toGrant(r));
      map.set(r.resource, list);
    }
    return { spaces, collections };
  },

  /** Gives (or changes) a principal's role on a space or collection. */
  async upsert(
    em: EntityManager,
    kind: GrantResource,
    resourceId: string,
    organizationId: string,
    principal: { kind: PrincipalKind; id: string },
    role: Role,
    now: Date,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into ${TABLE[kind]} (${COLUMN[kind]}, organization_id, principal_kind, principal_id, role, granted_at) values (?, ?, ?, ?, ?, ?)
       on conflict (${COLUMN[kind]}, principal_kind, principal_id) do update set role = excluded.role, granted_at = excluded.granted_at`,
      [resourceId, organizationId, principal.kind, principal.id, role, now],
    );
  },

  /** Removes a principal's grant; whether there was one. */
  async delete(
    em: EntityManager,
    kind: GrantResource,
    resourceId: string,
    principal: { kind: PrincipalKind; id: string },
  ): Promise<boolean> {
    return (
      (await sqlRun(
        em,
        `delete from ${TABLE[kind]} where ${COLUMN[kind]} = ? and principal_kind = ? and principal_id = ?`,
        [resourceId, principal.kind, principal.id],
      )) > 0
    );
  },

  /** A principal's grant on a space or collection (null: none). */
  async roleOf(
    em: EntityManager,
    kind: GrantResource,
    resourceId: string,
    principal: { kind: PrincipalKind; id: string },
  ): Promise<Role | null> {
    const rows = await sql<{ role: Role }>(
      em,
      `select role from ${TABLE[kind]} where ${COLUMN[kind]} = ? and principal_kind = ? and principal_id = ?`,
      [resourceId, principal.kind, principal.id],
    );
    return rows[0]?.role ?? null;
  },

  /** A removed member's grants go with them, a deleted team's with it. */
  async deletePrincipal(
    em: EntityManager,
    organizationId: string,
    principal: { kind: PrincipalKind; id: string },
  ): Promise<void> {
    for (const kind of ['space', 'collection'] as const) {
      await sqlRun(
        em,
        `delete from ${TABLE[kind]} where organization_id = ? and principal_kind = ? and principal_id = ?`,
        [organizationId, principal.kind, principal.id],
      );
    }
  },

  async deleteOrganization(em: EntityManager, organizationId: string): Promise<void> {
    for (const kind of ['space', 'collection'] as const)
      await sqlRun(em, `delete from ${TABLE[kind]} where organization_id = ?`, [organizationId]);
  },

  /**
   * Grants of content transferred to another organization: team grants are dropped (teams belong to the old
   * organization), user grants are kept for the users who are members of the target organization and dropped
   * for the others.
   */
  async transfer(em: EntityManager, kind: GrantResource, ids: string[], organizationId: string): Promise<void> {
    if (!ids.length) return;
    await sqlRun(
      em,
      `delete from ${TABLE[kind]} g where g.${COLUMN[kind]} in (${marks(ids.length)})
         and (g.principal_kind = 'team' or not exists (select 1 from :schema.member m where m.organization_id = ? and m.user_id = g.principal_id))`,
      [...ids, organizationId],
    );
    await sqlRun(em, `update ${TABLE[kind]} set organization_id = ? where ${COLUMN[kind]} in (${marks(ids.length)})`, [
      organizationId,
      ...ids,
    ]);
  },
};

/** The team membership projection (org-admin's `team.*` events); `event_at` refuses an older event delivered late. */
export const teamMemberRepository = {
  async add(em: EntityManager, organizationId: string, teamId: string, userId: string, at: string): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.team_member (team_id, user_id, organization_id, event_at) values (?, ?, ?, ?)
       on conflict (team_id, user_id) do update set event_at = excluded.event_at where team_member.event_at <= excluded.event_at`,
      [teamId, userId, organizationId, at],
    );
  },

  async remove(em: EntityManager, teamId: string, userId: string, at: string): Promise<void> {
    await sqlRun(em, `delete from :schema.team_member where team_id = ? and user_id = ? and event_at <= ?`, [
      teamId,
      userId,
      at,
    ]);
  },

  async removeTeam(em: EntityManager, teamId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.team_member where team_id = ?`, [teamId]);
  },

  async removeUser(em: EntityManager, organizationId: string, userId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.team_member where organization_id = ? and user_id = ?`, [
      organizationId,
      userId,
    ]);
  },

  async removeOrganization(em: EntityManager, organizationId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.team_member where organization_id = ?`, [organizationId]);
  },

  /** Every member of an organization (the member projection) with their role and teams, by user id. */
  async membersWithTeams(
    em: EntityManager,
    organizationId: string,
  ): Promise<{ userId: string; role: Role | null; teams: string[] }[]> {
    const rows = await sql<{ user_id: string; role: Role | null; teams: string[] | null }>(
      em,
      `select m.user_id, m.role, (select array_agg(t.team_id order by t.team_id) from :schema.team_member t where t.organization_id = m.organization_id and t.user_id = m.user_id) as teams
       from :schema.member m where m.organization_id = ? order by m.user_id`,
      [organizationId],
    );
    return rows.map((r) => ({ userId: r.user_id, role: r.role ?? null, teams: r.teams ?? [] }));
  },
};
