import { SchemaMigration } from '@quire/kit';

/**
 * Site insights (issue 42): the page views, searches and page ratings of published sites, as the renderer reports
 * them (`trackEventsInSiteById`). No IP address, cookie or user agent is stored; the visitor is a daily pseudonym.
 */
export class SiteInsightsMigration extends SchemaMigration {
  override up(): void {
    const event = this.t('site_insight_event');
    this.addSql(`create table ${event} (
      id bigint generated always as identity primary key,
      site_id text not null,
      kind text not null check (kind in ('page_view', 'search', 'rating')),
      occurred_at timestamptz not null,
      visitor text null,
      site_space_id text null,
      space_id text null,
      page_id text null,
      query text null,
      result_count integer null,
      rating text null check (rating in ('bad', 'ok', 'good')),
      comment text null
    )`);
    this.addSql(`create index site_insight_event_site on ${event} (site_id, occurred_at)`);
  }
}
