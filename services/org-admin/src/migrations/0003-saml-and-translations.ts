import { SchemaMigration } from '@quire/kit';

export class SamlAndTranslationsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('saml_provider')} (
      id text primary key,
      organization_id text not null references ${this.t('organization')} (id) on delete cascade deferrable initially deferred,
      label text not null,
      entity_id text null,
      certificate text null,
      sso_url text null,
      default_team_id text null references ${this.t('team')} (id) on delete set null deferrable initially deferred,
      default_role text null check (default_role in ('admin','create','review','edit','comment','read')),
      created_at timestamptz not null)`);
    this.addSql(
      `create index saml_provider_organization on ${this.t('saml_provider')} (organization_id, created_at, id)`,
    );
    this.addSql(`create table ${this.t('translation_settings')} (
      id text primary key,
      organization_id text not null references ${this.t('organization')} (id) on delete cascade deferrable initially deferred,
      title text not null,
      languages jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(
      `create index translation_settings_organization on ${this.t('translation_settings')} (organization_id, created_at, id)`,
    );
  }
}
