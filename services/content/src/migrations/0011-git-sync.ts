import { SchemaMigration } from '@quire/kit';

/**
 * Git Sync (issue 25). `git_sync`: a space's repository (URL without credentials, the credentials sealed with the
 * kit's SecretBox), the commit both sides last agreed on and each path's page or file id (so ids stay stable
 * across imports). `git_operation`: the imports and exports queued by the API, run by the `content-git-sync` job
 * (claimed with a lease), their outcome kept for `getSpaceGitInfo`.
 */
export class GitSyncMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('git_sync')} (
      space_id text primary key,
      id text not null unique,
      url text not null,
      ref text not null,
      tree_url text,
      project_directory text not null default '',
      credentials text,
      last_commit text,
      paths jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table ${this.t('git_operation')} (
      id text primary key,
      space_id text not null,
      direction text not null check (direction in ('import', 'export')),
      url text not null,
      ref text not null,
      credentials text,
      params jsonb not null default '{}',
      requested_by text not null,
      state text not null default 'pending' check (state in ('pending', 'running', 'success', 'failure', 'timeout')),
      attempts int not null default 0,
      lease_until timestamptz,
      error text,
      commit_oid text,
      revision_id text,
      created_at timestamptz not null,
      ended_at timestamptz
    )`);
    this.addSql(
      `create index git_operation_waiting on ${this.t('git_operation')} (created_at) where state in ('pending', 'running')`,
    );
    this.addSql(`create index git_operation_space on ${this.t('git_operation')} (space_id, created_at desc)`);
  }
}
