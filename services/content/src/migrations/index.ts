import { SpacesMigration } from './0001-spaces.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [{ name: '0001_spaces', class: SpacesMigration }];
