import { SchemaMigration } from '@quire/kit';

/**
 * Font files whose bytes may no longer be used (issue 40): when a font is deleted, a face replaced or removed, an
 * organization deleted, or an upload left unused, the blob keys of the `storage_file` rows that went are queued here,
 * in the same transaction; the font blob sweep removes each blob no `storage_file` row names any more.
 */
export class FontBlobOrphansMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('storage_blob_orphan')} (
      blob_key text primary key,
      since timestamptz not null
    )`);
    this.addSql(`create index storage_file_created_idx on ${this.t('storage_file')} (created_at)`);
  }
}
