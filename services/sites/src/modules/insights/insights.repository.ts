import { sql, sqlRun, type EntityManager } from '@quire/kit';

/** What a recorded event is (`site_event.kind`): a page viewed, a search, a rating; GitBook's types in insights.loader.ts. */
export type SiteEventKind = 'page_view' | 'search' | 'rating';

export interface SiteEventRow {
  siteId: string;
  kind: SiteEventKind;
  occurredAt: Date;
  visitor: string | null;
  siteSpaceId: string | null;
  spaceId: string | null;
  pageId: string | null;
  query: string | null;
  resultCount: number | null;
  rating: 'bad' | 'ok' | 'good' | null;
  comment: string | null;
  /** The URL path the event happened on (no query string), null when not known. */
  urlPath: string | null;
}

const COLUMNS = [
  'site_id',
  'kind',
  'occurred_at',
  'visitor',
  'site_space_id',
  'space_id',
  'page_id',
  'query',
  'result_count',
  'rating',
  'comment',
  'url_path',
] as const;

export interface SiteEventTotals {
  page_views: number;
  not_found: number;
  visitors: number;
  searches: number;
  searches_without_results: number;
  good: number;
  ok: number;
  bad: number;
}

/** The recorded events of published sites (`site_insight_event`). */
export const insightsRepository = {
  async insert(em: EntityManager, rows: readonly SiteEventRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sqlRun(
      em,
      `insert into :schema.site_insight_event (${COLUMNS.join(', ')}) values ${rows
        .map(() => `(${COLUMNS.map(() => '?').join(', ')})`)
        .join(', ')}`,
      rows.flatMap((r) => [
        r.siteId,
        r.kind,
        r.occurredAt,
        r.visitor,
        r.siteSpaceId,
        r.spaceId,
        r.pageId,
        r.query,
        r.resultCount,
        r.rating,
        r.comment,
        r.urlPath,
      ]),
    );
  },

  /** Whether `visitor` (a day's pseudonym) rated the page of the site since `since` (the start of its day). */
  async hasRated(em: EntityManager, siteId: string, pageId: string, visitor: string, since: Date): Promise<boolean> {
    const rows = await sql<{ one: number }>(
      em,
      `select 1 as one from :schema.site_insight_event
        where site_id = ? and kind = 'rating' and page_id = ? and visitor = ? and occurred_at >= ? limit 1`,
      [siteId, pageId, visitor, since],
    );
    return rows.length > 0;
  },

  /** Totals of a site's events in `[from, to)`; visitors are distinct per day (a visitor's pseudonym changes daily). */
  async totals(em: EntityManager, siteId: string, from: Date, to: Date): Promise<SiteEventTotals> {
    const [row] = await sql<SiteEventTotals>(
      em,
      `select count(*) filter (where kind = 'page_view' and page_id is not null)::int as page_views,
              count(*) filter (where kind = 'page_view' and page_id is null)::int as not_found,
              count(distinct (occurred_at::date, visitor)) filter (where visitor is not null)::int as visitors,
              count(*) filter (where kind = 'search')::int as searches,
              count(*) filter (where kind = 'search' and result_count = 0)::int as searches_without_results,
              count(*) filter (where rating = 'good')::int as good,
              count(*) filter (where rating = 'ok')::int as ok,
              count(*) filter (where rating = 'bad')::int as bad
         from :schema.site_insight_event where site_id = ? and occurred_at >= ? and occurred_at < ?`,
      [siteId, from, to],
    );
    return row!;
  },

  /** The 10 most viewed pages of a site in `[from, to)`. */
  topPages(em: EntityManager, siteId: string, from: Date, to: Date) {
    return sql<{ space_id: string | null; page_id: string; views: number }>(
      em,
      `select space_id, page_id, count(*)::int as views from :schema.site_insight_event
        where site_id = ? and occurred_at >= ? and occurred_at < ? and kind = 'page_view' and page_id is not null
        group by space_id, page_id order by views desc, page_id limit 10`,
      [siteId, from, to],
    );
  },

  /** The 10 most frequent searches of a site in `[from, to)`, by their lowercased query. */
  topSearches(em: EntityManager, siteId: string, from: Date, to: Date) {
    return sql<{ query: string; count: number; without_results: number }>(
      em,
      `select lower(query) as query, count(*)::int as count,
              count(*) filter (where result_count = 0)::int as without_results
         from :schema.site_insight_event
        where site_id = ? and occurred_at >= ? and occurred_at < ? and kind = 'search'
        group by lower(query) order by count desc, lower(query) limit 10`,
      [siteId, from, to],
    );
  },

  /** The 10 paths most often answered 404 in `[from, to)` (page views without a page). */
  topNotFound(em: EntityManager, siteId: string, from: Date, to: Date) {
    return sql<{ path: string; count: number }>(
      em,
      `select url_path as path, count(*)::int as count from :schema.site_insight_event
        where site_id = ? and occurred_at >= ? and occurred_at < ? and kind = 'page_view' and page_id is null
          and url_path is not null
        group by url_path order by count desc, url_path limit 10`,
      [siteId, from, to],
    );
  },
};
