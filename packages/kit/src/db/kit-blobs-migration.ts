import { SchemaMigration } from './migration.ts';

/** The blob store's table (PostgreSQL store): content-addressed bytes of the service. */
export class KitBlobsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('blob')} (
      key text primary key check (key ~ '^[0-9a-f]{64}$'),
      content_type text not null,
      size integer not null check (size >= 0),
      bytes bytea not null,
      created_at timestamptz not null default now())`);
  }
}
