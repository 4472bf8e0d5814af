import {
  resealEach,
  resealJob,
  SecretBox,
  secretBoxOf,
  type EntityManager,
  type JobDefinition,
  type ResealCounts,
  type ServiceDeps,
} from '@quire/kit';
import { oidcSecretResealer } from '../../commands/oidc-provider-writer.ts';
import type { OrgAdminConfig } from '../../env.ts';
import { OidcProvider } from './oidc-provider.entity.ts';

export const RESEAL_OIDC_SECRETS_JOB = 'org-admin-reseal-oidc-secrets';

/** Re-seals under the current secrets key every OIDC client secret sealed with a previous one, one per transaction. */
export async function resealOidcSecrets(em: EntityManager, config: OrgAdminConfig): Promise<ResealCounts> {
  const box = secretBoxOf(config);
  if (!box.canSeal) return { resealed: 0, unknownKey: 0 };
  const providers = await em.find(OidcProvider, { clientSecret: { $ne: null } }, { fields: ['id', 'clientSecret'] });
  const sealedWithOtherKey = providers.filter((p) => p.clientSecret && SecretBox.keyIdOf(p.clientSecret) !== box.keyId);
  return resealEach(em, sealedWithOtherKey, (tx, { id }) => oidcSecretResealer(tx, { providerId: id, config }));
}

/** At start and every `QUIRE_SECRETS_ROTATE_EVERY_MS`: completes a secrets-key rotation for OIDC client secrets. */
export function resealOidcSecretsJob(deps: Pick<ServiceDeps<OrgAdminConfig>, 'orm' | 'config' | 'log'>): JobDefinition {
  return resealJob(deps, {
    name: RESEAL_OIDC_SECRETS_JOB,
    what: 'OIDC client secrets',
    reseal: () => resealOidcSecrets(deps.orm.em.fork(), deps.config),
  });
}
