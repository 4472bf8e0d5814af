import { SchemaMigration } from '@quire/kit';

/**
 * Redirects Git Sync made (issue 25): `git_space_id` is the space whose `.gitbook.yaml` gave the redirect (null for
 * one a user made, or changed since). An import replaces the redirects of its space, never the others.
 */
export class SiteRedirectsGitMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('site_redirect')} add column git_space_id text`);
    this.addSql(
      `create index site_redirect_git on ${this.t('site_redirect')} (site_id, git_space_id) where git_space_id is not null`,
    );
  }
}
