import { createHmac, hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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
const hkdf = (secret: string) =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'quire/signed-downloads/v1', 32));

describe('DownloadSigner', () => {
  const signer = new DownloadSigner(SECRET);

  it('signs a path that verifies back to the same claims, one hour by default', () => {
    const path = signer.signDownload(link, now);
    expect(path).toMatch(/^\/v1\/downloads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(signer.verifyDownload(tokenOf(path), now + 1)).toEqual({
      service: 'content',
      key: KEY,
      filename: 'Rapport annuel été.pdf',
      contentType: 'application/pdf',
      expiresAt: now + DOWNLOAD_TTL_MS,
    });
    // Another signer with the same secret (another process of the deployment) agrees.
    expect(new DownloadSigner(SECRET).verifyDownload(tokenOf(path), now)).not.toBe('invalid');
  });

  it('expires: valid until just before the expiry, expired from it on', () => {
    const token = tokenOf(signer.signDownload({ ...link, ttlMs: 5_000 }, now));
    expect(signer.verifyDownload(token, now + 4_999)).toMatchObject({ key: KEY });
    expect(signer.verifyDownload(token, now + 5_000)).toBe('expired');
    expect(signer.verifyDownload(tokenOf(signer.signDownload(link, now)), now + DOWNLOAD_TTL_MS + 1)).toBe('expired');
  });

  it('refuses a token altered in any byte of its claims or its signature', () => {
    const token = tokenOf(signer.signDownload(link, now));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < token.length; i++) {
      if (token[i] === '.') continue;
      const swapped = alphabet[(alphabet.indexOf(token[i]!) + 1) % alphabet.length]!;
      const altered = token.slice(0, i) + swapped + token.slice(i + 1);
      expect(signer.verifyDownload(altered, now), `byte ${i}`).toBe('invalid');
    }
  });

  it('refuses claims re-signed by someone without the key, and links of another deployment', () => {
    const token = tokenOf(signer.signDownload(link, now));
    const [claims] = token.split('.');
    // Longer-lived claims with a signature made with the raw secret (not the derived key).
    const forged = Buffer.from(
      JSON.stringify({ s: 'content', k: KEY, n: 'x.pdf', t: 'application/pdf', e: now + 10 * DOWNLOAD_TTL_MS }),
    ).toString('base64url');
    expect(
      signer.verifyDownload(`${forged}.${createHmac('sha256', SECRET).update(forged).digest('base64url')}`, now),
    ).toBe('invalid');
    expect(signer.verifyDownload(`${forged}.${token.split('.')[1]}`, now)).toBe('invalid');
    expect(new DownloadSigner('another-deployment-secret-0123456789').verifyDownload(token, now)).toBe('invalid');
    for (const bad of [
      '',
      '.',
      claims!,
      `${claims}.`,
      `.${token.split('.')[1]}`,
      `${token}.x`,
      'not a token',
      'a'.repeat(5000),
    ]) {
      expect(signer.verifyDownload(bad, now)).toBe('invalid');
    }
  });

  it('refuses to sign what a link could not serve', () => {
    expect(() => signer.signDownload({ ...link, key: 'nope' }, now)).toThrow(/blob key/);
    expect(() => signer.signDownload({ ...link, contentType: 'text/html\r\nSet-Cookie: a=b' }, now)).toThrow(
      /media type/,
    );
    expect(() => signer.signDownload({ ...link, filename: '  ' }, now)).toThrow(/filename/);
    expect(() => signer.signDownload({ ...link, ttlMs: 0 }, now)).toThrow(/ttlMs/);
  });

  it('signs a deferred download by reference, which verifies back to the reference (no key)', () => {
    const path = signer.signDownload(
      { service: 'content', ref: 'pdf:AbC123', filename: 'Handbook.pdf', contentType: 'application/pdf' },
      now,
    );
    expect(signer.verifyDownload(tokenOf(path), now + 1)).toEqual({
      service: 'content',
      ref: 'pdf:AbC123',
      filename: 'Handbook.pdf',
      contentType: 'application/pdf',
      expiresAt: now + DOWNLOAD_TTL_MS,
    });
    expect(signer.verifyDownload(tokenOf(path), now + DOWNLOAD_TTL_MS)).toBe('expired');
    expect(() =>
      signer.signDownload({ service: 'content', ref: 'a/b', filename: 'x.pdf', contentType: 'application/pdf' }, now),
    ).toThrow(/download reference/);
    expect(() =>
      signer.signDownload(
        { service: 'content', ref: 'r'.repeat(129), filename: 'x.pdf', contentType: 'application/pdf' },
        now,
      ),
    ).toThrow(/download reference/);
  });

  it('refuses claims naming both a blob and a reference, or neither (even correctly signed)', () => {
    // Arbitrary claims signed with the derived key (recomputed as the signer derives it), as a faulty signer could.
    const sign = (claims: object) => {
      const encoded = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return `${encoded}.${createHmac('sha256', hkdf(SECRET)).update(encoded).digest('base64url')}`;
    };
    const base = { s: 'content', n: 'x.pdf', t: 'application/pdf', e: now + 1000 };
    expect(signer.verifyDownload(sign({ ...base, k: KEY }), now)).toMatchObject({ key: KEY });
    expect(signer.verifyDownload(sign({ ...base, k: KEY, r: 'pdf:1' }), now)).toBe('invalid');
    expect(signer.verifyDownload(sign(base), now)).toBe('invalid');
  });

  it('shortens a very long filename, keeping its extension, so the link stays short', () => {
    const path = signer.signDownload({ ...link, filename: `${'é'.repeat(400)}.pdf` }, now);
    expect(path.length).toBeLessThan(1024);
    const claims = signer.verifyDownload(tokenOf(path), now);
    expect(claims).not.toBe('invalid');
    const filename = typeof claims === 'object' ? claims.filename : '';
    expect(filename.endsWith('é.pdf')).toBe(true);
    expect(Buffer.byteLength(filename)).toBeLessThanOrEqual(200);
  });
});

describe('downloadLinks', () => {
  it('builds absolute links on the public URL for the service', () => {
    const signer = new DownloadSigner(SECRET);
    const links = downloadLinks(signer, 'sites', publicUrls('https://docs.example.com/'));
    const url = links.url({ key: KEY, filename: 'icon.png', contentType: 'image/png' }, now);
    expect(url).toMatch(/^https:\/\/docs\.example\.com\/v1\/downloads\/[^/]+$/);
    expect(signer.verifyDownload(url.split('/').at(-1)!, now)).toMatchObject({
      service: 'sites',
      filename: 'icon.png',
      contentType: 'image/png',
    });
  });
});
