import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { IntegrationsConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { serviceRouter } from './trpc.ts';

export const integrationsRouter = serviceRouter('integrations', ServiceOperations.integrations, {});

/** Integrations, publishing and installations (the HTTP operations arrive with the integrations work). */
export const integrationsService: ServiceDefinition<IntegrationsConfig> = {
  name: 'integrations',
  schema: 'integrations',
  entities: [],
  migrations,
  router: integrationsRouter,
};
