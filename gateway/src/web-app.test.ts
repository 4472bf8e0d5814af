import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createHttpApp, type ServiceClients } from '@quire/kit';
import { testLogger } from '@quire/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from './web-app.ts';

const PUBLIC_URL = 'http://quire.test';
const SCRIPT = 'console.log("app");'.repeat(50);

/** A built app in a temporary directory (what `vite build` writes), and the gateway's routes of it. */
function appOf(dist: string, answer: { actor: unknown; csrf: string | null }): FastifyInstance {
  const clients = { asService: async () => answer } as unknown as ServiceClients;
  const app = createHttpApp(testLogger());
  registerWebApp(app, { clients, publicUrl: PUBLIC_URL, log: testLogger(), dist });
  return app;
}

describe('the app on the gateway', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'quire-app-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<html><head><meta name="quire-csrf" content=""><script type="module" src="/_quire/app/assets/index-a1.js"></script></head></html>',
    );
    writeFileSync(join(dist, 'assets', 'index-a1.js'), SCRIPT);
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  it('sends a visitor without a session to sign in, back to the URL asked for', async () => {
    const app = appOf(dist, { actor: null, csrf: null });
    const res = await app.inject({
      url: '/o/org1/s/sp1/~/changes/3/guide?x=1',
      headers: { cookie: 'quire_session=old' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent('/o/org1/s/sp1/~/changes/3/guide?x=1')}`);
    expect((await app.inject({ url: '/' })).headers.location).toBe('/login?next=%2F');
  });

  it("answers a member the app's HTML with the session's CSRF token, escaped, under the CSP", async () => {
    const app = appOf(dist, { actor: { kind: 'user', userId: 'u', memberships: [] }, csrf: 'a"b<c' });
    const res = await app.inject({ url: '/o/org1', headers: { cookie: 'quire_session=live' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta name="quire-csrf" content="a&quot;b&lt;c">');
    // scripts of this origin only (and WebAssembly compiled by them: the Page screen's code highlighter), no inline style
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self';/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    // A published site's hostname keeps its own paths.
    expect((await app.inject({ url: '/o/org1', headers: { host: 'docs.acme.quire.test' } })).statusCode).toBe(404);
  });

  it("serves the account's tabs and an integration's page as the app, and leaves `/account` to the sign-in pages", async () => {
    const app = appOf(dist, { actor: { kind: 'user', userId: 'u', memberships: [] }, csrf: 't' });
    for (const url of ['/account/developer', '/account/sessions', '/integrations/figma']) {
      const res = await app.inject({ url, headers: { cookie: 'quire_session=live' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<meta name="quire-csrf" content="t">');
    }
    // Not registered here: the server-rendered page and the paths of its forms (sign-in.ts), nor any other.
    for (const url of ['/account', '/account/tokens', '/account/other'])
      expect((await app.inject({ url, headers: { cookie: 'quire_session=live' } })).statusCode, url).toBe(404);
    const anonymous = await appOf(dist, { actor: null, csrf: null }).inject({ url: '/account/sessions' });
    expect(anonymous.headers.location).toBe('/login?next=%2Faccount%2Fsessions');
  });

  it('serves the hashed assets compressed and cached, and nothing else', async () => {
    const app = appOf(dist, { actor: null, csrf: null });
    const res = await app.inject({ url: '/_quire/app/assets/index-a1.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect((await app.inject({ url: '/_quire/app/assets/index-a1.js' })).body).toBe(SCRIPT);
    for (const url of ['/_quire/app/assets/nope.js', '/_quire/app/assets/..%2Findex.html', '/_quire/app/index.html'])
      expect((await app.inject({ url })).statusCode, url).toBe(404);
  });

  it("sends the build's own compressed copies (.br, .gz) when it wrote them, and never serves them as assets", async () => {
    const built = mkdtempSync(join(tmpdir(), 'quire-app-pre-'));
    try {
      mkdirSync(join(built, 'assets'));
      writeFileSync(join(built, 'index.html'), '<html></html>');
      writeFileSync(join(built, 'assets', 'index-b2.js'), SCRIPT);
      // Marked copies: what is sent is the file the build wrote, not one compressed at start.
      writeFileSync(join(built, 'assets', 'index-b2.js.br'), brotliCompressSync(`${SCRIPT}// br`));
      writeFileSync(join(built, 'assets', 'index-b2.js.gz'), gzipSync(`${SCRIPT}// gz`));
      const app = appOf(built, { actor: null, csrf: null });
      const br = await app.inject({ url: '/_quire/app/assets/index-b2.js', headers: { 'accept-encoding': 'br' } });
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${SCRIPT}// br`);
      const gz = await app.inject({ url: '/_quire/app/assets/index-b2.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect((await app.inject({ url: '/_quire/app/assets/index-b2.js' })).body).toBe(SCRIPT);
      expect((await app.inject({ url: '/_quire/app/assets/index-b2.js.br' })).statusCode).toBe(404);
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  it('says how to build the app when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'quire-app-none-'));
    try {
      const res = await appOf(empty, { actor: null, csrf: null }).inject({ url: '/o/org1' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build -w @quire/app');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
