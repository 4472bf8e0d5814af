import { SchemaMigration } from '@quire/kit';

/**
 * Continuous Git Sync (issue 25, item 6). `git_connection`: a space kept in step with a repository+ref (credentials
 * and webhook secret sealed with the kit's SecretBox), how often it is polled and when next, the change request
 * holding the remote's side of the last conflict. `git_sync.last_revision`: the space's revision that matched
 * `last_commit` (the merge base of the next conflict). `git_revision`: GitBook's `git` of the revisions Git made.
 */
export class GitConnectionsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('git_connection')} (
      id text primary key,
      space_id text not null unique,
      url text not null,
      ref text not null,
      project_directory text not null default '',
      credentials text,
      webhook_secret text,
      poll_interval_seconds int not null,
      next_poll_at timestamptz not null,
      conflict_change_request text,
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index git_connection_due on ${this.t('git_connection')} (next_poll_at)`);
    this.addSql(`alter table ${this.t('git_sync')} add column last_revision text`);
    this.addSql(`create table ${this.t('git_revision')} (
      revision_id text primary key,
      space_id text not null,
      oid text not null,
      message text not null,
      url text not null,
      ref text not null,
      created_at timestamptz not null
    )`);
  }
}
