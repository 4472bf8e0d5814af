import { SecretBox, type EntityManager } from '@quire/kit';
import type { ISitePublishingAuth } from '../modules/publishing-auth/publishing-auth.entity.ts';
import {
  keyBox,
  newPrivateKey,
  resealPrivateKey,
  sealPrivateKey,
  type KeyBoxConfig,
} from '../modules/publishing-auth/private-key.ts';
import { publishingAuthRepository } from '../modules/publishing-auth/publishing-auth.repository.ts';
import type { ISite } from '../modules/sites/site.entity.ts';

/**
 * The site's publishing auth, made on first use with a new random key (sealed): one statement, so two first
 * uses racing keep the same key. Safe outside a transaction (a GET makes it the first time it is read).
 */
export async function publishingAuthInitializer(
  em: EntityManager,
  props: { site: ISite; config: KeyBoxConfig; now?: Date },
): Promise<ISitePublishingAuth> {
  const existing = await publishingAuthRepository.find(em, props.site.id);
  if (existing) return existing;
  const privateKeySealed = sealPrivateKey(props.config, props.site.id, newPrivateKey());
  return publishingAuthRepository.insertIfAbsent(em, {
    siteId: props.site.id,
    privateKeySealed,
    now: props.now ?? new Date(),
  });
}

/** Sets the backend and, when given, the sign-in (fallback) and sign-out URLs (null unsets one). */
export function publishingAuthUpdater(
  em: EntityManager,
  props: {
    auth: ISitePublishingAuth;
    backend: 'custom' | 'integration';
    fallbackURL?: string | null | undefined;
    logoutURL?: string | null | undefined;
    now?: Date;
  },
): ISitePublishingAuth {
  const { auth } = props;
  auth.backend = props.backend;
  if (props.fallbackURL !== undefined) auth.fallbackUrl = props.fallbackURL;
  if (props.logoutURL !== undefined) auth.logoutUrl = props.logoutURL;
  auth.updatedAt = props.now ?? new Date();
  em.persist(auth);
  return auth;
}

/** Replaces the signing key with a new random one: visitor tokens signed with the old key stop opening the site. */
export function publishingAuthKeyRegenerator(
  em: EntityManager,
  props: { auth: ISitePublishingAuth; config: KeyBoxConfig; now?: Date },
): ISitePublishingAuth {
  const { auth } = props;
  auth.privateKeySealed = sealPrivateKey(props.config, auth.siteId, newPrivateKey());
  auth.updatedAt = props.now ?? new Date();
  em.persist(auth);
  return auth;
}

/**
 * Re-seals one site's key under the current secrets key (after a rotation): 'resealed', 'current' when it
 * already is (or is gone), 'unknown-key' when no configured key opens it (left as it is).
 */
export async function publishingKeyResealer(
  em: EntityManager,
  { siteId, config }: { siteId: string; config: KeyBoxConfig },
): Promise<'resealed' | 'current' | 'unknown-key'> {
  const sealed = await publishingAuthRepository.lockSealed(em, siteId);
  const box = keyBox(config);
  if (sealed === null || SecretBox.keyIdOf(sealed) === box.keyId) return 'current';
  if (!box.canOpen(sealed)) return 'unknown-key';
  await publishingAuthRepository.updateSealed(em, siteId, resealPrivateKey(config, siteId, sealed));
  return 'resealed';
}
