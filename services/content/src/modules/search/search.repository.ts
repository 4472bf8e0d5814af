import { sql, sqlRun, type EntityManager } from '@quire/kit';
import type { IndexedPage, IndexedSection } from './search-index.ts';
import type { SearchCursor } from './search-query.ts';

/** The state of a space's index, locked until the transaction ends (null: the space does not exist). */
export interface SpaceIndexState {
  liveRevision: string;
  indexedRevision: string | null;
}

/** A ranked page of a search. */
export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
  documentHash: string | null;
  titleMatch: boolean;
  score: number;
  /** One-based position in the whole ranked result. */
  rank: number;
}

/** A section of a page's document that matched, with its excerpt. */
export interface SectionHit {
  documentHash: string;
  anchor: string;
  heading: string;
  score: number;
  excerpt: string;
}

/** Sections of a page shown at most. */
export const SECTIONS_PER_PAGE = 3;

/** `ts_headline`: plain text (no markers), one passage of 15..35 words around the matches. */
const HEADLINE = 'MaxWords=35, MinWords=15, ShortWord=3, StartSel="", StopSel=""';

const json = (value: unknown) => JSON.stringify(value);
/** A `text[]` literal (`{"a","b"}`): `= any(?::text[])` lets the planner see the values, unlike a set-returning function. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/** The search index (migration 0007): documents' sections by hash, live pages per space, the revision each space is indexed at. */
export const searchRepository = {
  /** Whether PostgreSQL has the text search configuration (`english`, `public.mine`). */
  async configExists(em: EntityManager, config: string): Promise<boolean> {
    const dot = config.indexOf('.');
    const [schema, name] = dot < 0 ? [null, config] : [config.slice(0, dot), config.slice(dot + 1)];
    const rows = await sql(
      em,
      `select 1 from pg_catalog.pg_ts_config c join pg_catalog.pg_namespace n on n.oid = c.cfgnamespace
        where c.cfgname = ? and (n.nspname = ? or (?::text is null and pg_catalog.pg_ts_config_is_visible(c.oid)))`,
      [name, schema, schema],
    );
    return rows.length > 0;
  },

  /**
   * Parses a query with `websearch_to_tsquery` (quotes, `-word`, `or`, stemming); when `prefix` (its last word)
   * stems to one lexeme that ends the parsed query, that lexeme also matches as a prefix. '' when nothing is left
   * to search (only stop words or punctuation).
   */
  async parse(em: EntityManager, config: string, query: string, prefix: string | undefined): Promise<string> {
    const [row] = await sql<{ q: string }>(
      em,
      `select case when ?::boolean and numnode(l) = 1 and right(w::text, length(l::text)) = l::text
                   then (w::text || ':*')::tsquery else w end::text as q
         from websearch_to_tsquery(?::regconfig, ?) w, websearch_to_tsquery(?::regconfig, ?) l`,
      [prefix !== undefined, config, query, config, prefix ?? ''],
    );
    return row?.q ?? '';
  },

  /**
   * The ranked pages of these spaces matching a parsed query, from `after` on. Candidates are capped before ranking:
   * at most `cap` pages whose title matches and `cap` pages whose text matches (GIN-found, in no particular order)
   * are ranked with `ts_rank` (title A, description and headings B, text D); `total` is how many were.
   */
  async rankedPages(
    em: EntityManager,
    props: { spaceIds: readonly string[]; tsquery: string; cap: number; after: SearchCursor | undefined; limit: number },
  ): Promise<{ total: number; hits: PageHit[] }> {
    const spaces = textArray(props.spaceIds);
    const after = props.after;
    const rows = await sql<{
      space_id: string;
      page_id: string;
      title: string;
      path: string;
      description: string;
      ancestors: string[];
      document_hash: string | null;
      title_match: boolean;
      score: number;
      rank: string;
      total: string;
    }>(
      em,
      `with cand as (
         (select p.space_id, p.page_id from :schema.search_page p
           where p.space_id = any(?::text[]) and p.title_tsv @@ ?::tsquery limit ?)
         union
         (select p.space_id, p.page_id from :schema.search_page p
           where p.space_id = any(?::text[]) and p.tsv @@ ?::tsquery limit ?)
       ), ranked as (
         select p.space_id, p.page_id, p.title, p.path, p.description, p.ancestors, p.document_hash,
                p.title_tsv @@ ?::tsquery as title_match, ts_rank(p.tsv, ?::tsquery) as score
           from cand join :schema.search_page p using (space_id, page_id)
       ), numbered as (
         select r.*, row_number() over (order by r.score desc, r.space_id, r.page_id) as rank, count(*) over () as total from ranked r
       )
       select * from numbered
        where ${after ? `(score < ?::real or (score = ?::real and (space_id, page_id) > (?, ?)))` : 'true'}
        order by rank limit ?`,
      [
        spaces,
        props.tsquery,
        props.cap,
        spaces,
        props.tsquery,
        props.cap,
        props.tsquery,
        props.tsquery,
        ...(after ? [after.score, after.score, after.spaceId, after.pageId] : []),
        // One row past the page says whether there is a next one; `total` comes with every row (none when the page is empty).
        Math.max(1, props.limit + 1),
      ],
    );
    const total = rows[0] ? Number(rows[0].total) : after ? await searchRepository.countRanked(em, props) : 0;
    return {
      total,
      hits: rows.map((r) => ({
        spaceId: r.space_id,
        pageId: r.page_id,
        title: r.title,
        path: r.path,
        description: r.description,
        ancestors: r.ancestors,
        documentHash: r.document_hash,
        titleMatch: r.title_match,
        score: Number(r.score),
        rank: Number(r.rank),
      })),
    };
  },

  /** How many pages `rankedPages` ranks (for a page past the last result). */
  async countRanked(em: EntityManager, props: { spaceIds: readonly string[]; tsquery: string; cap: number }): Promise<number> {
    const spaces = textArray(props.spaceIds);
    const [row] = await sql<{ n: string }>(
      em,
      `select count(*) as n from (
         (select p.space_id, p.page_id from :schema.search_page p
           where p.space_id = any(?::text[]) and p.title_tsv @@ ?::tsquery limit ?)
         union
         (select p.space_id, p.page_id from :schema.search_page p
           where p.space_id = any(?::text[]) and p.tsv @@ ?::tsquery limit ?)) c`,
      [spaces, props.tsquery, props.cap, spaces, props.tsquery, props.cap],
    );
    return Number(row?.n ?? 0);
  },

  /** The best `SECTIONS_PER_PAGE` matching sections of each document, with a `ts_headline` excerpt of their text. */
  async matchingSections(em: EntityManager, props: { config: string; tsquery: string; hashes: readonly string[] }): Promise<SectionHit[]> {
    if (!props.hashes.length) return [];
    const rows = await sql<{ document_hash: string; anchor: string; heading: string; score: number; excerpt: string }>(
      em,
      `with hits as (
         select s.document_hash, s.position, s.anchor, s.heading, s.body, ts_rank(s.tsv, ?::tsquery) as score
           from :schema.search_section s
          where s.document_hash = any(?::text[]) and s.tsv @@ ?::tsquery
       ), best as (
         select h.*, row_number() over (partition by h.document_hash order by h.score desc, h.position) as n from hits h
       )
       select document_hash, anchor, heading, score, ts_headline(?::regconfig, body, ?::tsquery, ?) as excerpt
         from best where n <= ? order by document_hash, n`,
      [props.tsquery, textArray(props.hashes), props.tsquery, props.config, props.tsquery, HEADLINE, SECTIONS_PER_PAGE],
    );
    return rows.map((r) => ({ documentHash: r.document_hash, anchor: r.anchor, heading: r.heading, score: Number(r.score), excerpt: r.excerpt }));
  },

  /**
   * Locks the index state of a space (created when missing) until the transaction ends, so two syncs of one space
   * never interleave; null when the space does not exist.
   */
  async lockSpace(em: EntityManager, spaceId: string, config: string, now: Date): Promise<SpaceIndexState | null> {
    const [space] = await sql<{ revision_id: string }>(em, `select revision_id from :schema.space where id = ?`, [spaceId]);
    if (!space) return null;
    await sqlRun(em, `insert into :schema.search_space (space_id, revision_id, config, indexed_at) values (?, null, ?, ?) on conflict (space_id) do nothing`, [spaceId, config, now]);
    const [row] = await sql<{ live: string; indexed: string | null }>(
      em,
      `select s.revision_id as live, st.revision_id as indexed
         from :schema.search_space st join :schema.space s on s.id = st.space_id
        where st.space_id = ? for update of st`,
      [spaceId],
    );
    return row ? { liveRevision: row.live, indexedRevision: row.indexed } : null;
  },

  async setIndexedRevision(em: EntityManager, spaceId: string, revisionId: string, now: Date): Promise<void> {
    await sqlRun(em, `update :schema.search_space set revision_id = ?, indexed_at = ? where space_id = ?`, [revisionId, now, spaceId]);
  },

  /** Live spaces whose index is missing or behind their live revision. */
  async staleSpaces(em: EntityManager, limit: number): Promise<{ id: string; revisionId: string }[]> {
    const rows = await sql<{ id: string; revision_id: string }>(
      em,
      `select s.id, s.revision_id from :schema.space s left join :schema.search_space st on st.space_id = s.id
        where s.deleted_at is null and (st.space_id is null or st.revision_id is distinct from s.revision_id)
        order by s.id limit ?`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, revisionId: r.revision_id }));
  },

  /**
   * Marks the documents of these hashes as used now (the clean-up leaves them alone) and returns the hashes not
   * indexed yet. Locks the rows it marks, so a concurrent clean-up cannot drop them before the transaction ends.
   */
  async touchDocuments(em: EntityManager, hashes: readonly string[], now: Date): Promise<string[]> {
    if (!hashes.length) return [];
    const rows = await sql<{ hash: string }>(
      em,
      `update :schema.search_document set used_at = ? where hash = any(?::text[]) returning hash`,
      [now, textArray(hashes)],
    );
    const known = new Set(rows.map((r) => r.hash));
    return [...new Set(hashes)].filter((h) => !known.has(h));
  },

  /** Indexes documents: their sections' tsvectors (heading B, text D), then the document's (their concatenation, in order). */
  async insertDocuments(em: EntityManager, config: string, documents: readonly { hash: string; sections: IndexedSection[]; truncated: boolean }[], now: Date): Promise<void> {
    if (!documents.length) return;
    const sections = documents.flatMap((d) => d.sections.map((s) => ({ hash: d.hash, position: s.position, anchor: s.anchor, heading: s.heading, body: s.body })));
    if (sections.length) {
      await sqlRun(
        em,
        `insert into :schema.search_section (document_hash, position, anchor, heading, body, tsv)
         select x.hash, x.position, x.anchor, x.heading, x.body,
                setweight(to_tsvector(?::regconfig, x.heading), 'B') || setweight(to_tsvector(?::regconfig, x.body), 'D')
           from jsonb_to_recordset(?::jsonb) as x(hash text, position int, anchor text, heading text, body text)
         on conflict (document_hash, position) do nothing`,
        [config, config, json(sections)],
      );
    }
    await sqlRun(
      em,
      `insert into :schema.search_document (hash, config, tsv, truncated, created_at, used_at)
       select x.hash, ?, coalesce((select :schema.search_tsvector_agg(s.tsv order by s.position) from :schema.search_section s where s.document_hash = x.hash), ''), x.truncated, ?, ?
         from jsonb_to_recordset(?::jsonb) as x(hash text, truncated boolean)
       on conflict (hash) do nothing`,
      [config, now, now, json(documents.map((d) => ({ hash: d.hash, truncated: d.truncated })))],
    );
  },

  /** Writes pages of a space (new or changed): title tsvector (A), and title A + description B + the document's. */
  async upsertPages(em: EntityManager, spaceId: string, config: string, pages: readonly IndexedPage[]): Promise<void> {
    for (let i = 0; i < pages.length; i += 1000) {
      const chunk = pages.slice(i, i + 1000).map((p) => ({ page_id: p.pageId, title: p.title, path: p.path, description: p.description, ancestors: p.ancestors, document_hash: p.documentHash }));
      await sqlRun(
        em,
        `insert into :schema.search_page (space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv)
         select ?, x.page_id, x.title, x.path, x.description, x.ancestors, x.document_hash, t.tsv,
                t.tsv || setweight(to_tsvector(?::regconfig, x.description), 'B') || coalesce(d.tsv, '')
           from jsonb_to_recordset(?::jsonb) as x(page_id text, title text, path text, description text, ancestors jsonb, document_hash text)
           cross join lateral (select setweight(to_tsvector(?::regconfig, x.title), 'A') as tsv) t
           left join :schema.search_document d on d.hash = x.document_hash
         on conflict (space_id, page_id) do update set
           title = excluded.title, path = excluded.path, description = excluded.description, ancestors = excluded.ancestors,
           document_hash = excluded.document_hash, title_tsv = excluded.title_tsv, tsv = excluded.tsv`,
        [spaceId, config, json(chunk), config],
      );
    }
  },

  async deletePages(em: EntityManager, spaceId: string, pageIds: readonly string[] | 'all'): Promise<void> {
    if (pageIds === 'all') {
      await sqlRun(em, `delete from :schema.search_page where space_id = ?`, [spaceId]);
      return;
    }
    if (!pageIds.length) return;
    await sqlRun(em, `delete from :schema.search_page where space_id = ? and page_id = any(?::text[])`, [spaceId, textArray(pageIds)]);
  },

  /**
   * Re-makes every tsvector when the index was made (even in part) with another text search configuration, from
   * the stored text: sections, documents, then every page. Returns whether it had to.
   */
  async reconfigure(em: EntityManager, config: string): Promise<boolean> {
    const [stale] = await sql<{ stale: boolean }>(
      em,
      `select exists (select 1 from :schema.search_document where config <> ?) or exists (select 1 from :schema.search_space where config <> ?) as stale`,
      [config, config],
    );
    if (!stale?.stale) return false;
    await sqlRun(
      em,
      `update :schema.search_section s
          set tsv = setweight(to_tsvector(?::regconfig, s.heading), 'B') || setweight(to_tsvector(?::regconfig, s.body), 'D')
         from :schema.search_document d where d.hash = s.document_hash and d.config <> ?`,
      [config, config, config],
    );
    await sqlRun(
      em,
      `update :schema.search_document d
          set config = ?, tsv = coalesce((select :schema.search_tsvector_agg(s.tsv order by s.position) from :schema.search_section s where s.document_hash = d.hash), '')
        where d.config <> ?`,
      [config, config],
    );
    await sqlRun(
      em,
      `update :schema.search_page p
          set title_tsv = setweight(to_tsvector(?::regconfig, p.title), 'A'),
              tsv = setweight(to_tsvector(?::regconfig, p.title), 'A') || setweight(to_tsvector(?::regconfig, p.description), 'B')
                    || coalesce((select d.tsv from :schema.search_document d where d.hash = p.document_hash), '')`,
      [config, config, config],
    );
    await sqlRun(em, `update :schema.search_space set config = ? where config <> ?`, [config, config]);
    return true;
  },

  /** Drops up to `limit` indexed documents no page uses that were last used before `before`; returns how many. */
  async deleteUnusedDocuments(em: EntityManager, before: Date, limit: number): Promise<number> {
    return sqlRun(
      em,
      `delete from :schema.search_document where hash in (
         select d.hash from :schema.search_document d
          where d.used_at < ? and not exists (select 1 from :schema.search_page p where p.document_hash = d.hash)
          limit ? for update skip locked)`,
      [before, limit],
    );
  },
};
