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
   * The sites whose active share link has this key hash and that show this space (live) in a site space, with
   * the first such site space in structure order.
   */
  async siteSpacesOpenedBy(
    em: EntityManager,
    keyHash: string,
    spaceId: string,
  ): Promise<{ site_id: string; site_space_id: string }[]> {
    return sql<{ site_id: string; site_space_id: string }>(
      em,
      `select ss.site_id, ss.id as site_space_id
       from :schema.share_link l
       join :schema.site_space ss on ss.site_id = l.site_id and ss.space_id = ?
       left join :schema.site_section sec on sec.id = ss.section_id
       where l.key_hash = ? and l.active
       order by coalesce(sec.position, -1), ss.position, ss.id
       limit 1`,
      [spaceId, keyHash],
    );
  },
};

/** Whether a `share-link` site is opened by this link. */
export const opens = (site: ISite, link: IShareLink | null): link is IShareLink =>
  !!link && link.siteId === site.id && link.active && site.visibility === 'share-link';
