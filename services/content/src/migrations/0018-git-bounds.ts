import { SchemaMigration } from '@quire/kit';

/**
 * Git Sync bounded (issues 36 and 38). `git_operation.progress`: what a running operation has done so far (shown by
 * getSpaceGitInfo). `git_connection.refused_commit`/`refused_error`: the remote commit a connection's sync refused
 * (a limit, an invalid repository), so polls do not fetch it again until the branch moves. `git_hook_delivery`: the
 * delivery ids of the webhooks a connection received, so a replayed delivery does nothing.
 */
export class GitBoundsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('git_operation')} add column progress jsonb`);
    this.addSql(`alter table ${this.t('git_connection')} add column refused_commit text`);
    this.addSql(`alter table ${this.t('git_connection')} add column refused_error text`);
    this.addSql(`create table ${this.t('git_hook_delivery')} (
      connection_id text not null,
      delivery_id text not null,
      received_at timestamptz not null,
      primary key (connection_id, delivery_id)
    )`);
    this.addSql(`create index git_hook_delivery_received on ${this.t('git_hook_delivery')} (received_at)`);
  }
}
