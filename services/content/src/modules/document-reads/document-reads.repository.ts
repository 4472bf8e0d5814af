import { sql, type EntityManager } from '@quire/kit';

/** Which documents a space's revisions use. */
export const documentReadsRepository = {
  /** Whether a page of some revision of the space has this document (a document is shared by hash across spaces). */
  async spaceHasDocument(em: EntityManager, spaceId: string, hash: string): Promise<boolean> {
    const rows = await sql<{ found: number }>(
      em,
      `select 1 as found from :schema.revision_page rp join :schema.revision r on r.id = rp.revision_id
        where r.space_id = ? and rp.document_hash = ? limit 1`,
      [spaceId, hash],
    );
    return rows.length > 0;
  },

  /** Whether a reusable content of some revision of the space has this document. */
  async spaceHasReusableDocument(em: EntityManager, spaceId: string, hash: string): Promise<boolean> {
    const rows = await sql<{ found: number }>(
      em,
      `select 1 as found from :schema.revision_reusable_content rc join :schema.revision r on r.id = rc.revision_id
        where r.space_id = ? and rc.document_hash = ? limit 1`,
      [spaceId, hash],
    );
    return rows.length > 0;
  },
};
