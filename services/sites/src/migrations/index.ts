import { ContentSpaceMigration } from './0001-content-space.ts';

export const migrations = [{ name: '0001_content_space', class: ContentSpaceMigration }];
