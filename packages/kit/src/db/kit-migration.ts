import { SchemaMigration } from './migration.ts';

export class KitMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('outbox')} (
      seq bigserial primary key,
      id text not null unique,
      subject text not null,
      type text not null,
      payload jsonb not null,
      occurred_at timestamptz not null,
      attempts int not null default 0,
      published_at timestamptz null)`);
    this.addSql(`create index outbox_pending on ${this.t('outbox')} (seq) where published_at is null`);
    this.addSql(`create table ${this.t('processed_event')} (
      consumer text not null,
      event_id text not null,
      processed_at timestamptz not null,
      primary key (consumer, event_id))`);
  }
}
