import { SchemaMigration } from '@quire/kit';

/**
 * The content engine. A revision is immutable: its pages and files are stored as deltas against its first
 * parent (`revision_page`/`revision_file` rows of the pages and files it changed, deletions as tombstones),
 * and every `SNAPSHOT_EVERY` revisions as a full snapshot; `lineage` lists the revisions whose rows make it
 * up (its snapshot first, itself last). Documents are content-addressed (`document.hash`), so revisions share
 * every unchanged page. Change requests are branches of a space, numbered per space.
 */
export class ContentEngineMigration extends SchemaMigration {
  override up(): void {
    this.documents();
    this.revisionLineage();
    this.revisionPages();
    this.revisionFiles();
    this.changeRequests();
    this.changeRequestContributors();
    this.changeRequestReviews();
  }

  /** Content-addressed documents, shared by every revision whose page did not change. */
  private documents(): void {
    this.addSql(`create table ${this.t('document')} (
      hash text primary key,
      markdown text not null,
      created_at timestamptz not null)`);
  }

  /** Who made a revision, on which change request, and the revisions whose rows make it up. */
  private revisionLineage(): void {
    this.addSql(`alter table ${this.t('revision')}
      add column created_by text null,
      add column change_request_id text null,
      add column lineage jsonb not null default '[]',
      add column conflicts jsonb not null default '[]'`);
    // Existing revisions are empty snapshots of themselves.
    this.addSql(`update ${this.t('revision')} set lineage = jsonb_build_array(id)`);
  }

  /** The pages a revision changed (deletions as tombstones), or all of them in a snapshot. */
  private revisionPages(): void {
    this.addSql(`create table ${this.t('revision_page')} (
      revision_id text not null references ${this.t('revision')} (id) on delete cascade deferrable initially deferred,
      page_id text not null,
      deleted boolean not null default false,
      parent_id text null,
      ord text not null default '',
      kind text not null default 'document',
      title text not null default '',
      slug text not null default '',
      emoji text null,
      icon text null,
      description text null,
      hidden boolean not null default false,
      no_index boolean not null default false,
      no_robots_index boolean not null default false,
      layout jsonb null,
      cover jsonb null,
      href text null,
      document_hash text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (revision_id, page_id))`);
  }

  /** The files a revision changed (deletions as tombstones), or all of them in a snapshot. */
  private revisionFiles(): void {
    this.addSql(`create table ${this.t('revision_file')} (
      revision_id text not null references ${this.t('revision')} (id) on delete cascade deferrable initially deferred,
      file_id text not null,
      deleted boolean not null default false,
      name text not null default '',
      content_type text not null default 'application/octet-stream',
      size bigint not null default 0,
      blob_key text not null default '',
      width int null,
      height int null,
      created_at timestamptz not null,
      primary key (revision_id, file_id))`);
  }

  /** Change requests: branches of a space, numbered per space. */
  private changeRequests(): void {
    this.addSql(`alter table ${this.t('space')} add column change_request_seq int not null default 0`);
    this.addSql(`create table ${this.t('change_request')} (
      id text primary key,
      space_id text not null references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      number int not null,
      status text not null,
      subject text not null default '',
      agent_task_id text null,
      created_by text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      revision_id text not null,
      revision_initial text not null,
      revision_merged_ancestor text null,
      revision_merged text null,
      merged_by text null,
      merged_at timestamptz null,
      comments int not null default 0,
      unique (space_id, number))`);
    this.addSql(`create index change_request_list on ${this.t('change_request')} (space_id, status, created_at, id)`);
  }

  /** The users who wrote on a change request, first and last time. */
  private changeRequestContributors(): void {
    this.addSql(`create table ${this.t('change_request_contributor')} (
      change_request_id text not null references ${this.t('change_request')} (id) on delete cascade deferrable initially deferred,
      user_id text not null,
      first_at timestamptz not null,
      last_at timestamptz not null,
      primary key (change_request_id, user_id))`);
    this.addSql(
      `create index change_request_contributor_user on ${this.t('change_request_contributor')} (user_id, change_request_id)`,
    );
  }

  /** The reviewers asked on a change request and the reviews they gave. */
  private changeRequestReviews(): void {
    this.addSql(`create table ${this.t('change_request_reviewer')} (
      change_request_id text not null references ${this.t('change_request')} (id) on delete cascade deferrable initially deferred,
      user_id text not null,
      requested_by text not null,
      revision_id text not null,
      created_at timestamptz not null,
      primary key (change_request_id, user_id))`);
    this.addSql(`create table ${this.t('change_request_review')} (
      id text primary key,
      change_request_id text not null references ${this.t('change_request')} (id) on delete cascade deferrable initially deferred,
      reviewer text not null,
      requested_by text null,
      status text not null,
      comment text null,
      revision_id text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`);
    this.addSql(
      `create index change_request_review_list on ${this.t('change_request_review')} (change_request_id, created_at, id)`,
    );
  }
}
