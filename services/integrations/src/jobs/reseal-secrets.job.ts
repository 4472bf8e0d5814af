import { type SecretBox, secretBoxOf, type EntityManager, type JobDefinition, type ServiceDeps } from '@quire/kit';
import { secretsResealer } from '../commands/secrets-resealer.ts';
import type { IntegrationsConfig } from '../env.ts';
import { integrationRepository } from '../modules/integrations/integration.repository.ts';

export const RESEAL_JOB = 'integrations-reseal-secrets';

/** Re-encrypts under the current key every secret sealed with a previous one, one integration per transaction. */
export async function resealSecrets(
  em: EntityManager,
  box: SecretBox,
): Promise<{ resealed: number; unknownKey: number }> {
  let resealed = 0;
  let unknownKey = 0;
  for (const name of await integrationRepository.sealedWithOtherKey(em, box.keyId)) {
    const outcome = await em.fork().transactional((tx) => secretsResealer(tx, { name, box }));
    if (outcome === 'resealed') resealed++;
    if (outcome === 'unknown-key') unknownKey++;
  }
  return { resealed, unknownKey };
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a key rotation (README, "Rotating the secrets key"). */
export function resealSecretsJob(deps: ServiceDeps<IntegrationsConfig>): JobDefinition {
  const box = secretBoxOf(deps.config);
  return {
    name: RESEAL_JOB,
    everyMs: deps.config.QUIRE_SECRETS_ROTATE_EVERY_MS,
    maxAttempts: 5,
    run: async () => {
      const { resealed, unknownKey } = await resealSecrets(deps.orm.em.fork(), box);
      if (resealed) deps.log.info({ resealed }, 'integration secrets re-encrypted under the current key');
      if (unknownKey)
        deps.log.warn(
          { unknownKey },
          'integration secrets sealed with a key no longer configured: add it to QUIRE_SECRETS_PREVIOUS_KEYS',
        );
    },
  };
}
