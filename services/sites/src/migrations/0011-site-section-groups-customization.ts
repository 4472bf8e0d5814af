import { SchemaMigration } from '@quire/kit';

/**
 * Section groups and customization (issue 21). A group holds sections and groups (`parent_id`), ordered with them by
 * `position` among the items of its level; a section joins a group by `section_group_id`. A site's customization is
 * what was set (`updateSiteCustomizationById`), the defaults filled in when read; a site space holds its overrides.
 */
export class SiteSectionGroupsCustomizationMigration extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('site_section_group')} (
      id text primary key,
      site_id text not null references ${this.t('site')} (id) on delete cascade deferrable initially deferred,
      parent_id text null references ${this.t('site_section_group')} (id) on delete set null deferrable initially deferred,
      title text not null,
      icon text null,
      position bigint not null,
      created_at timestamptz not null)`);
    this.addSql(`create index site_section_group_site on ${this.t('site_section_group')} (site_id)`);
    this.addSql(
      `alter table ${this.t('site_section')} add column section_group_id text null references ${this.t('site_section_group')} (id) on delete set null deferrable initially deferred`,
    );
    this.addSql(`alter table ${this.t('site')} add column customization jsonb null`);
    this.addSql(`alter table ${this.t('site')} add column customization_updated_at timestamptz null`);
    this.addSql(`alter table ${this.t('site_space')} add column customization jsonb null`);
    this.addSql(`alter table ${this.t('site_space')} add column customization_updated_at timestamptz null`);
  }
}
