import { sql, type EntityManager } from '@quire/kit';

/** Whether a row of `table` (of a revision's pages or reusable contents) in some revision of the space has the document. */
async function revisionsHaveDocument(
  em: EntityManager,
  table: 'revision_page' | 'revision_reusable_content',
  spaceId: string,
  hash: string,
): Promise<boolean> {
  const rows = await sql<{ found: number }>(
    em,
    `select 1 as found from :schema.${table} x join :schema.revision r on r.id = x.revision_id
      where r.space_id = ? and x.document_hash = ? limit 1`,
    [spaceId, hash],
  );
  return rows.length > 0;
}

/** Which documents a space's revisions use. */
export const documentReadsRepository = {
  /** Whether a page of some revision of the space has this document (a document is shared by hash across spaces). */
  spaceHasDocument: (em: EntityManager, spaceId: string, hash: string): Promise<boolean> =>
    revisionsHaveDocument(em, 'revision_page', spaceId, hash),

  /** Whether a reusable content of some revision of the space has this document. */
  spaceHasReusableDocument: (em: EntityManager, spaceId: string, hash: string): Promise<boolean> =>
    revisionsHaveDocument(em, 'revision_reusable_content', spaceId, hash),
};
