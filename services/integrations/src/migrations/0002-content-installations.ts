import { SchemaMigration } from '@quire/kit';

/**
 * Installations of an integration on spaces and sites of its installation's organization (GitBook's space and site
 * installations): `target_kind` says which, `target_id` is the space's or the site's id.
 */
export class ContentInstallationsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('integration_content_installation')} (
      id text primary key,
      installation_id text not null references ${this.t('integration_installation')} (id) on delete cascade deferrable initially deferred,
      target_kind text not null check (target_kind in ('space', 'site')),
      target_id text not null,
      status text not null,
      configuration jsonb not null default '{}',
      external_ids jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (installation_id, target_kind, target_id))`);
    this.addSql(
      `create index integration_content_installation_target on ${this.t('integration_content_installation')} (target_kind, target_id)`,
    );
  }
}
