import { SchemaMigration } from '@quire/kit';

/**
 * PDF exports, cached by what they render: a revision of a space, as the space's or a change request's
 * content (`change_request_id`, '' for the space), whole (`page_id` '') or from a page (`only_page`: that
 * page alone). A request finds its row or adds it `pending`; the request itself (small content) or the
 * rendering job (large content) claims it (`progress`, with a lease: a process stopped mid-render leaves it
 * to be claimed again, at most three times), then records it `ready` with the PDF's blob, or `failed`.
 */
export class PdfExportsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('pdf_export')} (
      id text primary key,
      space_id text not null references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      revision_id text not null,
      change_request_id text not null default '',
      page_id text not null default '',
      only_page boolean not null default false,
      state text not null,
      attempts integer not null default 0,
      lease_until timestamptz null,
      blob_key text null,
      size bigint null,
      pages integer null,
      render_ms integer null,
      error text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      rendered_at timestamptz null,
      constraint pdf_export_state check (state in ('pending', 'progress', 'ready', 'failed')),
      constraint pdf_export_ready check (state <> 'ready' or blob_key is not null))`);
    this.addSql(
      `create unique index pdf_export_key on ${this.t('pdf_export')} (space_id, revision_id, change_request_id, page_id, only_page)`,
    );
    this.addSql(
      `create index pdf_export_waiting on ${this.t('pdf_export')} (updated_at, id) where state in ('pending', 'progress')`,
    );
  }
}
