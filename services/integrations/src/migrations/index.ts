import { IntegrationsMigration } from './0001-integrations.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [{ name: '0001_integrations', class: IntegrationsMigration }];
