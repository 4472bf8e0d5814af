import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

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
 * AES-256-GCM over integration secrets, with a key derived by HKDF-SHA256 from a configured secret.
 * A ciphertext is `v1.<key id>.<iv>.<tag>.<data>` (base64url parts): the key id says which key sealed it,
 * so after a rotation the previous keys still open what they sealed until it is re-encrypted.
 */
export class SecretBox {
  readonly #current: Key;
  readonly #keys: Map<string, Key>;

  constructor(current: string, previous: readonly string[] = []) {
    this.#current = deriveKey(current);
    this.#keys = new Map([this.#current, ...previous.map(deriveKey)].map((k) => [k.id, k]));
  }

  /** Id of the key new ciphertexts are sealed with. */
  get keyId(): string {
    return this.#current.id;
  }

  /** The key id a ciphertext was sealed with (null when it is not one of ours). */
  static keyIdOf(sealed: string): string | null {
    const parts = sealed.split('.');
    return parts.length === 5 && parts[0] === FORMAT ? parts[1]! : null;
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.bytes, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.#current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** The plaintext of `sealed`; throws when its key is unknown or it was tampered with (or sealed for another `aad`). */
  open(sealed: string, aad: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== FORMAT) throw new Error('not a sealed secret');
    const [, kid, iv, tag, data] = parts as [string, string, string, string, string];
    const key = this.#keys.get(kid);
    if (!key) throw new Error(`secret sealed with an unknown key (${kid}): add its secret to QUIRE_SECRETS_PREVIOUS_KEYS`);
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

/** The secret box of a configuration: QUIRE_SECRETS_KEY, else QUIRE_INTERNAL_SECRET. */
export const secretBoxOf = (config: { QUIRE_SECRETS_KEY?: string | undefined; QUIRE_INTERNAL_SECRET: string; QUIRE_SECRETS_PREVIOUS_KEYS: string[] }) =>
  new SecretBox(config.QUIRE_SECRETS_KEY ?? config.QUIRE_INTERNAL_SECRET, config.QUIRE_SECRETS_PREVIOUS_KEYS);
