import { SchemaMigration } from '@quire/kit';

/**
 * Site insights (issue 42): the URL path of each event (without its query string or fragment), so a path that
 * answered 404 (a broken link: a `page_view` without a page, as GitBook models it) can be told.
 */
export class SiteInsightsPathsMigration extends SchemaMigration {
  override up(): void {
    const event = this.t('site_insight_event');
    this.addSql(`alter table ${event} add column url_path text null`);
  }
}
