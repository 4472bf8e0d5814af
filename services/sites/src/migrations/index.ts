import { ContentSpaceMigration } from './0001-content-space.ts';
import { ContentSpaceLifecycleMigration } from './0002-content-space-lifecycle.ts';
import { SitesMigration } from './0003-sites.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_content_space', class: ContentSpaceMigration },
  { name: '0002_content_space_lifecycle', class: ContentSpaceLifecycleMigration },
  { name: '0003_sites', class: SitesMigration },
];
