import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { IntegrationsConfig } from './env.ts';
import { resealSecretsJob } from './jobs/reseal-secrets.job.ts';
import { migrations } from './migrations/index.ts';
import { Installation } from './modules/installations/installation.entity.ts';
import { installationProcedures } from './modules/installations/installations.router.ts';
import { siteEventsConsumer, spaceEventsConsumer } from './modules/installations/content-events.consumer.ts';
import { ContentInstallation } from './modules/installations/content-installation.entity.ts';
import {
  siteInstallationProcedures,
  spaceInstallationProcedures,
} from './modules/installations/content-installations.router.ts';
import { installedIntegrationProcedures } from './modules/integrations/installed-integrations.router.ts';
import { Integration, IntegrationVersion } from './modules/integrations/integration.entity.ts';
import { integrationProcedures } from './modules/integrations/integrations.router.ts';
import { renderProcedures } from './modules/render/render.router.ts';
import { organizationEventsConsumer } from './modules/organizations/organization-events.consumer.ts';
import { serviceRouter } from './trpc.ts';

export const integrationsRouter = serviceRouter('integrations', ServiceOperations.integrations, {
  ...integrationProcedures,
  ...installationProcedures,
  ...spaceInstallationProcedures,
  ...siteInstallationProcedures,
  ...installedIntegrationProcedures,
  ...renderProcedures,
});

/** Integrations: publishing (versions, images, encrypted secrets), the marketplace list, installations (in organizations, on spaces and sites). */
export const integrationsService: ServiceDefinition<IntegrationsConfig> = {
  name: 'integrations',
  schema: 'integrations',
  entities: [Integration, IntegrationVersion, Installation, ContentInstallation],
  migrations,
  router: integrationsRouter,
  consumers: ({ orm }) => [organizationEventsConsumer(orm), spaceEventsConsumer(orm), siteEventsConsumer(orm)],
  jobs: (deps) => [resealSecretsJob(deps)],
};
