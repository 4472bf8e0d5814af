import { orderKeyOfRankSql, SchemaMigration } from '@quire/kit';

/**
 * Issue 24, one ordering: spaces and collections order among their siblings by fractional-indexing keys (`ord`, as
 * pages do), not by integers with gaps renumbered when a gap is used up. Each parent's items (spaces and collections
 * together, the trashed ones too) keep their order: keys `a0`, `a1`, … in `(position, id)` order. `collate "C"`: keys
 * compare byte by byte.
 */
export class TreeOrderKeysMigration extends SchemaMigration {
  override up(): void {
    for (const table of ['space', 'collection'])
      this.addSql(`alter table ${this.t(table)} add column ord text collate "C" not null default ''`);
    const treeItems = `with items as (
        select 'space' as kind, id, organization_id, parent_id, position from ${this.t('space')}
        union all
        select 'collection' as kind, id, organization_id, parent_id, position from ${this.t('collection')}),
      ranked as (
        select kind, id, row_number() over (partition by organization_id, parent_id order by position, id) - 1 as r
        from items)`;
    this.addSql(`${treeItems}
      update ${this.t('space')} s set ord = ${orderKeyOfRankSql('ranked.r')}
        from ranked where ranked.kind = 'space' and ranked.id = s.id`);
    this.addSql(`${treeItems}
      update ${this.t('collection')} c set ord = ${orderKeyOfRankSql('ranked.r')}
        from ranked where ranked.kind = 'collection' and ranked.id = c.id`);
    const schema = this.config.get('schema');
    for (const index of ['collection_org_order', 'space_org_order', 'space_parent_order'])
      this.addSql(`drop index if exists "${schema}"."${index}"`);
    for (const table of ['space', 'collection']) {
      this.addSql(`alter table ${this.t(table)} alter column ord drop default`);
      this.addSql(`alter table ${this.t(table)} drop column position`);
    }
    this.addSql(`create index collection_org_order on ${this.t('collection')} (organization_id, ord, id)`);
    this.addSql(
      `create index space_org_order on ${this.t('space')} (organization_id, ord, id) where deleted_at is null`,
    );
    this.addSql(`create index space_parent_order on ${this.t('space')} (parent_id, ord, id) where deleted_at is null`);
  }
}
