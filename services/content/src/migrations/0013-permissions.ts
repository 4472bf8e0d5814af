import { SchemaMigration } from '@quire/kit';

/**
 * Permissions per space and collection (issue 26). `space_grant` / `collection_grant`: a user's or a team's explicit
 * role on one space or collection (GitBook's `inviteToSpace`…), dropped with the space or collection.
 * `team_member`: the content service's view of team membership, kept from org-admin's `team.*` events (who a team
 * grant reaches when the API lists everyone with access to a space).
 */
export class PermissionsMigration extends SchemaMigration {
  override up(): void {
    for (const [table, resource, parent] of [
      ['space_grant', 'space_id', 'space'],
      ['collection_grant', 'collection_id', 'collection'],
    ] as const) {
      this.addSql(`create table ${this.t(table)} (
        ${resource} text not null references ${this.t(parent)} (id) on delete cascade,
        organization_id text not null,
        principal_kind text not null check (principal_kind in ('user', 'team')),
        principal_id text not null,
        role text not null check (role in ('admin', 'create', 'review', 'edit', 'comment', 'read')),
        granted_at timestamptz not null,
        primary key (${resource}, principal_kind, principal_id)
      )`);
      this.addSql(`create index ${table}_organization_idx on ${this.t(table)} (organization_id)`);
      this.addSql(`create index ${table}_principal_idx on ${this.t(table)} (principal_kind, principal_id)`);
    }
    this.addSql(`create table ${this.t('team_member')} (
      team_id text not null,
      user_id text not null,
      organization_id text not null,
      event_at timestamptz not null,
      primary key (team_id, user_id)
    )`);
    this.addSql(`create index team_member_organization_idx on ${this.t('team_member')} (organization_id, user_id)`);
  }
}
