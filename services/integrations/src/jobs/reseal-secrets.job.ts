import {
  resealEach,
  resealJob,
  type SecretBox,
  secretBoxOf,
  type EntityManager,
  type JobDefinition,
  type ResealCounts,
  type ServiceDeps,
} from '@quire/kit';
import { secretsResealer } from '../commands/secrets-resealer.ts';
import type { IntegrationsConfig } from '../env.ts';
import { integrationRepository } from '../modules/integrations/integration.repository.ts';

export const RESEAL_JOB = 'integrations-reseal-secrets';

/** Re-encrypts under the current key every secret sealed with a previous one, one integration per transaction. */
export async function resealSecrets(em: EntityManager, box: SecretBox): Promise<ResealCounts> {
  const names = await integrationRepository.sealedWithOtherKey(em, box.keyId);
  return resealEach(em, names, (tx, name) => secretsResealer(tx, { name, box }));
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a key rotation (README, "Rotating the secrets key"). */
export function resealSecretsJob(deps: ServiceDeps<IntegrationsConfig>): JobDefinition {
  const box = secretBoxOf(deps.config);
  return resealJob(deps, {
    name: RESEAL_JOB,
    what: 'integration secrets',
    reseal: () => resealSecrets(deps.orm.em.fork(), box),
  });
}
