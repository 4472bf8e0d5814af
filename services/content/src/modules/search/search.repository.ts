import { LRUCache } from 'lru-cache';
import { sql, sqlRun, type EntityManager } from '@quire/kit';
import type { IndexedPage, IndexedSection } from './search-index.ts';
import type { SearchCursor } from './search-query.ts';

/** The state of a space's index, locked until the transaction ends (null: the space does not exist). */
export interface SpaceIndexState {
  liveRevision: string;
  indexedRevision: string | null;
}

/** A section of a page's document that matched, with its excerpt. */
export interface SectionHit {
  anchor: string;
  heading: string;
  score: number;
  excerpt: string;
}

/** A ranked page of a search, with its best matching sections. */
export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
  titleMatch: boolean;
  score: number;
  /** One-based position in the whole ranked result. */
  rank: number;
  sections: SectionHit[];
}

/** Sections of a page shown at most. */
export const SECTIONS_PER_PAGE = 3;

/** `ts_headline`: plain text (no markers), one passage of 15..35 words around the matches. */
const HEADLINE = 'MaxWords=35, MinWords=15, ShortWord=3, StartSel="", StopSel=""';

/**
 * The text `ts_headline` is given for a section (`b.body`): the whole text up to `HEADLINE_WHOLE` characters, else a
 * window of `HEADLINE_WINDOW` characters starting `HEADLINE_BEFORE` before the first occurrence of a word of the query
 * (`args.words`, its lexemes, found in the lower-cased text: a stem is the start of the words it comes from, as
 * `configur` of *configuring*), or the start of the text when none is found. `ts_headline` parses and stems all the
 * text it is given (~0.7 µs a word here), so a section of 10,000 words would cost 7 ms a result; the window bounds
 * that, and holds the passage `ts_headline` shows (35 words at most) around that word.
 */
const HEADLINE_WHOLE = 4_000;
const HEADLINE_WINDOW = 3_000;
const HEADLINE_BEFORE = 1_000;
const HEADLINE_TEXT = `case when length(b.body) <= ${HEADLINE_WHOLE} then b.body
  else substr(b.body, greatest(1, coalesce((select min(nullif(strpos(lower(b.body), w), 0)) from unnest((select words from args)) w), 1) - ${HEADLINE_BEFORE}), ${HEADLINE_WINDOW}) end`;

const json = (value: unknown) => JSON.stringify(value);

/** Whether a document's markdown has an include tag, by hash (documents never change): see `documentsWithIncludes`. */
const includeTags = new LRUCache<string, boolean>({ max: 200_000 });

/** What a search is given: the query as typed, its word that may match as a prefix (see `prefixWord`), where to look. */
export interface SearchScope {
  config: string;
  query: string;
  prefix: string | undefined;
  spaceIds: readonly string[];
  /** Most pages ranked. */
  cap: number;
}

/** The order of ranked pages: score, then space and page ids (bytewise, whatever the database's collation). */
const RANKED = 'c.score desc, c.space_id collate "C", c.page_id collate "C"';
/** The pages ranked after a cursor `(score, space, page)` (four parameters); the others are up to it (`ahead`). */
const AFTER = '(c.score < ?::real or (c.score = ?::real and (c.space_id collate "C", c.page_id collate "C") > (?, ?)))';

/**
 * The search statement, one per scope (one space, several) and page (first, after a cursor); its parameters: the
 * text search configuration, the query, the configuration, the prefix word ('' when none) and whether there is one,
 * the space(s), the cap (twice), the cursor, the page size + 1, the cursor again, then the configuration,
 * `HEADLINE`, the page size and `SECTIONS_PER_PAGE`.
 *
 * The query is parsed in the statement (`args`): `websearch_to_tsquery` (quotes, `-word`, `or`, stemming; empty when
 * only stop words are left, which matches nothing); when the prefix word stems to one lexeme that ends the parsed
 * query, that lexeme also matches as a prefix.
 *
 * Prepared once per connection with a generic plan, whatever the query: the query and the spaces are read from
 * `args`, which the planner cannot see through, so every call plans alike and PostgreSQL keeps the generic plan
 * (planning the statement took ~1.5 ms of CPU, half as long as running it). `search_page` is partitioned
 * by space (migration 0009):
 * - one space: its partition is the only one read (`= (select space …)` prunes when the statement starts);
 * - several: the partitions are read one after the other, each with its GIN bitmap built when it is reached, and the
 *   materialized CTEs are read as far as the cap (title matches first, then text matches), so the partitions after
 *   that are never scanned — a word in most pages costs about what a rarer one does.
 * Candidates carry what the results show, so the page of results needs no second read of `search_page`; they are
 * ranked by `ts_rank` (title A, description and headings B, text D) and the page asked for is a top-N sort of them.
 * `total` is how many were ranked, `rank` a result's one-based position among them (across pages). With no result on
 * the page, one row still says `total` (its page id null). Sections and their `ts_headline` excerpts are read for the
 * page's results only (not the row past it that says whether there is a next page).
 */
function searchStatement(one: boolean, after: boolean): string {
  const inScope = one ? 'p.space_id = (select space from args)' : 'p.space_id = any((select spaces from args)::text[])';
  const columns =
    'p.space_id, p.page_id, p.title, p.path, p.description, p.ancestors, p.document_hash, ts_rank(p.tsv, (select q from args)) as score';
  return `with parsed as (
      select websearch_to_tsquery(?::regconfig, ?) as whole, websearch_to_tsquery(?::regconfig, ?) as last, ?::boolean as prefixed
    ), args as (
      select y.*, array(select m[1] from regexp_matches(y.q::text, '''([^'']+)''', 'g') as m) as words
        from (select case when x.prefixed and numnode(x.last) = 1 and right(x.whole::text, length(x.last::text)) = x.last::text
                          then (x.whole::text || ':*')::tsquery else x.whole end as q,
                     ${one ? '?::text as space' : '?::text[] as spaces'}
                from parsed x) y
    ),
    by_title as materialized (
      select ${columns}, true as title_match
        from :schema.search_page p where ${inScope} and p.title_tsv @@ (select q from args)
       limit ?
    ), by_text as materialized (
      select ${columns}, false as title_match
        from :schema.search_page p where ${inScope} and p.tsv @@ (select q from args) and not p.title_tsv @@ (select q from args)
    ), candidates as materialized (
      select * from by_title
      union all
      (select * from by_text limit greatest(0, ? - (select count(*) from by_title)))
    ), shown as (
      select c.*, row_number() over (order by ${RANKED}) as n
        from (select * from candidates c where ${after ? AFTER : 'true'} order by ${RANKED} limit ?) c
    ), counted as (
      select count(*) as total, ${after ? `count(*) filter (where not ${AFTER})` : '0'} as ahead from candidates c
    )
    select k.total, k.ahead + s.n as rank, s.space_id, s.page_id, s.score, s.title_match, s.title, s.path, s.description, s.ancestors, x.sections
      from counted k
      left join shown s on true
      left join lateral (
        select json_agg(json_build_object('anchor', b.anchor, 'heading', b.heading, 'score', b.score, 'excerpt', ts_headline(?::regconfig, ${HEADLINE_TEXT}, (select q from args), ?))
                        order by b.score desc, b.position) as sections
          from (select sec.anchor, sec.heading, sec.body, sec.position, ts_rank(sec.tsv, (select q from args)) as score
                  from :schema.search_section sec
                 where s.n <= ? and sec.document_hash = s.document_hash and sec.tsv @@ (select q from args)
                 order by score desc, sec.position limit ?) b
      ) x on true
     order by s.n`;
}

/** The four variants of the search statement, each its own prepared statement. */
const STATEMENTS = {
  oneFirst: searchStatement(true, false),
  oneAfter: searchStatement(true, true),
  manyFirst: searchStatement(false, false),
  manyAfter: searchStatement(false, true),
};

/** The tsvector of a document: its sections', concatenated in order. */
const DOCUMENT_TSV = (hash: string) =>
  `coalesce((select :schema.search_tsvector_agg(s.tsv order by s.position) from :schema.search_section s where s.document_hash = ${hash}), '')`;

/** A `text[]` literal (`{"a","b"}`): `= any(?::text[])` lets the planner see the values, unlike a set-returning function. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

/** A row of the ranked search statements (`STATEMENTS`): the total on every row, a hit on each but an empty result's. */
interface RankedRow {
  total: string;
  rank: string | null;
  space_id: string | null;
  page_id: string | null;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
  title_match: boolean;
  score: number;
  sections: SectionHit[] | null;
}

/** The hit of a ranked row (none for the row that only carries the total). */
const hitOf = (r: RankedRow): PageHit[] =>
  r.space_id === null || r.page_id === null
    ? []
    : [
        {
          spaceId: r.space_id,
          pageId: r.page_id,
          title: r.title,
          path: r.path,
          description: r.description,
          ancestors: r.ancestors,
          titleMatch: r.title_match,
          score: Number(r.score),
          rank: Number(r.rank),
          sections: r.sections ?? [],
        },
      ];

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
   * The ranked pages of these spaces matching a query, from `after` on, each with its best matching sections
   * (`SECTIONS_PER_PAGE`, with a `ts_headline` excerpt of their text), in one statement (see `searchStatement`).
   * Candidates are capped before ranking: the pages whose title matches, then pages whose text matches, up to `cap` in
   * all (found by the index, in no particular order), ranked with `ts_rank`; `total` is how many were.
   */
  async rankedPages(
    em: EntityManager,
    props: SearchScope & { after: SearchCursor | undefined; limit: number },
  ): Promise<{ total: number; hits: PageHit[] }> {
    const { after, spaceIds } = props;
    const one = spaceIds.length === 1;
    const cursor = after ? [after.score, after.score, after.spaceId, after.pageId] : [];
    const text = one
      ? after
        ? STATEMENTS.oneAfter
        : STATEMENTS.oneFirst
      : after
        ? STATEMENTS.manyAfter
        : STATEMENTS.manyFirst;
    const rows = await sql<RankedRow>(em, text, [
      props.config,
      props.query,
      props.config,
      props.prefix ?? '',
      props.prefix !== undefined,
      one ? spaceIds[0] : textArray(spaceIds),
      props.cap,
      props.cap,
      ...cursor,
      // One row past the page says whether there is a next one (its sections are not read).
      Math.max(1, props.limit + 1),
      ...cursor,
      props.config,
      HEADLINE,
      props.limit,
      SECTIONS_PER_PAGE,
    ]);
    return {
      total: rows[0] ? Number(rows[0].total) : 0,
      hits: rows.flatMap(hitOf),
    };
  },

  /**
   * Locks the index state of a space (created when missing) until the transaction ends, so two syncs of one space
   * never interleave; null when the space does not exist.
   */
  async lockSpace(em: EntityManager, spaceId: string, config: string, now: Date): Promise<SpaceIndexState | null> {
    const [space] = await sql<{ revision_id: string }>(em, `select revision_id from :schema.space where id = ?`, [
      spaceId,
    ]);
    if (!space) return null;
    await sqlRun(
      em,
      `insert into :schema.search_space (space_id, revision_id, config, indexed_at) values (?, null, ?, ?) on conflict (space_id) do nothing`,
      [spaceId, config, now],
    );
    const [row] = await sql<{ live: string; indexed: string | null }>(
      em,
      `select s.revision_id as live, st.revision_id as indexed
         from :schema.search_space st join :schema.space s on s.id = st.space_id
        where st.space_id = ? for update of st`,
      [spaceId],
    );
    return row ? { liveRevision: row.live, indexedRevision: row.indexed } : null;
  },

  /**
   * Brings the planner's statistics of the index up to date after a large change: the partition of `search_page`
   * holding the space, when `pages` rows were just written there, and the shared `search_document` and
   * `search_section` when `documents` were just indexed — each when it was never analyzed or what was written is a
   * tenth of it or more. Without them (a PostgreSQL whose autovacuum is off or has not come by yet after a large
   * merge) a space's search ANDs the GIN bitmap with a bitmap of the space's whole primary key, and the sections of
   * the results are looked up in a table the planner takes for empty: measured on 100,000 pages built through the
   * API, 0–2 searches a second (p50 5 s) before, 130–210 after. ANALYZE runs in the caller's transaction, which its
   * sample sees. Returns the tables analyzed.
   */
  async analyzeAfter(
    em: EntityManager,
    spaceId: string,
    written: { pages: number; documents: number },
  ): Promise<string[]> {
    const stale = (rows: number, reltuples: number) =>
      rows > 0 && (reltuples < 0 || rows >= Math.max(100, reltuples / 10));
    const analyzed: string[] = [];
    if (written.pages > 0) {
      const [part] = await sql<{ name: string; reltuples: number }>(
        em,
        `select format('%I.%I', n.nspname, c.relname) as name, c.reltuples
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.oid = (select p.tableoid from :schema.search_page p where p.space_id = ? limit 1)`,
        [spaceId],
      );
      if (part && stale(written.pages, Number(part.reltuples))) {
        await sqlRun(em, `analyze ${part.name}`);
        analyzed.push(part.name);
      }
    }
    if (written.documents > 0) {
      const [documents] = await sql<{ reltuples: number }>(
        em,
        'select c.reltuples from pg_class c where c.oid = to_regclass(?)',
        [`"${em.config.get('schema')}".search_document`],
      );
      if (documents && stale(written.documents, Number(documents.reltuples))) {
        for (const name of ['search_document', 'search_section']) await sqlRun(em, `analyze :schema.${name}`);
        analyzed.push('search_document', 'search_section');
      }
    }
    return analyzed;
  },

  async setIndexedRevision(em: EntityManager, spaceId: string, revisionId: string, now: Date): Promise<void> {
    await sqlRun(em, `update :schema.search_space set revision_id = ?, indexed_at = ? where space_id = ?`, [
      revisionId,
      now,
      spaceId,
    ]);
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
   * Of these document hashes, those whose markdown has an include tag (`{% include … %}`): the documents that may
   * include reusable contents (the others cannot, and are not parsed). Documents never change, so the answer for each
   * hash is kept (`includeTags`): a merge reads only the documents it has not seen.
   */
  async documentsWithIncludes(em: EntityManager, hashes: readonly string[]): Promise<string[]> {
    const unknown = [...new Set(hashes)].filter((h) => !includeTags.has(h));
    if (unknown.length) {
      const rows = await sql<{ hash: string; tagged: boolean }>(
        em,
        `select hash, markdown ~ ? as tagged from :schema.document where hash = any(?::text[])`,
        ['\\{%-?\\s*include\\s', textArray(unknown)],
      );
      for (const r of rows) includeTags.set(r.hash, r.tagged);
    }
    return [...new Set(hashes)].filter((h) => includeTags.get(h) === true);
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

  /** Indexes documents: their sections with their tsvectors (heading B, text D), then the documents. */
  async insertDocuments(
    em: EntityManager,
    config: string,
    documents: readonly { hash: string; sections: IndexedSection[]; truncated: boolean }[],
    now: Date,
  ): Promise<void> {
    if (!documents.length) return;
    const sections = documents.flatMap((d) =>
      d.sections.map((s) => ({
        hash: d.hash,
        position: s.position,
        anchor: s.anchor,
        heading: s.heading,
        body: s.body,
      })),
    );
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
      `insert into :schema.search_document (hash, config, truncated, created_at, used_at)
       select x.hash, ?, x.truncated, ?, ? from jsonb_to_recordset(?::jsonb) as x(hash text, truncated boolean)
       on conflict (hash) do nothing`,
      [config, now, now, json(documents.map((d) => ({ hash: d.hash, truncated: d.truncated })))],
    );
  },

  /** Writes pages of a space (new or changed): title tsvector (A), and title A + description B + the document's sections in order. */
  async upsertPages(em: EntityManager, spaceId: string, config: string, pages: readonly IndexedPage[]): Promise<void> {
    for (let i = 0; i < pages.length; i += 1000) {
      const chunk = pages.slice(i, i + 1000).map((p) => ({
        page_id: p.pageId,
        title: p.title,
        path: p.path,
        description: p.description,
        ancestors: p.ancestors,
        document_hash: p.documentHash,
      }));
      await sqlRun(
        em,
        `insert into :schema.search_page (space_id, page_id, title, path, description, ancestors, document_hash, title_tsv, tsv)
         select ?, x.page_id, x.title, x.path, x.description, x.ancestors, x.document_hash, t.tsv,
                t.tsv || setweight(to_tsvector(?::regconfig, x.description), 'B') || ${DOCUMENT_TSV('x.document_hash')}
           from jsonb_to_recordset(?::jsonb) as x(page_id text, title text, path text, description text, ancestors jsonb, document_hash text)
           cross join lateral (select setweight(to_tsvector(?::regconfig, x.title), 'A') as tsv) t
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
    await sqlRun(em, `delete from :schema.search_page where space_id = ? and page_id = any(?::text[])`, [
      spaceId,
      textArray(pageIds),
    ]);
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
    await sqlRun(em, `update :schema.search_document set config = ? where config <> ?`, [config, config]);
    await sqlRun(
      em,
      `update :schema.search_page p
          set title_tsv = setweight(to_tsvector(?::regconfig, p.title), 'A'),
              tsv = setweight(to_tsvector(?::regconfig, p.title), 'A') || setweight(to_tsvector(?::regconfig, p.description), 'B')
                    || ${DOCUMENT_TSV('p.document_hash')}`,
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
