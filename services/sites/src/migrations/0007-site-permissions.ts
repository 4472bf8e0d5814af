import { SchemaMigration } from '@quire/kit';

/**
 * Permissions per site (issue 26): a user's or a team's role override on one site (GitBook's `inviteToSite`),
 * null for guest (no access to the site); dropped with the site.
 */
export class SitePermissionsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('site_grant')} (
      site_id text not null references ${this.t('site')} (id) on delete cascade,
      organization_id text not null,
      principal_kind text not null check (principal_kind in ('user', 'team')),
      principal_id text not null,
      role text check (role in ('admin', 'create', 'review', 'edit', 'comment', 'read')),
      granted_at timestamptz not null,
      primary key (site_id, principal_kind, principal_id)
    )`);
    this.addSql(
      `create index site_grant_organization_idx on ${this.t('site_grant')} (organization_id, principal_kind, principal_id)`,
    );
  }
}
