import { SchemaMigration } from '@quire/kit';

/**
 * Full-text search over the live revision of each space.
 *
 * - `search_document`/`search_section`: a document's sections (a heading and the text up to the next heading;
 *   the text before the first heading has no anchor), as plain text with their tsvector (heading weight B, body D),
 *   indexed once per document hash whatever the number of pages and revisions sharing it. `config` is the text
 *   search configuration they were made with; `used_at` protects a document a sync is about to reference from the
 *   clean-up of unreferenced ones.
 * - `search_page`: the live pages of each space (title, path, description, ancestors' titles, document hash) with
 *   their title tsvector (A) and full tsvector (title A, description B, then the document's sections in order,
 *   concatenated with the aggregate `search_tsvector_agg`), GIN-indexed: what a search matches and ranks. Kept from
 *   `space.content-updated` by diffing the indexed revision with the live one.
 * - `search_space`: the revision of each space the index reflects.
 */
export class SearchMigration extends SchemaMigration {
  override up(): void {
    this.addSql(
      `create aggregate ${this.t('search_tsvector_agg')} (tsvector) (sfunc = pg_catalog.tsvector_concat, stype = tsvector, initcond = '')`,
    );
    this.addSql(`create table ${this.t('search_document')} (
      hash text primary key,
      config text not null,
      truncated boolean not null default false,
      created_at timestamptz not null,
      used_at timestamptz not null)`);
    this.addSql(`create index search_document_used on ${this.t('search_document')} (used_at)`);
    this.addSql(`create table ${this.t('search_section')} (
      document_hash text not null references ${this.t('search_document')} (hash) on delete cascade deferrable initially deferred,
      position int not null,
      anchor text not null,
      heading text not null,
      body text not null,
      tsv tsvector not null,
      primary key (document_hash, position))`);
    this.addSql(`create table ${this.t('search_space')} (
      space_id text primary key references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      revision_id text null,
      config text not null,
      indexed_at timestamptz not null)`);
    this.addSql(`create table ${this.t('search_page')} (
      space_id text not null references ${this.t('space')} (id) on delete cascade deferrable initially deferred,
      page_id text not null,
      title text not null,
      path text not null,
      description text not null default '',
      ancestors jsonb not null default '[]',
      document_hash text null,
      title_tsv tsvector not null,
      tsv tsvector not null,
      primary key (space_id, page_id))`);
    // Ranking reads the tsvector of every candidate: kept in the row (compressed), not out of line in TOAST (half the time).
    this.addSql(`alter table ${this.t('search_page')} alter column tsv set storage main`);
    this.addSql(`create index search_page_title on ${this.t('search_page')} using gin (title_tsv)`);
    this.addSql(`create index search_page_text on ${this.t('search_page')} using gin (tsv)`);
    this.addSql(`create index search_page_document on ${this.t('search_page')} (document_hash)`);
  }
}
