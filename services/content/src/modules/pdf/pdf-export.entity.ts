import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';

/** Where a PDF export stands: waiting to be rendered, being rendered (claimed, with a lease), ready, or failed. */
export type PdfExportState = 'pending' | 'progress' | 'ready' | 'failed';

/** A PDF of a revision, cached by what it renders (see migration 0008). */
export const PdfExport = defineEntity({
  name: 'PdfExport',
  tableName: 'pdf_export',
  properties: {
    ...idColumn(),
    spaceId: p.string(),
    revisionId: p.string(),
    /** The change request whose content it is ('' for the space's). */
    changeRequestId: p.string(),
    /** The page it starts from ('' for the whole content). */
    pageId: p.string(),
    /** That page alone, without its sub-pages. */
    onlyPage: p.boolean(),
    state: p.string().$type<PdfExportState>(),
    /** Claims so far: a render whose process stopped is claimed again, three times at most. */
    attempts: p.integer(),
    /** While `progress`: until when its claimer owns it. */
    leaseUntil: p.datetime().nullable(),
    blobKey: p.string().nullable(),
    size: p.bigint('number').nullable(),
    /** Sheets of the PDF. */
    pages: p.integer().nullable(),
    renderMs: p.integer().nullable(),
    error: p.text().nullable(),
    ...timestampColumns(),
    renderedAt: p.datetime().nullable(),
  },
});
export type IPdfExport = InferEntity<typeof PdfExport>;

/** What an export renders: a revision of a space (as a change request's content or not), whole or from a page. */
export interface PdfExportKey {
  spaceId: string;
  revisionId: string;
  changeRequestId: string;
  pageId: string;
  onlyPage: boolean;
}

/** How a claimed render ended. */
export type PdfExportOutcome =
  | { state: 'ready'; blobKey: string; size: number; pages: number; renderMs: number }
  | { state: 'failed'; error: string };
