import {
  resealEach,
  resealJob,
  type EntityManager,
  type JobDefinition,
  type ResealCounts,
  type ServiceDeps,
} from '@quire/kit';
import { publishingKeyResealer } from '../../commands/publishing-auth-commands.ts';
import type { SitesConfig } from '../../env.ts';
import { keyBox, type KeyBoxConfig } from './private-key.ts';
import { publishingAuthRepository } from './publishing-auth.repository.ts';

export const RESEAL_KEYS_JOB = 'sites-reseal-publishing-keys';

/** Re-seals under the current secrets key every site key sealed with a previous one, one site per transaction. */
export async function resealPublishingKeys(em: EntityManager, config: KeyBoxConfig): Promise<ResealCounts> {
  const siteIds = await publishingAuthRepository.sealedWithOtherKey(em, keyBox(config).keyId);
  return resealEach(em, siteIds, (tx, siteId) => publishingKeyResealer(tx, { siteId, config }));
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a secrets-key rotation for the sites' keys. */
export function resealPublishingKeysJob(deps: ServiceDeps<SitesConfig>): JobDefinition {
  return resealJob(deps, {
    name: RESEAL_KEYS_JOB,
    what: 'site publishing keys',
    reseal: () => resealPublishingKeys(deps.orm.em.fork(), deps.config),
  });
}
