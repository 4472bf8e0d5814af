import type { JobDefinition, ServiceDeps } from '@quire/kit';
import { purgeDeletedSpaces } from '../commands/space-trash.ts';
import type { ContentConfig } from '../env.ts';

export const PURGE_JOB = 'content-purge-spaces';

/** Every `QUIRE_PURGE_EVERY_MS` (and at start): removes the spaces deleted more than 7 days ago, with `space.purged`. */
export function purgeDeletedSpacesJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  return {
    name: PURGE_JOB,
    everyMs: deps.config.QUIRE_PURGE_EVERY_MS,
    maxAttempts: 5,
    run: async () => {
      const purged = await purgeDeletedSpaces(deps.orm.em.fork());
      if (purged.length) deps.log.info({ purged: purged.length }, 'purged deleted spaces');
    },
  };
}
