import { describe, expect, it } from 'vitest';
import { signApiToken } from '@quire/kit';
import { TEST_SECRET } from '@quire/kit/testing';
import { offlineGateway, useOfflineGateway } from './gateway.testing.ts';
import { existsSync } from 'node:fs';
import { BUNDLED_FONTS, fontFiles } from '@quire/sites';
import { parseCookies, siteFontFile, siteHostPattern, verifyPublishedApiToken } from './published.ts';

describe('published sites in the gateway', () => {
  const gw = useOfflineGateway({ QUIRE_PUBLIC_URL: 'https://quire.example.test' });

  it('serves the stylesheet, script and KaTeX files itself, compressed, and nothing else under /_quire/site', async () => {
    const css = await gw.app.inject({
      method: 'GET',
      url: '/_quire/site/site-v1.css',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect((await gw.app.inject({ method: 'GET', url: '/_quire/site/site-v1.js' })).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    const katex = await gw.app.inject({ method: 'GET', url: '/_quire/site/katex/katex.min.css' });
    expect(katex.body).toContain('KaTeX_Main');
    const font = await gw.app.inject({ method: 'GET', url: '/_quire/site/katex/fonts/KaTeX_Main-Regular.woff2' });
    expect([font.statusCode, font.headers['content-type']]).toEqual([200, 'font/woff2']);
    for (const url of [
      '/_quire/site/../package.json',
      '/_quire/site/katex/fonts/..%2F..%2Fpackage.json',
      '/_quire/site/katex/katex.js',
      '/_quire/site/nope.css',
    ]) {
      expect((await gw.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it("serves every file of the sites' bundled fonts, cached for a year, and no other file of their packages", async () => {
    const files = [...BUNDLED_FONTS.values()].flatMap((f) => fontFiles(f).map((x) => `${f.slug}/${x.file}`));
    expect(files.length).toBeGreaterThan(40);
    for (const name of files) expect(existsSync(siteFontFile(`fonts/${name}`) ?? ''), name).toBe(true);
    const res = await gw.app.inject({ method: 'GET', url: '/_quire/site/fonts/inter/inter-latin-wght-normal.woff2' });
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'font/woff2']);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
    for (const url of [
      '/_quire/site/fonts/inter/inter-latin-opsz-normal.woff2',
      '/_quire/site/fonts/inter/..%2Fpackage.json',
      '/_quire/site/fonts/inter/package.json',
      '/_quire/site/fonts/katex/KaTeX_Main-Regular.woff2',
      '/_quire/site/fonts/left-pad/left-pad-latin-400-normal.woff2',
    ]) {
      expect((await gw.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('answers an HTML error page when the sites service is away', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/sites/docs/a/page' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('This page cannot be shown right now');
    expect(res.body).not.toMatch(/Error|at .*\.ts/);
  });

  it('routes a page rating form POST (a urlencoded form) to the sites, and no other POST', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const vote = await gw.app.inject({
      method: 'POST',
      url: '/sites/docs/~rating',
      headers: form,
      payload: 'token=t&rating=good',
    });
    expect(vote.statusCode).toBe(503); // reached the sites service, which is away here
    const onHost = await gw.app.inject({
      method: 'POST',
      url: '/~rating',
      headers: { ...form, host: 'docs.acme.io' },
      payload: 'rating=good',
    });
    expect(onHost.statusCode).toBe(503);
    const elsewhere = await gw.app.inject({ method: 'POST', url: '/sites/docs/a/page', headers: form, payload: 'a=b' });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('keeps the gateway routes on other hosts and sends custom hosts to the sites', async () => {
    const pattern = siteHostPattern('https://quire.example.test');
    expect(['docs.acme.io', 'docs.acme.io:8443', 'a.b.example']).toEqual(
      ['docs.acme.io', 'docs.acme.io:8443', 'a.b.example'].filter((h) => pattern.test(h)),
    );
    expect(
      [
        'quire.example.test',
        'quire.example.test:443',
        '127.0.0.1:8080',
        'localhost',
        '[::1]:80',
        'a.b',
        '<x>.y.z',
      ].filter((h) => pattern.test(h)),
    ).toEqual([]);
    const api = await gw.app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host: 'docs.acme.io' } });
    expect(api.statusCode).toBe(200);
  });

  it('reads cookies leniently', () => {
    expect(parseCookies('a=1; b="x y"; a=2; bad; c=%ZZ; d=%3Cb%3E')).toEqual({ a: '1', b: 'x y', c: '%ZZ', d: '<b>' });
    expect(parseCookies(undefined)).toEqual({});
  });
});

describe("the published-content lookup's api token as a bearer token", () => {
  const issuer = 'https://quire.example.test';
  const claims = { site: 'site1', organization: 'org1', siteSpace: 'ss1', space: 'space1', claims: {} };

  it('verifies what the sites service signs; not another key, an expired token or alg none', async () => {
    const token = await signApiToken(TEST_SECRET, claims);
    expect(await verifyPublishedApiToken(TEST_SECRET, token)).toMatchObject({ site: 'site1', space: 'space1' });
    expect(await verifyPublishedApiToken(`${TEST_SECRET}x`, token)).toBeNull();
    expect(await verifyPublishedApiToken(TEST_SECRET, token, Date.now() + 2 * 3600_000)).toBeNull();
    const [, body] = token.split('.');
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${body}.`;
    expect(await verifyPublishedApiToken(TEST_SECRET, none)).toBeNull();
  });

  it('answers 401 to a bad token, 403 to an operation not open to readers and 404 to no route, before any service', async () => {
    const gw = await offlineGateway({ QUIRE_PUBLIC_URL: issuer });
    try {
      const token = await signApiToken(TEST_SECRET, claims);
      const call = (method: 'GET' | 'POST', url: string, bearer: string) =>
        gw.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${bearer}` },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
      const forbidden = await call('POST', '/v1/spaces/space1/change-requests', token);
      expect([forbidden.statusCode, forbidden.json().error.code]).toEqual([403, 403]);
      expect((await call('GET', '/v1/orgs/org1/spaces', token)).statusCode).toBe(403);
      // A change request's content: not open to readers (a site shows only the live revision).
      expect((await call('GET', '/v1/spaces/space1/change-requests/cr1/content/page/p1', token)).statusCode).toBe(403);
      // What GitBook's renderer reads with this token is not refused at the gateway: the page's meta links go on to
      // the content service (none runs here: 503), whose answer is a 404 for what a reader may not see.
      expect((await call('GET', '/v1/spaces/space1/revisions/r1/page/p1/meta-links', token)).statusCode).toBe(503);
      // A route Quire does not serve is a 404, not a 403.
      expect((await call('GET', '/v1/spaces/space1/revisions/r1/page/p1/nothing-here', token)).statusCode).toBe(404);
      const other = await signApiToken(`${TEST_SECRET}x`, claims);
      expect((await call('GET', '/v1/orgs/org1/sites/site1/published', other)).statusCode).toBe(401);
    } finally {
      await gw.close();
    }
  });
});
