import { SecretBox, secretBoxOf, type EntityManager, type JobDefinition, type ServiceDeps } from '@quire/kit';
import { oidcSecretResealer } from '../../commands/oidc-provider-writer.ts';
import type { OrgAdminConfig } from '../../env.ts';
import { OidcProvider } from './oidc-provider.entity.ts';

export const RESEAL_OIDC_SECRETS_JOB = 'org-admin-reseal-oidc-secrets';

/** Re-seals under the current secrets key every OIDC client secret sealed with a previous one, one per transaction. */
export async function resealOidcSecrets(
  em: EntityManager,
  config: OrgAdminConfig,
): Promise<{ resealed: number; unknownKey: number }> {
  const box = secretBoxOf(config);
  let resealed = 0;
  let unknownKey = 0;
  if (!box.canSeal) return { resealed, unknownKey };
  const providers = await em.find(OidcProvider, { clientSecret: { $ne: null } }, { fields: ['id', 'clientSecret'] });
  for (const { id, clientSecret } of providers) {
    if (!clientSecret || SecretBox.keyIdOf(clientSecret) === box.keyId) continue;
    const outcome = await em.fork().transactional((tx) => oidcSecretResealer(tx, { providerId: id, config }));
    if (outcome === 'resealed') resealed++;
    if (outcome === 'unknown-key') unknownKey++;
  }
  return { resealed, unknownKey };
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a secrets-key rotation for OIDC client secrets. */
export function resealOidcSecretsJob(deps: Pick<ServiceDeps<OrgAdminConfig>, 'orm' | 'config' | 'log'>): JobDefinition {
  return {
    name: RESEAL_OIDC_SECRETS_JOB,
    everyMs: deps.config.QUIRE_SECRETS_ROTATE_EVERY_MS,
    maxAttempts: 5,
    run: async () => {
      const { resealed, unknownKey } = await resealOidcSecrets(deps.orm.em.fork(), deps.config);
      if (resealed) deps.log.info({ resealed }, 'OIDC client secrets re-encrypted under the current key');
      if (unknownKey)
        deps.log.warn(
          { unknownKey },
          'OIDC client secrets sealed with a key no longer configured: add it to QUIRE_SECRETS_PREVIOUS_KEYS',
        );
    },
  };
}
