import { LockMode } from '@mikro-orm/core';
import { invalid, newId, SecretBox, secretBoxOf, type EntityManager } from '@quire/kit';
import type { OrgAdminConfig } from '../env.ts';
import { OidcProvider, type IOidcProvider } from '../modules/oidc/oidc-provider.entity.ts';
import { ssoDefaultsSetter, type SsoDefaults } from './sso-member-provisioner.ts';

export interface OidcSettings extends SsoDefaults {
  label?: string | undefined;
  issuer?: string | undefined;
  clientId?: string | undefined;
  /** Sealed before it is stored; null: a public client (PKCE only). */
  clientSecret?: string | null | undefined;
  scopes?: string[] | undefined;
}

/** `openid` and `email` first, then the others once each. */
const scopesOf = (scopes: string[]) => [...new Set(['openid', 'email', ...scopes])].join(' ');

async function applySettings(
  em: EntityManager,
  config: OrgAdminConfig,
  p: IOidcProvider,
  input: OidcSettings,
): Promise<IOidcProvider> {
  if (input.label !== undefined) p.label = input.label;
  if (input.issuer !== undefined) {
    // Plain http leaks the code and the tokens: only where private fetches are allowed (development, tests).
    if (new URL(input.issuer).protocol !== 'https:' && !config.QUIRE_ALLOW_PRIVATE_FETCH)
      throw invalid('Invalid request: issuer: must be an https URL (http only with QUIRE_ALLOW_PRIVATE_FETCH=1)');
    p.issuer = input.issuer;
  }
  if (input.clientId !== undefined) p.clientId = input.clientId;
  if (input.clientSecret !== undefined)
    p.clientSecret = input.clientSecret === null ? null : secretBoxOf(config).seal(input.clientSecret, `oidc:${p.id}`);
  if (input.scopes !== undefined) p.scopes = scopesOf(input.scopes);
  await ssoDefaultsSetter(em, p, input);
  p.updatedAt = new Date();
  em.persist(p);
  return p;
}

export function oidcProviderCreator(
  em: EntityManager,
  config: OrgAdminConfig,
  props: OidcSettings & { organizationId: string; label: string; issuer: string; clientId: string },
): Promise<IOidcProvider> {
  const now = new Date();
  const provider = em.create(OidcProvider, {
    id: newId(),
    organizationId: props.organizationId,
    label: props.label,
    issuer: props.issuer,
    clientId: props.clientId,
    clientSecret: null,
    scopes: scopesOf(['profile']),
    defaultTeamId: null,
    defaultRole: null,
    createdAt: now,
    updatedAt: now,
  });
  return applySettings(em, config, provider, props);
}

export function oidcProviderUpdater(
  em: EntityManager,
  config: OrgAdminConfig,
  props: OidcSettings & { provider: IOidcProvider },
): Promise<IOidcProvider> {
  return applySettings(em, config, props.provider, props);
}

export function oidcProviderDeleter(em: EntityManager, { provider }: { provider: IOidcProvider }): void {
  em.remove(provider);
}

/**
 * Re-seals one provider's client secret under the current secrets key (after a rotation): 'resealed', 'current'
 * when it already is (or is gone), 'unknown-key' when no configured key opens it (left as it is).
 */
export async function oidcSecretResealer(
  em: EntityManager,
  { providerId, config }: { providerId: string; config: OrgAdminConfig },
): Promise<'resealed' | 'current' | 'unknown-key'> {
  const provider = await em.findOne(OidcProvider, { id: providerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const box = secretBoxOf(config);
  const sealed = provider?.clientSecret;
  if (!provider || !sealed || SecretBox.keyIdOf(sealed) === box.keyId || !box.canSeal) return 'current';
  if (!box.canOpen(sealed)) return 'unknown-key';
  provider.clientSecret = box.seal(box.open(sealed, `oidc:${provider.id}`), `oidc:${provider.id}`);
  return 'resealed';
}
