import { ServiceOperations } from '@quire/contracts';
import type { ServiceDefinition } from '@quire/kit';
import type { ContentConfig } from './env.ts';
import { migrations } from './migrations/index.ts';
import { Revision, Space } from './modules/spaces/space.entity.ts';
import { spaceProcedures } from './modules/spaces/spaces.router.ts';
import { serviceRouter, type ContentContext } from './trpc.ts';

export const contentRouter = serviceRouter('content', ServiceOperations.content, { ...spaceProcedures });

/** Spaces and their content. */
export const contentService: ServiceDefinition<ContentConfig, ContentContext> = {
  name: 'content',
  schema: 'content',
  entities: [Space, Revision],
  migrations,
  router: contentRouter,
  context: (base, deps) => ({ ...base, em: deps.orm.em.fork(), config: deps.config }),
};
