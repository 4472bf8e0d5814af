import { SchemaMigration } from '@quire/kit';

/**
 * Merge rules (docs/merge-rules.md): a space's own configuration (`inherit` by default: its organization's), and the
 * organizations' configurations, projected from org-admin's `organization.merge-rules-changed` events (`event_at`
 * refuses an older event delivered late). An organization without a row has none (`{"type":"none"}`).
 */
export class MergeRulesMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`alter table ${this.t('space')} add column merge_rules jsonb not null default '{"type":"inherit"}'`);
    this.addSql(
      `create table ${this.t('organization_merge_rules')} (
        organization_id text primary key,
        merge_rules jsonb not null,
        event_at timestamptz not null
      )`,
    );
  }
}
