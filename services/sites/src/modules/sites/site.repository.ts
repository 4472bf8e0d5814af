import type { FilterQuery } from '@mikro-orm/core';
import { marks, sql, type EntityManager } from '@quire/kit';
import { Site, type ISite } from './site.entity.ts';

/** Queries of the site table. */
export const siteRepository = {
  /** A site of the organization, or null. */
  async findIn(em: EntityManager, organizationId: string, id: string): Promise<ISite | null> {
    return em.findOne(Site, { id, organizationId });
  },

  /** Takes the site's row lock for the rest of the transaction: structure changes of one site never interleave. */
  async lock(em: EntityManager, id: string): Promise<void> {
    await sql(em, `select id from :schema.site where id = ? for update`, [id]);
  },

  /** The filter of a site list: title contains (case-insensitive), published, shows a space. */
  async listWhere(
    em: EntityManager,
    organizationId: string,
    f: { title?: string | undefined; published?: boolean | undefined; space?: string | undefined },
  ): Promise<FilterQuery<ISite>> {
    const where: Record<string, unknown> = { organizationId };
    if (f.title) where.title = { $ilike: `%${f.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%` };
    if (f.published !== undefined) where.published = f.published;
    if (f.space !== undefined) {
      const rows = await sql<{ site_id: string }>(
        em,
        `select distinct site_id from :schema.site_space where space_id = ?`,
        [f.space],
      );
      where.id = { $in: rows.map((r) => r.site_id) };
    }
    return where as FilterQuery<ISite>;
  },

  /** How many site spaces of live spaces each site has (hidden ones are not counted). */
  async siteSpaceCounts(em: EntityManager, siteIds: string[]): Promise<Map<string, number>> {
    if (!siteIds.length) return new Map();
    const rows = await sql<{ site_id: string; n: number }>(
      em,
      `select ss.site_id, count(*)::int as n from :schema.site_space ss
       left join :schema.content_space cs on cs.id = ss.space_id
       where ss.site_id in (${marks(siteIds.length)}) and cs.deleted_at is null
       group by ss.site_id`,
      siteIds,
    );
    return new Map(rows.map((r) => [r.site_id, r.n]));
  },

  /** The basenames of the organization starting with `prefix` (to pick a free one). */
  /** The basenames of the instance starting with `prefix` (a basename is unique across the instance: it is the site's URL). */
  async basenamesLike(em: EntityManager, prefix: string): Promise<string[]> {
    const rows = await sql<{ basename: string }>(em, `select basename from :schema.site where basename like ?`, [
      `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    ]);
    return rows.map((r) => r.basename);
  },

  async basenameTaken(em: EntityManager, basename: string, exceptId: string): Promise<boolean> {
    return (await em.count(Site, { basename, id: { $ne: exceptId } })) > 0;
  },

  /** Another site serves this hostname (its DNS proved it): no other may claim or prove it. */
  async hostnameVerifiedElsewhere(em: EntityManager, hostname: string, exceptId: string): Promise<boolean> {
    return (await em.count(Site, { hostname, hostnameVerified: true, id: { $ne: exceptId } })) > 0;
  },

  /** Serializes the proofs of one hostname until the transaction ends (two sites proving it at once: one wins). */
  async lockHostname(em: EntityManager, hostname: string): Promise<void> {
    await sql(em, `select pg_advisory_xact_lock(hashtext('site-hostname:' || ?))`, [hostname]);
  },

  /** The sites claiming a hostname: the one serving it first, then the newest claims. */
  async claiming(em: EntityManager, hostname: string): Promise<ISite[]> {
    return em.find(Site, { hostname }, { orderBy: { hostnameVerified: 'desc', createdAt: 'desc' }, limit: 100 });
  },

  /** The sites with a custom hostname after `afterId` (id order), `limit` at a time: what the DNS recheck walks. */
  async withHostnameAfter(em: EntityManager, afterId: string, limit: number): Promise<ISite[]> {
    return em.find(Site, { hostname: { $ne: null }, id: { $gt: afterId } }, { orderBy: { id: 'asc' }, limit });
  },

  async countInOrganization(em: EntityManager, organizationId: string): Promise<number> {
    return em.count(Site, { organizationId });
  },

  /** Removes every site of an organization (their sections, site spaces and share links cascade); returns their ids. */
  async deleteInOrganization(em: EntityManager, organizationId: string): Promise<string[]> {
    const rows = await sql<{ id: string }>(em, `delete from :schema.site where organization_id = ? returning id`, [
      organizationId,
    ]);
    return rows.map((r) => r.id);
  },
};
