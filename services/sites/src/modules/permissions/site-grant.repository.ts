import type { Role } from '@quire/contracts';
import { marks, sql, sqlRun, type EntityManager } from '@quire/kit';
import type { SiteGrantFact } from '../sites/site.policy.ts';

export type PrincipalKind = 'user' | 'team';
interface Row {
  site_id: string;
  principal_kind: PrincipalKind;
  principal_id: string;
  role: Role | null;
}
const toFact = (r: Row): SiteGrantFact => ({ kind: r.principal_kind, id: r.principal_id, role: r.role ?? null });

/** Role overrides on sites (`site_grant`). */
export const siteGrantRepository = {
  /** The overrides of one site. */
  async of(em: EntityManager, siteId: string): Promise<SiteGrantFact[]> {
    return (
      await sql<Row>(
        em,
        `select site_id, principal_kind, principal_id, role from :schema.site_grant where site_id = ?`,
        [siteId],
      )
    ).map(toFact);
  },

  /** The overrides of several sites, by site id (every id present). */
  async ofSites(em: EntityManager, siteIds: string[]): Promise<Map<string, SiteGrantFact[]>> {
    const out = new Map<string, SiteGrantFact[]>(siteIds.map((id) => [id, []]));
    if (!siteIds.length) return out;
    for (const r of await sql<Row>(
      em,
      `select site_id, principal_kind, principal_id, role from :schema.site_grant where site_id in (${marks(siteIds.length)})`,
      siteIds,
    ))
      out.get(r.site_id)?.push(toFact(r));
    return out;
  },

  /** Every override of an organization, by site id. */
  async ofOrganization(em: EntityManager, organizationId: string): Promise<Map<string, SiteGrantFact[]>> {
    const out = new Map<string, SiteGrantFact[]>();
    for (const r of await sql<Row>(
      em,
      `select site_id, principal_kind, principal_id, role from :schema.site_grant where organization_id = ?`,
      [organizationId],
    )) {
      out.set(r.site_id, [...(out.get(r.site_id) ?? []), toFact(r)]);
    }
    return out;
  },

  /** The overrides of an organization naming this user or these teams, by site id (for list filters). */
  async ofPrincipals(
    em: EntityManager,
    organizationId: string,
    userId: string,
    teams: readonly string[],
  ): Promise<Map<string, SiteGrantFact[]>> {
    const byTeam = teams.length ? ` or (principal_kind = 'team' and principal_id in (${marks(teams.length)}))` : '';
    const rows = await sql<Row>(
      em,
      `select site_id, principal_kind, principal_id, role from :schema.site_grant
       where organization_id = ? and ((principal_kind = 'user' and principal_id = ?)${byTeam})`,
      [organizationId, userId, ...teams],
    );
    const out = new Map<string, SiteGrantFact[]>();
    for (const r of rows) out.set(r.site_id, [...(out.get(r.site_id) ?? []), toFact(r)]);
    return out;
  },

  async roleOf(
    em: EntityManager,
    siteId: string,
    principal: { kind: PrincipalKind; id: string },
  ): Promise<{ role: Role | null } | null> {
    const rows = await sql<{ role: Role | null }>(
      em,
      `select role from :schema.site_grant where site_id = ? and principal_kind = ? and principal_id = ?`,
      [siteId, principal.kind, principal.id],
    );
    return rows[0] ? { role: rows[0].role ?? null } : null;
  },

  async upsert(
    em: EntityManager,
    site: { id: string; organizationId: string },
    principal: { kind: PrincipalKind; id: string },
    role: Role | null,
    now: Date,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.site_grant (site_id, organization_id, principal_kind, principal_id, role, granted_at) values (?, ?, ?, ?, ?, ?)
       on conflict (site_id, principal_kind, principal_id) do update set role = excluded.role, granted_at = excluded.granted_at`,
      [site.id, site.organizationId, principal.kind, principal.id, role, now],
    );
  },

  async delete(em: EntityManager, siteId: string, principal: { kind: PrincipalKind; id: string }): Promise<boolean> {
    return (
      (await sqlRun(
        em,
        `delete from :schema.site_grant where site_id = ? and principal_kind = ? and principal_id = ?`,
        [siteId, principal.kind, principal.id],
      )) > 0
    );
  },

  async deletePrincipal(
    em: EntityManager,
    organizationId: string,
    principal: { kind: PrincipalKind; id: string },
  ): Promise<void> {
    await sqlRun(
      em,
      `delete from :schema.site_grant where organization_id = ? and principal_kind = ? and principal_id = ?`,
      [organizationId, principal.kind, principal.id],
    );
  },

  async deleteOrganization(em: EntityManager, organizationId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.site_grant where organization_id = ?`, [organizationId]);
  },
};
