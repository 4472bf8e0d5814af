import { randomBytes } from 'node:crypto';
import { secretBoxOf, type SecretBox } from '@quire/kit';

/** The settings the key box is derived from (the kit's `SecretsEnvShape` and the internal secret). */
export interface KeyBoxConfig {
  QUIRE_SECRETS_KEY?: string | undefined;
  QUIRE_INTERNAL_SECRET: string;
  QUIRE_SECRETS_PREVIOUS_KEYS: string[];
}

const boxes = new WeakMap<KeyBoxConfig, SecretBox>();

/** The secret box of a configuration (one per configuration object). */
export function keyBox(config: KeyBoxConfig): SecretBox {
  let box = boxes.get(config);
  if (!box) boxes.set(config, (box = secretBoxOf(config)));
  return box;
}

/** The additional data a site's key is sealed with: a sealed key copied to another site's row does not open. */
const aad = (siteId: string) => `site-publishing-auth:${siteId}`;

/** A new signing key: 32 random bytes, base64url (43 characters). */
export const newPrivateKey = (): string => randomBytes(32).toString('base64url');

export const sealPrivateKey = (config: KeyBoxConfig, siteId: string, key: string): string =>
  keyBox(config).seal(key, aad(siteId));

/** The key in clear; throws when no configured secrets key opens it (or it was sealed for another site). */
export const openPrivateKey = (config: KeyBoxConfig, siteId: string, sealed: string): string =>
  keyBox(config).open(sealed, aad(siteId));

/** The key re-sealed under the current secrets key (after a rotation). */
export const resealPrivateKey = (config: KeyBoxConfig, siteId: string, sealed: string): string =>
  sealPrivateKey(config, siteId, openPrivateKey(config, siteId, sealed));
