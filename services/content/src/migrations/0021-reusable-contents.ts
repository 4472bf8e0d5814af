import { SchemaMigration } from '@quire/kit';

/**
 * Reusable contents (issue 42): blocks of content a revision holds beside its pages, which pages include. Stored as
 * pages are: the rows a revision changed (deletions as tombstones) or all of them in a snapshot, read along the
 * revision's lineage (the latest row of each id wins); their documents are content-addressed in `document`.
 */
export class ReusableContentsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('revision_reusable_content')} (
      revision_id text not null references ${this.t('revision')} (id) on delete cascade deferrable initially deferred,
      reusable_content_id text not null,
      deleted boolean not null default false,
      title text not null default '',
      document_hash text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (revision_id, reusable_content_id))`);
    this.addSql(
      `create index revision_reusable_content_document on ${this.t('revision_reusable_content')} (document_hash)`,
    );
  }
}
