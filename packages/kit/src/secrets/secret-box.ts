import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { intSetting } from '../config.ts';

const INFO = 'quire/integration-secrets/v1';
const FORMAT = 'v1';

interface Key {
  id: string;
  bytes: Buffer;
}

function deriveKey(secret: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), INFO, 32));
  // The key id names the derived key without revealing it: a hash of it under another label.
  const id = createHash('sha256').update('quire/integration-secrets/key-id').update(bytes).digest('hex').slice(0, 16);
  return { id, bytes };
}

/**
 * AES-256-GCM over secrets kept at rest (integration secrets, sites' publishing-auth keys), with a key derived
 * by HKDF-SHA256 from a configured secret (its HKDF label still says where it was first used: the same key keeps
 * opening what was sealed before). Each use seals under its own `aad` (`integration:<name>`, `site:<id>`…), so a
 * ciphertext copied from one row to another does not open.
 * A ciphertext is `v1.<key id>.<iv>.<tag>.<data>` (base64url parts): the key id says which key sealed it,
 * so after a rotation the previous keys still open what they sealed until it is re-encrypted.
 */
export class SecretBox {
  readonly #current: Key | undefined;
  readonly #keys: Map<string, Key>;
  readonly #first: Key;

  /** `current` undefined: the box opens what `previous` sealed, and refuses to seal (503 naming the setting). */
  constructor(current: string | undefined, previous: readonly string[] = []) {
    this.#current = current === undefined ? undefined : deriveKey(current);
    const keys = [...(this.#current ? [this.#current] : []), ...previous.map(deriveKey)];
    if (!keys.length) throw new Error('a secret box needs a key');
    this.#first = keys[0]!;
    this.#keys = new Map(keys.map((k) => [k.id, k]));
  }

  /** Id of the key new ciphertexts are sealed with (without one, of the first key that opens: nothing to re-seal). */
  get keyId(): string {
    return (this.#current ?? this.#first).id;
  }

  /** Whether the box can seal (a current key is configured). */
  get canSeal(): boolean {
    return this.#current !== undefined;
  }

  /** The key id a ciphertext was sealed with (null when it is not one of ours). */
  static keyIdOf(sealed: string): string | null {
    const parts = sealed.split('.');
    return parts.length === 5 && parts[0] === FORMAT ? parts[1]! : null;
  }

  seal(plaintext: string, aad: string): string {
    if (!this.#current)
      throw new DomainError(
        'unavailable',
        'Storing secrets is turned off on this instance: its administrator must set QUIRE_SECRETS_KEY',
      );
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.bytes, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      FORMAT,
      this.#current.id,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  /** The plaintext of `sealed`; throws when its key is unknown or it was tampered with (or sealed for another `aad`). */
  open(sealed: string, aad: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT) throw new Error('not a sealed secret');
    const [, kid, iv, tag, data] = parts as [string, string, string, string, string];
    const key = this.#keys.get(kid);
    if (!key)
      throw new Error(`secret sealed with an unknown key (${kid}): add its secret to QUIRE_SECRETS_PREVIOUS_KEYS`);
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether `sealed` could be opened with one of the configured keys. */
  canOpen(sealed: string): boolean {
    const kid = SecretBox.keyIdOf(sealed);
    return kid !== null && this.#keys.has(kid);
  }
}

/** The settings of the secret box, in the environment of every service that seals secrets. */
export const SecretsEnvShape = {
  QUIRE_SECRETS_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'Secret the key encrypting secrets at rest is derived from (HKDF-SHA256). Required to store secrets (`quire start` generates one in its data directory); never derived from QUIRE_INTERNAL_SECRET, which only still opens what was sealed with it before',
    ),
  QUIRE_SECRETS_PREVIOUS_KEYS: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : [],
    )
    .pipe(z.array(z.string().min(32, 'each previous key must be at least 32 characters')))
    .describe(
      'Comma-separated previous values of QUIRE_SECRETS_KEY: still decrypt, and are re-encrypted under the current key',
    ),
  QUIRE_SECRETS_ROTATE_EVERY_MS: intSetting(
    { min: 100, default: 3_600_000 },
    'How often the job re-encrypting secrets under the current key runs (default hourly, and at start)',
  ),
};

/**
 * The secret box of a configuration: sealing with QUIRE_SECRETS_KEY only. The previous keys, and the internal
 * secret (which earlier versions sealed with when QUIRE_SECRETS_KEY was unset), still open what they sealed: the
 * services' re-seal jobs move it under QUIRE_SECRETS_KEY at start and hourly. The internal secret signs actor
 * headers and download links; it never seals anything new. Without QUIRE_SECRETS_KEY nothing can be sealed.
 */
export const secretBoxOf = (config: {
  QUIRE_SECRETS_KEY?: string | undefined;
  QUIRE_INTERNAL_SECRET: string;
  QUIRE_SECRETS_PREVIOUS_KEYS: string[];
}) => new SecretBox(config.QUIRE_SECRETS_KEY, [...config.QUIRE_SECRETS_PREVIOUS_KEYS, config.QUIRE_INTERNAL_SECRET]);
