import { sql, sqlRun, type EntityManager } from '@quire/kit';
import { PdfExport, type IPdfExport, type PdfExportKey, type PdfExportOutcome } from './pdf-export.entity.ts';

/** Claims of a render: at most this many (a process that stops mid-render leaves its claim to lapse). */
export const PDF_MAX_ATTEMPTS = 3;

const claimed = (em: EntityManager, rows: Record<string, unknown>[]) => (rows[0] ? em.map(PdfExport, rows[0]) : null);

/** Queries of the PDF export cache. */
export const pdfExportRepository = {
  findById(em: EntityManager, id: string): Promise<IPdfExport | null> {
    return em.findOne(PdfExport, { id }, { disableIdentityMap: true });
  },

  findByKey(em: EntityManager, key: PdfExportKey): Promise<IPdfExport | null> {
    return em.findOne(PdfExport, { ...key }, { disableIdentityMap: true });
  },

  /** The export of `key`, added `pending` when there is none (concurrent requests share one row). */
  async findOrInsert(em: EntityManager, key: PdfExportKey, id: string, now: Date): Promise<IPdfExport> {
    const rows = await sql(
      em,
      `insert into :schema.pdf_export (id, space_id, revision_id, change_request_id, page_id, only_page, state, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, 'pending', ?, ?)
       on conflict (space_id, revision_id, change_request_id, page_id, only_page) do update set updated_at = :schema.pdf_export.updated_at
       returning *`,
      [id, key.spaceId, key.revisionId, key.changeRequestId, key.pageId, key.onlyPage, now, now],
    );
    return em.map(PdfExport, rows[0]!);
  },

  /** A failed export back to `pending`, for a new try. */
  async retry(em: EntityManager, id: string, now: Date): Promise<IPdfExport | null> {
    return claimed(
      em,
      await sql(
        em,
        `update :schema.pdf_export set state = 'pending', attempts = 0, error = null, updated_at = ? where id = ? and state = 'failed' returning *`,
        [now, id],
      ),
    );
  },

  /** Claims this export when it waits (or its claimer's lease lapsed): `progress` with a lease; null when someone else holds it or it is done. */
  async claim(em: EntityManager, id: string, now: Date, leaseUntil: Date): Promise<IPdfExport | null> {
    return claimed(
      em,
      await sql(
        em,
        `update :schema.pdf_export set state = 'progress', lease_until = ?, attempts = attempts + 1, updated_at = ?
         where id = ? and attempts < ? and (state = 'pending' or (state = 'progress' and lease_until < ?)) returning *`,
        [leaseUntil, now, id, PDF_MAX_ATTEMPTS, now],
      ),
    );
  },

  /** Claims the export waiting longest (skipping rows another worker holds). */
  async claimNext(em: EntityManager, now: Date, leaseUntil: Date): Promise<IPdfExport | null> {
    return claimed(
      em,
      await sql(
        em,
        `update :schema.pdf_export set state = 'progress', lease_until = ?, attempts = attempts + 1, updated_at = ?
         where id = (
           select id from :schema.pdf_export
           where state in ('pending', 'progress') and attempts < ? and (state = 'pending' or lease_until < ?)
           order by updated_at, id limit 1 for update skip locked)
         returning *`,
        [leaseUntil, now, PDF_MAX_ATTEMPTS, now],
      ),
    );
  },

  /** Extends a claim still held; false when the export is no longer this claim's. */
  async renewLease(em: EntityManager, claim: IPdfExport, leaseUntil: Date): Promise<boolean> {
    return (
      (await sqlRun(
        em,
        `update :schema.pdf_export set lease_until = ? where id = ? and state = 'progress' and attempts = ?`,
        [leaseUntil, claim.id, claim.attempts],
      )) > 0
    );
  },

  /** The end of a claimed render: `ready` with its blob, or `failed`; false when the claim was lost meanwhile. */
  async finish(em: EntityManager, claim: IPdfExport, outcome: PdfExportOutcome, now: Date): Promise<boolean> {
    const ready = outcome.state === 'ready' ? outcome : null;
    return (
      (await sqlRun(
        em,
        `update :schema.pdf_export set state = ?, lease_until = null, blob_key = ?, size = ?, pages = ?, render_ms = ?, error = ?, rendered_at = ?, updated_at = ?
         where id = ? and state = 'progress' and attempts = ?`,
        [
          outcome.state,
          ready?.blobKey ?? null,
          ready?.size ?? null,
          ready?.pages ?? null,
          ready?.renderMs ?? null,
          outcome.state === 'failed' ? outcome.error : null,
          now,
          now,
          claim.id,
          claim.attempts,
        ],
      )) > 0
    );
  },

  /** Renders whose process stopped too many times: `failed`, so their links say so instead of waiting. */
  async failAbandoned(em: EntityManager, now: Date): Promise<number> {
    return sqlRun(
      em,
      `update :schema.pdf_export set state = 'failed', lease_until = null, error = ?, updated_at = ? where state = 'progress' and attempts >= ? and lease_until < ?`,
      [`the rendering stopped before its end ${PDF_MAX_ATTEMPTS} times`, now, PDF_MAX_ATTEMPTS, now],
    );
  },
};
