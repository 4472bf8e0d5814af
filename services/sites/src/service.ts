import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { SitesConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { ContentSpace } from './modules/spaces/content-space.entity.ts';
import { spaceEventsConsumer } from './modules/spaces/space-events.consumer.ts';
import { serviceRouter } from './trpc.ts';

export const sitesRouter = serviceRouter('sites', ServiceOperations.sites, {});

/** Sites, sections, site spaces and share links (the HTTP operations arrive with the sites work). */
export const sitesService: ServiceDefinition<SitesConfig> = {
  name: 'sites',
  schema: 'sites',
  entities: [ContentSpace],
  migrations,
  router: sitesRouter,
  consumers: ({ orm }) => [spaceEventsConsumer(orm)],
};
