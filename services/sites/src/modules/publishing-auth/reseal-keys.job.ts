import type { EntityManager, JobDefinition, ServiceDeps } from '@quire/kit';
import { publishingKeyResealer } from '../../commands/publishing-auth-commands.ts';
import type { SitesConfig } from '../../env.ts';
import { keyBox, type KeyBoxConfig } from './private-key.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';

export const RESEAL_KEYS_JOB = 'sites-reseal-publishing-keys';

/** Re-seals under the current secrets key every site key sealed with a previous one, one site per transaction. */
export async function resealPublishingKeys(
  em: EntityManager,
  config: KeyBoxConfig,
): Promise<{ resealed: number; unknownKey: number }> {
  let resealed = 0;
  let unknownKey = 0;
  for (const siteId of await publishingAuthRepository.sealedWithOtherKey(em, keyBox(config).keyId)) {
    const outcome = await em.fork().transactional((tx) => publishingKeyResealer(tx, { siteId, config }));
    if (outcome === 'resealed') resealed++;
    if (outcome === 'unknown-key') unknownKey++;
  }
  return { resealed, unknownKey };
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a secrets-key rotation for the sites' keys. */
export function resealPublishingKeysJob(deps: ServiceDeps<SitesConfig>): JobDefinition {
  return {
    name: RESEAL_KEYS_JOB,
    everyMs: deps.config.QUIRE_SECRETS_ROTATE_EVERY_MS,
    maxAttempts: 5,
    run: async () => {
      const { resealed, unknownKey } = await resealPublishingKeys(deps.orm.em.fork(), deps.config);
      if (resealed) deps.log.info({ resealed }, 'site publishing keys re-encrypted under the current key');
      if (unknownKey)
        deps.log.warn(
          { unknownKey },
          'site publishing keys sealed with a key no longer configured: add it to QUIRE_SECRETS_PREVIOUS_KEYS',
        );
    },
  };
}
