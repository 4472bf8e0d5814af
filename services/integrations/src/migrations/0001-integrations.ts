import { SchemaMigration } from '@quire/kit';

export class IntegrationsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('integration')} (
      name text primary key,
      owner_id text not null,
      version int not null,
      title text not null,
      description text not null,
      summary text null,
      visibility text not null,
      target text not null,
      runtime text not null,
      scopes jsonb not null default '[]',
      categories jsonb not null default '[]',
      blocks jsonb not null default '[]',
      content_sources jsonb not null default '[]',
      external_links jsonb not null default '[]',
      configurations jsonb not null default '{}',
      content_security_policy jsonb null,
      block_domains jsonb not null default '[]',
      icon jsonb null,
      preview_images jsonb not null default '[]',
      script_key text not null,
      secrets text null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(`create index integration_owner on ${this.t('integration')} (owner_id)`);
    this.addSql(`create table ${this.t('integration_version')} (
      id text primary key,
      integration_name text not null references ${this.t('integration')} (name) on delete cascade deferrable initially deferred,
      version int not null,
      manifest jsonb not null,
      script_key text not null,
      published_by text not null,
      published_at timestamptz not null,
      unique (integration_name, version))`);
    this.addSql(`create table ${this.t('integration_installation')} (
      id text primary key,
      integration_name text not null references ${this.t('integration')} (name) on delete cascade deferrable initially deferred,
      organization_id text not null,
      status text not null,
      space_selection text not null,
      site_selection text not null,
      configuration jsonb not null default '{}',
      external_ids jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (integration_name, organization_id))`);
    this.addSql(`create index integration_installation_org on ${this.t('integration_installation')} (organization_id)`);
  }
}
