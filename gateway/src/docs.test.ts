import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from './app.ts';
import { locateScalarBundle } from './docs.ts';
import { useOfflineGateway } from './gateway.testing.ts';

const PUBLIC_URL = 'https://docs.example.test';

describe('the /docs API reference', () => {
  const gw = useOfflineGateway({ QUIRE_PUBLIC_URL: PUBLIC_URL });
  let docs: Awaited<ReturnType<Gateway['app']['inject']>>;
  beforeAll(async () => {
    docs = await gw.app.inject({ method: 'GET', url: '/docs' });
  });
  /** The one script the page loads. */
  const assetUrl = () => docs.body.match(/<script src="(\/docs\/assets\/[^"]+)">/)?.[1] ?? '(none)';

  it('serves the page without a token, loading only same-origin assets', async () => {
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = docs.body;
    expect(page).not.toMatch(/https?:\/\//);
    expect([...page.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1])).toEqual([assetUrl()]);

    const config = page.match(/<script id="api-reference" type="application\/json" data-configuration="([^"]*)">/)?.[1];
    const decoded: unknown = JSON.parse(
      (config ?? '').replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'),
    );
    expect(decoded).toMatchObject({
      url: '/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
    });
  });

  it('has a Content-Security-Policy that allows nothing but this origin (and the API origin for requests)', async () => {
    const directives = new Map(
      String(docs.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name!, sources]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", PUBLIC_URL]);
    const allowed = new Set(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:']);
    for (const [name, sources] of directives) {
      if (name !== 'connect-src')
        expect(
          sources.filter((s) => !allowed.has(s)),
          name,
        ).toEqual([]);
    }
  });

  it("serves Scalar's browser bundle from node_modules with a long cache, gzipped when asked", async () => {
    const bundle = locateScalarBundle();
    expect(bundle.file).toMatch(/[/\\]@scalar[/\\]api-reference[/\\]dist[/\\]browser[/\\]standalone\.js$/);
    const original = await readFile(bundle.file);

    const plain = await gw.app.inject({ method: 'GET', url: assetUrl() });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
    expect(plain.body).toContain('createApiReference');

    const gzipped = await gw.app.inject({ method: 'GET', url: assetUrl(), headers: { 'accept-encoding': 'br, gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.length).toBeLessThan(original.length / 2);
    expect(gunzipSync(gzipped.rawPayload).equals(original)).toBe(true);

    const refused = await gw.app.inject({ method: 'GET', url: assetUrl(), headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 in the error shape for any other asset', async () => {
    for (const name of ['nope.js', 'scalar-api-reference-0.0.1.js']) {
      const res = await gw.app.inject({ method: 'GET', url: `/docs/assets/${name}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 404, message: `No docs asset ${name}` } });
    }
  });
});
