import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobDefinition } from '../jobs/job.ts';
import type { Logger } from '../logger.ts';

/** What a pass of a secrets-key rotation did: secrets re-encrypted, and secrets no configured key opens. */
export interface ResealCounts {
  resealed: number;
  unknownKey: number;
}

/**
 * Reseals each item in a transaction of its own (`reseal` answers what became of its secrets: `current` when they
 * already were under the current key or are gone) and counts the outcomes.
 */
export async function resealEach<T>(
  em: EntityManager,
  items: Iterable<T>,
  reseal: (tx: EntityManager, item: T) => Promise<'resealed' | 'current' | 'unknown-key'>,
): Promise<ResealCounts> {
  let resealed = 0;
  let unknownKey = 0;
  for (const item of items) {
    const outcome = await em.fork().transactional((tx) => reseal(tx, item));
    if (outcome === 'resealed') resealed++;
    if (outcome === 'unknown-key') unknownKey++;
  }
  return { resealed, unknownKey };
}

/**
 * The job completing a secrets-key rotation for `what` (e.g. `integration secrets`): at start and every
 * `QUIRE_SECRETS_ROTATE_EVERY_MS`, `reseal` runs one pass, and the job logs what it did.
 */
export function resealJob(
  deps: { config: { QUIRE_SECRETS_ROTATE_EVERY_MS: number }; log: Logger },
  opts: { name: string; what: string; reseal: () => Promise<ResealCounts> },
): JobDefinition {
  return {
    name: opts.name,
    everyMs: deps.config.QUIRE_SECRETS_ROTATE_EVERY_MS,
    maxAttempts: 5,
    run: async () => {
      const { resealed, unknownKey } = await opts.reseal();
      if (resealed) deps.log.info({ resealed }, `${opts.what} re-encrypted under the current key`);
      if (unknownKey)
        deps.log.warn(
          { unknownKey },
          `${opts.what} sealed with a key no longer configured: add it to QUIRE_SECRETS_PREVIOUS_KEYS`,
        );
    },
  };
}
