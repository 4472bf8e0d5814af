import { SchemaMigration } from '@quire/kit';

/**
 * Collections; the tree order of spaces and collections (`position`, one ordering per parent shared by
 * both kinds); space icons; the trash index for the purge job; the membership projection.
 */
export class CollectionsTreeTrashMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('collection')} (
      id text primary key,
      organization_id text not null,
      parent_id text null references ${this.t('collection')} (id) deferrable initially deferred,
      title text not null,
      description text null,
      default_level text null,
      position bigint not null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(`create index collection_org_order on ${this.t('collection')} (organization_id, position, id)`);
    this.addSql(`create index collection_parent on ${this.t('collection')} (parent_id)`);

    this.addSql(`alter table ${this.t('space')} add column position bigint not null default 0`);
    this.addSql(`alter table ${this.t('space')} add column icon text null`);
    this.addSql(
      `alter table ${this.t('space')} add constraint space_parent_fk foreign key (parent_id) references ${this.t('collection')} (id) deferrable initially deferred`,
    );
    // Existing spaces keep their creation order within each parent.
    this.addSql(`update ${this.t('space')} s set position = r.rank * 65536
      from (select id, row_number() over (partition by organization_id, parent_id order by created_at, id) as rank from ${this.t('space')}) r
      where s.id = r.id`);
    this.addSql(`drop index if exists "${this.config.get('schema')}"."space_org_live"`);
    this.addSql(
      `create index space_org_order on ${this.t('space')} (organization_id, position, id) where deleted_at is null`,
    );
    this.addSql(
      `create index space_parent_order on ${this.t('space')} (parent_id, position, id) where deleted_at is null`,
    );
    this.addSql(
      `create index space_org_created on ${this.t('space')} (organization_id, created_at, id) where deleted_at is null`,
    );
    this.addSql(`create index space_trash on ${this.t('space')} (deleted_at) where deleted_at is not null`);

    // Who is a member with which role, from org-admin's member events (for a member's spaces).
    this.addSql(`create table ${this.t('member')} (
      organization_id text not null,
      user_id text not null,
      role text null,
      event_at timestamptz not null,
      primary key (organization_id, user_id))`);
  }
}
