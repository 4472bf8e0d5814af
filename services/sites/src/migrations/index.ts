import { ContentSpaceMigration } from './0001-content-space.ts';
import { ContentSpaceLifecycleMigration } from './0002-content-space-lifecycle.ts';

export const migrations = [
  { name: '0001_content_space', class: ContentSpaceMigration },
  { name: '0002_content_space_lifecycle', class: ContentSpaceLifecycleMigration },
];
