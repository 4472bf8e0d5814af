import { SchemaMigration } from '@quire/kit';

export class SpacesMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('space')} (
      id text primary key,
      organization_id text not null,
      parent_id text null,
      title text not null,
      emoji text not null default '',
      visibility text not null,
      edit_mode text not null default 'live',
      default_level text null,
      revision_id text not null,
      comments int not null default 0,
      change_requests int not null default 0,
      change_requests_open int not null default 0,
      change_requests_draft int not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz null)`);
    this.addSql(
      `create index space_org_live on ${this.t('space')} (organization_id, created_at, id) where deleted_at is null`,
    );
    this.addSql(`create table ${this.t('revision')} (
      id text primary key,
      space_id text not null references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      parents jsonb not null default '[]',
      type text not null,
      created_at timestamptz not null)`);
    this.addSql(`create index revision_space on ${this.t('revision')} (space_id)`);
  }
}
