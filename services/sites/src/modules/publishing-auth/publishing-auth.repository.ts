import { entityFromRow, sql, sqlRun, type EntityManager } from '@quire/kit';
import { SitePublishingAuth, type ISitePublishingAuth } from './publishing-auth.entity.ts';

/** Queries of the site_publishing_auth table. */
export const publishingAuthRepository = {
  async find(em: EntityManager, siteId: string): Promise<ISitePublishingAuth | null> {
    return em.findOne(SitePublishingAuth, { siteId });
  },

  /**
   * Inserts the site's first publishing auth unless one exists (two first reads racing keep one key: the
   * loser's insert does nothing), then answers the row that won.
   */
  async insertIfAbsent(
    em: EntityManager,
    row: { siteId: string; privateKeySealed: string; now: Date },
  ): Promise<ISitePublishingAuth> {
    await sql(
      em,
      `insert into :schema.site_publishing_auth (site_id, backend, private_key_sealed, created_at, updated_at)
       values (?, 'custom', ?, ?, ?) on conflict (site_id) do nothing`,
      [row.siteId, row.privateKeySealed, row.now, row.now],
    );
    const rows = await sql(em, `select * from :schema.site_publishing_auth where site_id = ?`, [row.siteId]);
    return entityFromRow(em, SitePublishingAuth, rows[0]!);
  },

  /** Sites whose key is sealed with another secrets key than `keyId` (to re-seal after a rotation). */
  async sealedWithOtherKey(em: EntityManager, keyId: string): Promise<string[]> {
    const rows = await sql<{ site_id: string }>(
      em,
      `select site_id from :schema.site_publishing_auth
       where split_part(private_key_sealed, '.', 2) <> ? order by site_id`,
      [keyId],
    );
    return rows.map((r) => r.site_id);
  },

  /** The sealed key of a site, its row locked until the transaction ends (null when it has none). */
  async lockSealed(em: EntityManager, siteId: string): Promise<string | null> {
    const rows = await sql<{ private_key_sealed: string }>(
      em,
      `select private_key_sealed from :schema.site_publishing_auth where site_id = ? for update`,
      [siteId],
    );
    return rows[0]?.private_key_sealed ?? null;
  },

  async updateSealed(em: EntityManager, siteId: string, sealed: string): Promise<void> {
    await sqlRun(em, `update :schema.site_publishing_auth set private_key_sealed = ? where site_id = ?`, [
      sealed,
      siteId,
    ]);
  },
};
