import type { EntityManager, JobDefinition, ServiceDeps } from '@quire/kit';
import { deletedCollectionPurger } from '../commands/collection-restorer.ts';
import { deletedSpacePurger } from '../commands/space-trash.ts';
import type { ContentConfig } from '../env.ts';

export const PURGE_JOB = 'content-purge-spaces';

/**
 * The purge: removes for good every space deleted more than 7 days before `now`, a batch per transaction,
 * each space with its `space.purged` event in its batch's transaction. Idempotent (a purged space is gone;
 * concurrent purges skip each other's rows). Returns the ids of the spaces purged. The collections deleted more
 * than 7 days ago leave the trash of collections too.
 */
export async function purgeDeletedSpaces(em: EntityManager, now = new Date(), batch = 100): Promise<string[]> {
  const purged: string[] = [];
  for (;;) {
    const ids = await em.fork().transactional((tx) => deletedSpacePurger(tx, { now, limit: batch }));
    purged.push(...ids);
    if (ids.length < batch) break;
  }
  // the trash of collections too (no event: nothing outside the trash refers to a deleted collection)
  for (;;) {
    const ids = await em.fork().transactional((tx) => deletedCollectionPurger(tx, { now, limit: batch }));
    if (ids.length < batch) return purged;
  }
}

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
