import { SchemaMigration } from '@quire/kit';

/**
 * Search indexes the reusable contents a page includes with the page (issue 42): the spaces that have reusable
 * contents are indexed again (their index state forgotten, the search job brings them to their live revision).
 */
export class SearchReusableContentsMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`update ${this.t('search_space')} set revision_id = null
      where space_id in (select r.space_id from ${this.t('revision')} r
                          where exists (select 1 from ${this.t('revision_reusable_content')} c where c.revision_id = r.id))`);
  }
}
