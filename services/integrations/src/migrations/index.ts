import { IntegrationsMigration } from './0001-integrations.ts';
import { ContentInstallationsMigration } from './0002-content-installations.ts';

/** Committed migrations, applied in order at start. Never edit one that has shipped: add the next. */
export const migrations = [
  { name: '0001_integrations', class: IntegrationsMigration },
  { name: '0002_content_installations', class: ContentInstallationsMigration },
];
