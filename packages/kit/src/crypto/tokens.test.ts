import { hkdfSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens.ts';

const SECRET = 'token-test-secret-0123456789abcdefgh';
const now = Date.UTC(2026, 0, 1);
const keyOf = (purpose: string) => new Uint8Array(hkdfSync('sha256', SECRET, 'quire', `quire/token/${purpose}/v1`, 32));

describe('TokenSigner', () => {
  const signer = new TokenSigner<{ v: string }>(SECRET, 'session');

  it('signs an HS256 JWT with the purpose as audience and the expiry in seconds, which verifies back', async () => {
    const token = await signer.sign({ v: 'x' }, now + 90_500);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]{43}$/);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256' });
    expect(decodeJwt(token)).toEqual({ v: 'x', aud: 'quire:session', exp: now / 1000 + 90 });
    expect(await signer.verify(token, now)).toEqual({ v: 'x', aud: 'quire:session', exp: now / 1000 + 90 });
    // Another signer with the same secret (another process of the deployment) agrees.
    expect(await new TokenSigner(SECRET, 'session').verify(token, now)).toMatchObject({ v: 'x' });
  });

  it('is valid until its expiry, expired from it on', async () => {
    const token = await signer.sign({ v: 'x' }, now + 5_000);
    expect(await signer.verify(token, now + 4_999)).toMatchObject({ v: 'x' });
    expect(await signer.verify(token, now + 5_000)).toBe('expired');
  });

  it('refuses a token altered in any character', async () => {
    const token = await signer.sign({ v: 'hello' }, now + 60_000);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      for (const step of [1, 32]) {
        const swapped = alphabet[(alphabet.indexOf(token[i]!) + step) % alphabet.length]!;
        expect(await signer.verify(token.slice(0, i) + swapped + token.slice(i + 1), now), `char ${i}`).toBe('invalid');
      }
    }
    for (const bad of ['', '.', '..', 'not a token', `${token}.x`, `${token}A`, token.slice(0, -1)])
      expect(await signer.verify(bad, now)).toBe('invalid');
  });

  it('refuses a token of another purpose, even re-signed with the right audience by a key of that purpose', async () => {
    const download = new TokenSigner<{ v: string }>(SECRET, 'download');
    expect(await signer.verify(await download.sign({ v: 'x' }, now + 60_000), now)).toBe('invalid');
    // The audience alone also keeps purposes apart: a token signed with the session key for another audience.
    const otherAudience = await new SignJWT({ v: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('quire:download')
      .setExpirationTime(now / 1000 + 60)
      .sign(keyOf('session'));
    expect(await signer.verify(otherAudience, now)).toBe('invalid');
    const rightAudience = await new SignJWT({ v: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('quire:session')
      .setExpirationTime(now / 1000 + 60)
      .sign(keyOf('session'));
    expect(await signer.verify(rightAudience, now)).toMatchObject({ v: 'x' });
  });

  it('refuses tokens of another deployment, signed with the raw secret, without expiry, or with alg none', async () => {
    const token = await signer.sign({ v: 'x' }, now + 60_000);
    expect(await new TokenSigner('another-deployment-secret-0123456789', 'session').verify(token, now)).toBe('invalid');
    const raw = await new SignJWT({ v: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('quire:session')
      .setExpirationTime(now / 1000 + 60)
      .sign(new TextEncoder().encode(SECRET));
    expect(await signer.verify(raw, now)).toBe('invalid');
    const forever = await new SignJWT({ v: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('quire:session')
      .sign(keyOf('session'));
    expect(await signer.verify(forever, now)).toBe('invalid');
    const [, payload] = token.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expect(await signer.verify(none, now)).toBe('invalid');
  });

  it('refuses a short secret and a token without a finite expiry', async () => {
    expect(() => new TokenSigner('short', 'actor')).toThrow(/at least 32/);
    await expect(signer.sign({ v: 'x' }, Number.NaN)).rejects.toThrow(/expiry/);
  });
});
