import { SchemaMigration } from '@quire/kit';

/** Partitions of `search_page` (hash of the space id). */
export const SEARCH_PAGE_PARTITIONS = 16;

/**
 * `search_page` (0007) hash-partitioned by space, in `SEARCH_PAGE_PARTITIONS` partitions, so that a search builds the
 * GIN bitmap of a part of the pages only:
 *
 * - a space's search reads the one partition its space hashes to (pruned when the statement starts);
 * - an organization's search reads partition after partition and stops once it has its capped candidates (the
 *   partitions after it are never scanned), where one index over every page built the bitmap of every match first —
 *   at 100,000 pages, 5,000 rows for a word in 5 % of them, 60,000 for a word in 60 % (10 to 19 ms of CPU alone).
 *
 * Rows are kept whole in their page: a row is about 2 kB (its full tsvector, ~1.9 kB for a page of 120 words, is kept
 * in the row since 0007: ranking reads it for every candidate), just over the 2 kB at which PostgreSQL starts moving
 * columns out of line, and it moved out the small ones first — the title tsvector of most rows, every title check of a
 * candidate then reading the TOAST table's index and heap (two more buffers a row: 1.8 against 1.2 ms of a search's
 * CPU at 100,000 pages). The partitions start that at 8,160 bytes (`toast_tuple_target`), and the small columns are
 * `main`, so a page too large for that compresses its tsvector before anything small moves.
 *
 * The GIN indexes have no pending list (`fastupdate = off`): a merge writes its pages into the index at once rather
 * than into a list every search would read through until a vacuum merges it. The rows are copied, and stored anew so.
 */
export class SearchPartitionsMigration extends SchemaMigration {
  override up(): void {
    const flat = this.t('search_page');
    const next = this.t('search_page_partitioned');
    // The columns of 0007's table, with their defaults and NOT NULL.
    this.addSql(`create table ${next} (
      like ${flat} including defaults,
      constraint search_page_partitioned_pkey primary key (space_id, page_id),
      constraint search_page_space_id_fkey foreign key (space_id) references ${this.t('space')} (id) on delete cascade deferrable initially deferred)
      partition by hash (space_id)`);
    for (let i = 0; i < SEARCH_PAGE_PARTITIONS; i++) {
      this.addSql(
        `create table ${this.t(`search_page_${i}`)} partition of ${next} for values with (modulus ${SEARCH_PAGE_PARTITIONS}, remainder ${i}) with (toast_tuple_target = 8160)`,
      );
    }
    for (const column of ['title', 'path', 'description', 'ancestors', 'title_tsv', 'tsv']) {
      this.addSql(`alter table ${next} alter column ${column} set storage main`);
    }
    this.addSql(`insert into ${next} (space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv)
      select space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv from ${flat}`);
    // The copied rows' foreign keys are checked now rather than at commit: PostgreSQL refuses to index a table with
    // checks pending in the transaction.
    this.addSql(`set constraints all immediate`);
    this.addSql(`drop table ${flat}`);
    this.addSql(`alter table ${next} rename to "search_page"`);
    this.addSql(
      `alter table ${this.t('search_page')} rename constraint search_page_partitioned_pkey to search_page_pkey`,
    );
    this.addSql(
      `create index search_page_title on ${this.t('search_page')} using gin (title_tsv) with (fastupdate = off)`,
    );
    this.addSql(`create index search_page_text on ${this.t('search_page')} using gin (tsv) with (fastupdate = off)`);
    this.addSql(`create index search_page_document on ${this.t('search_page')} (document_hash)`);
  }
}
