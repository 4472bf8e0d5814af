import { SchemaMigration } from '@quire/kit';

/**
 * The audit log: one row per mutation of the API, from every service (`<service>.audit.recorded`). Append-only:
 * a trigger refuses every update; rows leave only by the retention job's delete. Listed newest first per
 * organization (`occurred_at desc, id desc`, the keyset), filtered by action, actor or any target id.
 */
export class AuditLogMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('audit_event')} (
      id uuid primary key,
      organization_id text,
      occurred_at timestamptz not null,
      action text not null,
      service text not null,
      actor_type text not null,
      actor_id text not null,
      actor_label text,
      target_type text not null,
      target_id text not null,
      target_label text,
      target_ids text[] not null,
      record jsonb not null,
      received_at timestamptz not null default now())`);
    this.addSql(
      `create index audit_event_by_time on ${this.t('audit_event')} (organization_id, occurred_at desc, id desc)`,
    );
    this.addSql(
      `create index audit_event_by_action on ${this.t('audit_event')} (organization_id, action, occurred_at desc, id desc)`,
    );
    this.addSql(
      `create index audit_event_by_actor on ${this.t('audit_event')} (organization_id, actor_id, occurred_at desc, id desc)`,
    );
    this.addSql(`create index audit_event_by_target on ${this.t('audit_event')} using gin (target_ids)`);
    this.addSql(`create index audit_event_by_age on ${this.t('audit_event')} (occurred_at)`);
    this.addSql(`create function ${this.t('audit_event_append_only')}() returns trigger language plpgsql as $$
      begin raise exception 'the audit log is append-only'; end $$`);
    this.addSql(`create trigger audit_event_append_only before update on ${this.t('audit_event')}
      for each row execute function ${this.t('audit_event_append_only')}()`);
  }
}
