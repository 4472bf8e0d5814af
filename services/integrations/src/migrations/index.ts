import { IntegrationsMigration } from './0001-integrations.ts';
import { SpaceInstallationsMigration } from './0002-space-installations.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_integrations', class: IntegrationsMigration },
  { name: '0002_space_installations', class: SpaceInstallationsMigration },
];
