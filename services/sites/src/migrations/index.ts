import { ContentSpaceMigration } from './0001-content-space.ts';
import { ContentSpaceLifecycleMigration } from './0002-content-space-lifecycle.ts';
import { SitesMigration } from './0003-sites.ts';
import { SiteRedirectsPublishingAuthMigration } from './0004-site-redirects-publishing-auth.ts';
import { SiteBasenameInstanceUniqueMigration } from './0005-site-basename-instance-unique.ts';
import { SitePermissionsMigration } from './0007-site-permissions.ts';
import { SiteRedirectsGitMigration } from './0010-site-redirects-git.ts';
import { SiteSectionGroupsCustomizationMigration } from './0011-site-section-groups-customization.ts';
import { SiteOrderKeysMigration } from './0012-site-order-keys.ts';
import { SiteHostnameOwnershipMigration } from './0013-site-hostname-ownership.ts';
import { SiteInsightsMigration } from './0020-site-insights.ts';
import { SiteInsightsPathsMigration } from './0021-site-insights-paths.ts';
import { CustomFontsMigration } from './0022-custom-fonts.ts';
import { FontBlobOrphansMigration } from './0023-font-blob-orphans.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_content_space', class: ContentSpaceMigration },
  { name: '0002_content_space_lifecycle', class: ContentSpaceLifecycleMigration },
  { name: '0003_sites', class: SitesMigration },
  { name: '0004_site_redirects_publishing_auth', class: SiteRedirectsPublishingAuthMigration },
  { name: '0005_site_basename_instance_unique', class: SiteBasenameInstanceUniqueMigration },
  { name: '0007_site_permissions', class: SitePermissionsMigration },
  { name: '0010_site_redirects_git', class: SiteRedirectsGitMigration },
  { name: '0011_site_section_groups_customization', class: SiteSectionGroupsCustomizationMigration },
  { name: '0012_site_order_keys', class: SiteOrderKeysMigration },
  { name: '0013_site_hostname_ownership', class: SiteHostnameOwnershipMigration },
  { name: '0020_site_insights', class: SiteInsightsMigration },
  { name: '0021_site_insights_paths', class: SiteInsightsPathsMigration },
  { name: '0022_custom_fonts', class: CustomFontsMigration },
  { name: '0023_font_blob_orphans', class: FontBlobOrphansMigration },
];
