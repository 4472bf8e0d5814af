import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyHookSignature } from './git-hook.ts';

const secret = 'a-webhook-secret-of-some-length';
const body = Buffer.from('{"ref":"refs/heads/main","after":"abc"}');
const hex = (key: string, b: Uint8Array) => createHmac('sha256', key).update(b).digest('hex');

describe('verifyHookSignature', () => {
  it("accepts GitHub's, Gitea's and GitLab's styles signed with the secret", () => {
    expect(verifyHookSignature(secret, body, { hubSignature: `sha256=${hex(secret, body)}` })).toBe(true);
    expect(verifyHookSignature(secret, body, { giteaSignature: hex(secret, body) })).toBe(true);
    expect(verifyHookSignature(secret, body, { gitlabToken: secret })).toBe(true);
  });

  it('refuses another secret, another body, a malformed header and no header', () => {
    expect(verifyHookSignature(secret, body, { hubSignature: `sha256=${hex('other-secret-xxxxxxxx', body)}` })).toBe(
      false,
    );
    expect(verifyHookSignature(secret, body, { giteaSignature: hex(secret, Buffer.from('{}')) })).toBe(false);
    expect(verifyHookSignature(secret, body, { hubSignature: hex(secret, body) })).toBe(false);
    expect(verifyHookSignature(secret, body, { hubSignature: 'sha256=zz' })).toBe(false);
    expect(verifyHookSignature(secret, body, { gitlabToken: `${secret}x` })).toBe(false);
    expect(verifyHookSignature(secret, body, {})).toBe(false);
  });

  it('reads the GitHub header first: a valid Gitea one does not save a bad GitHub one', () => {
    expect(
      verifyHookSignature(secret, body, {
        hubSignature: `sha256=${'0'.repeat(64)}`,
        giteaSignature: hex(secret, body),
      }),
    ).toBe(false);
  });
});
