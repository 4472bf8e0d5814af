import { orderKeyOfRankSql, SchemaMigration } from '@quire/kit';

/**
 * Issue 24, one ordering: site sections, section groups and site spaces order among their siblings by
 * fractional-indexing keys (`ord`, as pages, spaces and collections do), not by dense integers renumbered on every
 * move. Each level keeps its order: keys `a0`, `a1`, … in `(position, id)` order — the sections and groups of a level
 * (the root of a site, or a group) together, the site spaces of a section (or of the root of a site).
 * `collate "C"`: keys compare byte by byte.
 */
export class SiteOrderKeysMigration extends SchemaMigration {
  override up(): void {
    for (const table of ['site_section', 'site_section_group', 'site_space'])
      this.addSql(`alter table ${this.t(table)} add column ord text collate "C" not null default ''`);
    const navItems = `with items as (
        select 'section' as kind, id, site_id, section_group_id as level, position from ${this.t('site_section')}
        union all
        select 'group' as kind, id, site_id, parent_id as level, position from ${this.t('site_section_group')}),
      ranked as (
        select kind, id, row_number() over (partition by site_id, level order by position, id) - 1 as r from items)`;
    this.addSql(`${navItems}
      update ${this.t('site_section')} s set ord = ${orderKeyOfRankSql('ranked.r')}
        from ranked where ranked.kind = 'section' and ranked.id = s.id`);
    this.addSql(`${navItems}
      update ${this.t('site_section_group')} g set ord = ${orderKeyOfRankSql('ranked.r')}
        from ranked where ranked.kind = 'group' and ranked.id = g.id`);
    this.addSql(`with ranked as (
        select id, row_number() over (partition by site_id, section_id order by position, id) - 1 as r
        from ${this.t('site_space')})
      update ${this.t('site_space')} ss set ord = ${orderKeyOfRankSql('ranked.r')} from ranked where ranked.id = ss.id`);
    for (const table of ['site_section', 'site_section_group', 'site_space']) {
      this.addSql(`alter table ${this.t(table)} alter column ord drop default`);
      this.addSql(`alter table ${this.t(table)} drop column position`);
    }
  }
}
