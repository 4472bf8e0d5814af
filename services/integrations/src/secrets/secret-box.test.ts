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
