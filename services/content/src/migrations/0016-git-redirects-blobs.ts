import { SchemaMigration } from '@quire/kit';

/**
 * Git Sync, continued (issue 25). `git_sync.redirects`: the space's `.gitbook.yaml` redirects as the last import
 * read them (source path → page id), written back by exports. `git_page_blob`: GitBook's `git: {oid, path}` of the
 * pages of a revision that came from Git or went to it (the blob and the repository path of each page's file).
 */
export class GitRedirectsBlobsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('git_sync')} add column redirects jsonb not null default '{}'`);
    this.addSql(`create table ${this.t('git_page_blob')} (
      revision_id text not null,
      page_id text not null,
      space_id text not null,
      oid text not null,
      path text not null,
      primary key (revision_id, page_id)
    )`);
    this.addSql(`create index git_page_blob_space on ${this.t('git_page_blob')} (space_id)`);
  }
}
