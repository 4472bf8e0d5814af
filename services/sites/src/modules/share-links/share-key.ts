import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { newId, SecretBox, sha256Hex } from '@quire/kit';

/**
 * Share keys. GitBook shows a link's key in its `urls.published` (`…?share=<key>`), so the key must be
 * recoverable: a hash alone would not do. Each key is stored sealed by the kit's secret box (QUIRE_SECRETS_KEY,
 * see `sealedShareKeyBox`), plus its SHA-256 for lookups: a copy of the database alone neither shows the keys nor
 * opens the sites, while the API still shows each link's URL to the members who may read it.
 */
export interface ShareKeyBox {
  /** A new random key (base62, ~190 bits). */
  newKey(): string;
  hash(key: string): string;
  seal(key: string): string;
  open(sealed: string): string;
}

/** The additional data share keys are sealed with in the secret box. */
const AAD = 'share-link-key';

/**
 * Share keys sealed by the secrets box (`v1.<key id>.<iv>.<tag>.<data>`, QUIRE_SECRETS_KEY); the keys sealed
 * before (`v1.<data>`, under a key derived from the internal secret) still open, read-only, with `legacy`.
 */
export function sealedShareKeyBox(box: SecretBox, legacy: ShareKeyBox): ShareKeyBox {
  return {
    newKey: legacy.newKey,
    hash: legacy.hash,
    seal: (k) => box.seal(k, AAD),
    open: (sealed) => (SecretBox.keyIdOf(sealed) !== null ? box.open(sealed, AAD) : legacy.open(sealed)),
  };
}

/** The share keys of earlier versions: sealed under a key derived from a deployment secret (now read only). */
export function shareKeyBox(secret: string): ShareKeyBox {
  const key = Buffer.from(hkdfSync('sha256', secret, 'quire-sites', 'share-link-keys', 32));
  return {
    newKey: () => newId(32),
    hash: (k) => sha256Hex(`share-link:${k}`),
    seal(k) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(k, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown share key format');
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
