import { describe, expect, it } from 'vitest';
import { shareKeyBox } from './share-key.ts';

describe('share keys', () => {
  const box = shareKeyBox('a-deployment-secret-of-at-least-32-chars');

  it('seals a key so that only the deployment secret opens it, and hashes it for lookups', () => {
    const key = box.newKey();
    expect(key).toMatch(/^[0-9A-Za-z]{32}$/);
    const sealed = box.seal(key);
    expect(sealed).not.toContain(key);
    expect(box.seal(key)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(key);
    expect(box.hash(key)).toBe(box.hash(key));
    expect(box.hash(key)).not.toBe(box.hash(box.newKey()));
    expect(() => shareKeyBox('another-deployment-secret-of-32-chars!').open(sealed)).toThrow();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(tampered)).toThrow();
  });

  it('seals new keys with the secrets box; keys sealed before under the deployment secret still open', async () => {
    const { SecretBox } = await import('@quire/kit');
    const { sealedShareKeyBox } = await import('./share-key.ts');
    const legacySealed = box.seal('oldKey123');
    const sealed = sealedShareKeyBox(new SecretBox('s'.repeat(40)), box);
    const fresh = sealed.seal('newKey456');
    expect(SecretBox.keyIdOf(fresh)).toBe(new SecretBox('s'.repeat(40)).keyId);
    expect(sealed.open(fresh)).toBe('newKey456');
    expect(sealed.open(legacySealed)).toBe('oldKey123');
    expect(() => sealedShareKeyBox(new SecretBox('t'.repeat(40)), box).open(fresh)).toThrow(/unknown key/);
  });
});
