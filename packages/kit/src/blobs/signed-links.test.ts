import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../crypto/tokens.ts';
import { publicUrls } from '../urls.ts';
import { DOWNLOAD_TTL_MS, DownloadSigner, downloadLinks, type DownloadLink } from './signed-links.ts';

const SECRET = 'download-test-secret-0123456789abcdef';
const KEY = 'ab'.repeat(32);
const link: DownloadLink = {
  service: 'content',
  key: KEY,
  filename: 'Rapport annuel été.pdf',
  contentType: 'application/pdf',
};
const now = Date.UTC(2025, 0, 1);
const tokenOf = (path: string) => path.replace('/v1/downloads/', '');

describe('DownloadSigner', () => {
  const signer = new DownloadSigner(SECRET);

  it('signs a path that verifies back to the same claims, one hour by default', async () => {
    const path = await signer.signDownload(link, now);
    expect(path).toMatch(/^\/v1\/downloads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(await signer.verifyDownload(tokenOf(path), now + 1)).toEqual({
      service: 'content',
      key: KEY,
      filename: 'Rapport annuel été.pdf',
      contentType: 'application/pdf',
      expiresAt: now + DOWNLOAD_TTL_MS,
    });
    // Another signer with the same secret (another process of the deployment) agrees.
    expect(await new DownloadSigner(SECRET).verifyDownload(tokenOf(path), now)).not.toBe('invalid');
  });

  it('expires: valid until just before the expiry, expired from it on', async () => {
    const token = tokenOf(await signer.signDownload({ ...link, ttlMs: 5_000 }, now));
    expect(await signer.verifyDownload(token, now + 4_999)).toMatchObject({ key: KEY });
    expect(await signer.verifyDownload(token, now + 5_000)).toBe('expired');
    const hour = tokenOf(await signer.signDownload(link, now));
    expect(await signer.verifyDownload(hour, now + DOWNLOAD_TTL_MS + 1)).toBe('expired');
  });

  it('refuses a token altered in any byte of its header, claims or signature', async () => {
    const token = tokenOf(await signer.signDownload(link, now));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      // +1 changes the lowest bit a character carries, +32 the highest.
      for (const step of [1, 32]) {
        const swapped = alphabet[(alphabet.indexOf(token[i]!) + step) % alphabet.length]!;
        const altered = token.slice(0, i) + swapped + token.slice(i + 1);
        expect(await signer.verifyDownload(altered, now), `byte ${i}`).toBe('invalid');
      }
    }
  });

  it('refuses claims signed by someone without the key, links of another deployment or purpose', async () => {
    const token = tokenOf(await signer.signDownload(link, now));
    const [header, claims, mac] = token.split('.');
    const longLived = { s: 'content', k: KEY, n: 'x.pdf', t: 'application/pdf' };
    // Longer-lived claims signed with the raw secret (not the key derived for downloads).
    const forged = await new SignJWT(longLived)
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('quire:download')
      .setExpirationTime(now / 1000 + 10 * 3600)
      .sign(new TextEncoder().encode(SECRET));
    expect(await signer.verifyDownload(forged, now)).toBe('invalid');
    expect(await signer.verifyDownload(`${header}.${forged.split('.')[1]}.${mac}`, now)).toBe('invalid');
    expect(await new DownloadSigner('another-deployment-secret-0123456789').verifyDownload(token, now)).toBe('invalid');
    // The same claims signed for another purpose (an actor header, a session cookie) are no link.
    for (const purpose of ['actor', 'session'] as const)
      expect(
        await signer.verifyDownload(await new TokenSigner(SECRET, purpose).sign(longLived, now + 60_000), now),
      ).toBe('invalid');
    for (const bad of [
      '',
      '.',
      claims!,
      `${header}.${claims}`,
      `${header}.${claims}.`,
      `.${claims}.${mac}`,
      `${token}.x`,
      'not a token',
      'a'.repeat(5000),
    ]) {
      expect(await signer.verifyDownload(bad, now)).toBe('invalid');
    }
  });

  it('refuses to sign what a link could not serve', async () => {
    await expect(signer.signDownload({ ...link, key: 'nope' }, now)).rejects.toThrow(/blob key/);
    await expect(signer.signDownload({ ...link, contentType: 'text/html\r\nSet-Cookie: a=b' }, now)).rejects.toThrow(
      /media type/,
    );
    await expect(signer.signDownload({ ...link, filename: '  ' }, now)).rejects.toThrow(/filename/);
    await expect(signer.signDownload({ ...link, ttlMs: 0 }, now)).rejects.toThrow(/ttlMs/);
  });

  it('signs a deferred download by reference, which verifies back to the reference (no key)', async () => {
    const path = await signer.signDownload(
      { service: 'content', ref: 'pdf:AbC123', filename: 'Handbook.pdf', contentType: 'application/pdf' },
      now,
    );
    expect(await signer.verifyDownload(tokenOf(path), now + 1)).toEqual({
      service: 'content',
      ref: 'pdf:AbC123',
      filename: 'Handbook.pdf',
      contentType: 'application/pdf',
      expiresAt: now + DOWNLOAD_TTL_MS,
    });
    expect(await signer.verifyDownload(tokenOf(path), now + DOWNLOAD_TTL_MS)).toBe('expired');
    await expect(
      signer.signDownload({ service: 'content', ref: 'a/b', filename: 'x.pdf', contentType: 'application/pdf' }, now),
    ).rejects.toThrow(/download reference/);
    await expect(
      signer.signDownload(
        { service: 'content', ref: 'r'.repeat(129), filename: 'x.pdf', contentType: 'application/pdf' },
        now,
      ),
    ).rejects.toThrow(/download reference/);
  });

  it('refuses claims naming both a blob and a reference, or neither (even correctly signed)', async () => {
    // Arbitrary claims signed with the download key, as a faulty signer could.
    const tokens = new TokenSigner(SECRET, 'download');
    const sign = (claims: object) => tokens.sign(claims as Record<string, unknown>, now + 1000);
    const base = { s: 'content', n: 'x.pdf', t: 'application/pdf' };
    expect(await signer.verifyDownload(await sign({ ...base, k: KEY }), now)).toMatchObject({ key: KEY });
    expect(await signer.verifyDownload(await sign({ ...base, k: KEY, r: 'pdf:1' }), now)).toBe('invalid');
    expect(await signer.verifyDownload(await sign(base), now)).toBe('invalid');
  });

  it('shortens a very long filename, keeping its extension, so the link stays short', async () => {
    const path = await signer.signDownload({ ...link, filename: `${'é'.repeat(400)}.pdf` }, now);
    expect(path.length).toBeLessThan(1024);
    const claims = await signer.verifyDownload(tokenOf(path), now);
    expect(claims).not.toBe('invalid');
    const filename = typeof claims === 'object' ? claims.filename : '';
    expect(filename.endsWith('é.pdf')).toBe(true);
    expect(Buffer.byteLength(filename)).toBeLessThanOrEqual(200);
  });
});

describe('downloadLinks', () => {
  it('builds absolute links on the public URL for the service', async () => {
    const signer = new DownloadSigner(SECRET);
    const links = downloadLinks(signer, 'sites', publicUrls('https://docs.example.com/'));
    const url = await links.url({ key: KEY, filename: 'icon.png', contentType: 'image/png' }, now);
    expect(url).toMatch(/^https:\/\/docs\.example\.com\/v1\/downloads\/[^/]+$/);
    expect(await signer.verifyDownload(url.split('/').at(-1)!, now)).toMatchObject({
      service: 'sites',
      filename: 'icon.png',
      contentType: 'image/png',
    });
  });
});
