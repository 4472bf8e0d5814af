import { SchemaMigration } from '@quire/kit';

/**
 * Custom fonts (issue 40): the files uploaded to signed URLs (`storage_file`, their bytes in the blob store by their
 * SHA-256) and the organizations' custom fonts (`custom_font`, each face a weight and the storage key of its file).
 */
export class CustomFontsMigration extends SchemaMigration {
  override up(): void {
    const file = this.t('storage_file');
    const font = this.t('custom_font');
    this.addSql(`create table ${file} (
      key text primary key,
      organization_id text not null,
      kind text not null,
      name text not null,
      blob_key text not null,
      format text not null,
      size integer not null,
      created_by text null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index storage_file_blob_idx on ${file} (blob_key)`);
    this.addSql(`create table ${font} (
      id text primary key,
      organization_id text not null,
      font_family text not null,
      faces jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index custom_font_org_idx on ${font} (organization_id, font_family, id)`);
  }
}
