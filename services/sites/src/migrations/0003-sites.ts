import { SchemaMigration } from '@quire/kit';

/**
 * Sites with their sections, site spaces (ordered by `position` within their parent: the site for sections,
 * the section or the root for site spaces) and share links (the key sealed, plus its hash for lookups).
 */
export class SitesMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('site')} (
      id text primary key,
      organization_id text not null,
      type text not null,
      title text not null,
      hostname text null,
      basename text not null,
      proxy_origin text null,
      visibility text not null,
      published boolean not null default false,
      adaptive_enabled boolean not null default false,
      agents_context text not null default 'included',
      adaptive_schema jsonb null,
      adaptive_schema_updated_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(`create unique index site_hostname on ${this.t('site')} (hostname) where hostname is not null`);
    this.addSql(`create unique index site_org_basename on ${this.t('site')} (organization_id, basename)`);
    this.addSql(`create index site_org_created on ${this.t('site')} (organization_id, created_at, id)`);

    this.addSql(`create table ${this.t('site_section')} (
      id text primary key,
      site_id text not null references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      title text not null,
      description text null,
      icon text null,
      path text not null,
      condition text null,
      is_default boolean not null default false,
      position bigint not null,
      created_at timestamptz not null)`);
    this.addSql(`create unique index site_section_path on ${this.t('site_section')} (site_id, path)`);

    this.addSql(`create table ${this.t('site_space')} (
      id text primary key,
      site_id text not null references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      section_id text null references ${this.t('site_section')} (id) on delete cascade deferrable initially deferred,
      space_id text not null,
      path text not null,
      condition text null,
      is_default boolean not null default false,
      position bigint not null,
      created_at timestamptz not null)`);
    this.addSql(
      `create unique index site_space_path on ${this.t('site_space')} (site_id, coalesce(section_id, ''), path)`,
    );
    this.addSql(`create index site_space_space on ${this.t('site_space')} (space_id)`);

    this.addSql(`create table ${this.t('share_link')} (
      id text primary key,
      site_id text not null references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      name text null,
      key_hash text not null,
      key_sealed text not null,
      active boolean not null default true,
      created_at timestamptz not null)`);
    this.addSql(`create unique index share_link_key on ${this.t('share_link')} (key_hash)`);
    this.addSql(`create index share_link_site on ${this.t('share_link')} (site_id, created_at, id)`);
  }
}
