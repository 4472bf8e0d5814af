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
});
