import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);

describe('SecretBox', () => {
  it('seals with AES-256-GCM under a key id and opens what it sealed', () => {
    const box = new SecretBox(OLD);
    const sealed = box.seal('{"k":"v"}', 'integration:a');
    expect(sealed).toMatch(new RegExp(`^v1\\.${box.keyId}\\.`));
    expect(box.open(sealed, 'integration:a')).toBe('{"k":"v"}');
    expect(box.seal('{"k":"v"}', 'integration:a')).not.toBe(sealed);
  });

  it('refuses a ciphertext moved to another integration or tampered with', () => {
    const box = new SecretBox(OLD);
    const sealed = box.seal('x', 'integration:a');
    expect(() => box.open(sealed, 'integration:b')).toThrow();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('y').toString('base64url');
    expect(() => box.open(parts.join('.'), 'integration:a')).toThrow();
  });

  it('rotation: the new key still opens what the previous one sealed, and not without it', () => {
    const sealed = new SecretBox(OLD).seal('x', 'integration:a');
    const rotated = new SecretBox(NEW, [OLD]);
    expect(rotated.canOpen(sealed)).toBe(true);
    expect(rotated.open(sealed, 'integration:a')).toBe('x');
    expect(new SecretBox(NEW).canOpen(sealed)).toBe(false);
    expect(() => new SecretBox(NEW).open(sealed, 'integration:a')).toThrow(/unknown key/);
  });
});

describe('secretBoxOf', () => {
  const INTERNAL = 'i'.repeat(40);

  /** A secret the internal secret sealed (before QUIRE_SECRETS_KEY), and the box of the settings with this key. */
  const withLegacySecret = async (secretsKey: string | undefined) => {
    const { secretBoxOf } = await import('./secret-box.ts');
    const legacy = new SecretBox(INTERNAL).seal('old', 'integration:a');
    const box = secretBoxOf({
      QUIRE_SECRETS_KEY: secretsKey,
      QUIRE_INTERNAL_SECRET: INTERNAL,
      QUIRE_SECRETS_PREVIOUS_KEYS: [],
    });
    return { legacy, box };
  };

  it('seals with QUIRE_SECRETS_KEY only; the internal secret still opens what it sealed before, to be re-sealed', async () => {
    const { legacy, box } = await withLegacySecret(NEW);
    expect(box.keyId).toBe(new SecretBox(NEW).keyId);
    expect(box.keyId).not.toBe(SecretBox.keyIdOf(legacy));
    expect(box.open(legacy, 'integration:a')).toBe('old');
    expect(SecretBox.keyIdOf(box.seal('new', 'integration:a'))).toBe(new SecretBox(NEW).keyId);
  });

  it('without QUIRE_SECRETS_KEY opens what the internal secret sealed, and refuses to seal (503 naming the setting)', async () => {
    const { legacy, box } = await withLegacySecret(undefined);
    expect(box.canSeal).toBe(false);
    expect(box.open(legacy, 'integration:a')).toBe('old');
    // Nothing to re-seal: what it holds is under the key it reports.
    expect(box.keyId).toBe(SecretBox.keyIdOf(legacy));
    expect(() => box.seal('x', 'integration:a')).toThrow(
      expect.objectContaining({ reason: 'unavailable', message: expect.stringMatching(/QUIRE_SECRETS_KEY/) }),
    );
  });
});
