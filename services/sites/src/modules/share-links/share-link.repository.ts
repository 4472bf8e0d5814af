import { sql, type EntityManager } from '@quire/kit';
import type { ISite } from '../sites/site.entity.ts';
import { ShareLink, type IShareLink } from './share-link.entity.ts';

/** Queries of the share_link table. */
export const shareLinkRepository = {
  async findIn(em: EntityManager, siteId: string, id: string): Promise<IShareLink | null> {
    return em.findOne(ShareLink, { id, siteId });
  },

  /** The active link with this key hash, and the site it opens (null when none). */
  async findActiveByHash(em: EntityManager, keyHash: string): Promise<IShareLink | null> {
    return em.findOne(ShareLink, { keyHash, active: true });
  },

  /**
   * The site whose active share link has this key hash, when it shows this space in a site space (null when none);
   * which site space opens it is the structure's to say (`loadShareLinkOpening`).
   */
  async siteOpenedBy(em: EntityManager, keyHash: string, spaceId: string): Promise<string | null> {
    const [row] = await sql<{ site_id: string }>(
      em,
      `select l.site_id from :schema.share_link l
       where l.key_hash = ? and l.active
         and exists (select 1 from :schema.site_space ss where ss.site_id = l.site_id and ss.space_id = ?)
       limit 1`,
      [keyHash, spaceId],
    );
    return row?.site_id ?? null;
  },
};

/** Whether a `share-link` site is opened by this link. */
export const opens = (site: ISite, link: IShareLink | null): link is IShareLink =>
  !!link && link.siteId === site.id && link.active && site.visibility === 'share-link';
