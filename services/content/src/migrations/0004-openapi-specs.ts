import { SchemaMigration } from '@quire/kit';

/**
 * OpenAPI specifications (one slug per organization) and their versions. A specification waiting for the
 * processing job is `pending`; the job claims it (`progress`, with a lease), so a process stopped mid-job
 * leaves it to be claimed again once the lease ends. `generation` counts source changes: a result computed
 * for an older source is discarded.
 */
export class OpenAPISpecsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('openapi_spec')} (
      id text primary key,
      organization_id text not null,
      slug text not null,
      source_url text null,
      source_text text null,
      processing_state text not null,
      generation integer not null default 1,
      lease_until timestamptz null,
      last_version_id text null,
      last_processed_at timestamptz null,
      last_process_error_code text null,
      last_process_error_message text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint openapi_spec_source check ((source_url is null) <> (source_text is null)))`);
    this.addSql(`create unique index openapi_spec_org_slug on ${this.t('openapi_spec')} (organization_id, slug)`);
    this.addSql(`create index openapi_spec_org_created on ${this.t('openapi_spec')} (organization_id, created_at, id)`);
    this.addSql(
      `create index openapi_spec_waiting on ${this.t('openapi_spec')} (updated_at) where processing_state <> 'complete'`,
    );

    this.addSql(`create table ${this.t('openapi_spec_version')} (
      id text primary key,
      spec_id text not null references ${this.t('openapi_spec')} (id) on delete cascade,
      hash text not null,
      blob_key text not null,
      filename text not null,
      content_type text not null,
      source_url text null,
      filesystem jsonb not null,
      created_at timestamptz not null)`);
    this.addSql(
      `create index openapi_spec_version_spec on ${this.t('openapi_spec_version')} (spec_id, created_at desc, id desc)`,
    );
  }
}
