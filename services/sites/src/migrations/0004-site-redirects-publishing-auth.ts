import { SchemaMigration } from '@quire/kit';

/**
 * Site redirects (a source path of the site → a section, a site space, a page or an external URL; one live and
 * one draft redirect per source; `updated_at` equals `created_at` until the first change) and the publishing auth of a site (its visitor-auth signing key, sealed).
 */
export class SiteRedirectsPublishingAuthMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('site_redirect')} (
      id text primary key,
      site_id text not null references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      source text not null,
      draft boolean not null default false,
      capture_wildcard boolean not null default false,
      permanent boolean not null default false,
      destination jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(`create unique index site_redirect_source on ${this.t('site_redirect')} (site_id, draft, source)`);
    this.addSql(`create index site_redirect_created on ${this.t('site_redirect')} (site_id, draft, created_at, id)`);
    this.addSql(`create index site_redirect_updated on ${this.t('site_redirect')} (site_id, draft, updated_at, id)`);

    this.addSql(`create table ${this.t('site_publishing_auth')} (
      site_id text primary key references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      backend text not null default 'custom',
      private_key_sealed text not null,
      fallback_url text null,
      logout_url text null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
  }
}
