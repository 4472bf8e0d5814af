import { SchemaMigration } from '@quire/kit';

/**
 * An organization's merge rules (GitBook's `MergeRulesStandaloneConfiguration`: `rules` or `none`), inherited by its
 * spaces whose own are `inherit`; content keeps a copy from `organization.merge-rules-changed` (docs/merge-rules.md).
 */
export class OrganizationMergeRulesMigration extends SchemaMigration {
  override up(): void {
    this.addSql(
      `alter table ${this.t('organization')} add column merge_rules jsonb not null default '{"type":"none"}'`,
    );
  }
}
