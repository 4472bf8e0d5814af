import { connect } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildGateway, loadGatewayConfig } from '@quire/gateway';
import { testLogger } from '@quire/kit/testing';
import { useBootstrap, usePlatform } from './harness.ts';

const p = usePlatform({ env: { QUIRE_BODY_LIMIT: '65536' } });
const boot = useBootstrap(p, 'Contract Co', 'carl@contract.io');

const call = async (
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string>; auth?: string | null } = {},
) => {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== null) headers.authorization = init.auth ?? `Bearer ${boot.token}`;
  const res = await fetch(`${p.url}${path}`, {
    method,
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
};
const json = { 'content-type': 'application/json' };

/** One raw HTTP/1.1 exchange over a socket: for what fetch refuses to send (bad escapes, raw bytes, huge headers). */
async function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(p.url);
  const socket = connect(Number(port), hostname);
  socket.write(Buffer.from(request, 'latin1'));
  const chunks: Buffer[] = [];
  await new Promise<void>((resolveEnd) => {
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', resolveEnd);
    socket.on('error', () => resolveEnd());
    socket.on('close', () => resolveEnd());
  });
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body };
}
const get = (path: string, extra = '') =>
  raw(
    `GET ${path} HTTP/1.1\r\nhost: quire\r\nauthorization: Bearer ${boot.token}\r\nconnection: close\r\n${extra}\r\n`,
  );

describe('hostile input keeps the contract', () => {
  it.each([
    [
      'a NUL in a path id',
      () => call('GET', '/v1/spaces/abc%00'),
      400,
      /^Invalid request: spaceId: must not contain NUL characters$/,
    ],
    [
      'a NUL in a query string',
      () => call('GET', `/v1/orgs/${boot.organization.id}/members?search=a%00b`),
      400,
      /^Invalid request: search: must not contain NUL/,
    ],
    [
      'a NUL in a body string',
      () => call('POST', '/v1/user/tokens', { headers: json, body: JSON.stringify({ label: 'a\u0000b' }) }),
      400,
      /^Invalid request: label: must not contain NUL/,
    ],
    [
      'a NUL in a body key',
      () => call('POST', '/v1/orgs', { headers: json, body: '{"title":"Fine","x\\u0000":1}' }),
      400,
      /^Invalid request: x\?: key must not contain NUL/,
    ],
    [
      'a lone surrogate in a body string',
      () => call('POST', `/v1/orgs/${boot.organization.id}/spaces`, { headers: json, body: '{"title":"a\\ud800b"}' }),
      400,
      /^Invalid request: title: must be valid Unicode/,
    ],
    [
      'an id longer than ids are',
      () => call('GET', `/v1/spaces/${'x'.repeat(500)}`),
      400,
      /^Invalid request: spaceId: Too big/,
    ],
    [
      'a cursor whose values do not fit the columns',
      () =>
        call(
          'GET',
          `/v1/orgs/${boot.organization.id}/collections?page=${Buffer.from('[2.5e-15,"constructor"]').toString('base64url')}`,
        ),
      400,
      /^Invalid `page`/,
    ],
    ['GET /v1 without its slash', () => call('GET', '/v1'), 200, /./],
  ])('%s', async (_name, run, status, message) => {
    const res = await run();
    expect(res.status).toBe(status);
    if (status >= 400) {
      expect(res.json).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it.each([
    ['a malformed percent-escape', () => get('/v1/spaces/%zz'), 400, /Malformed URL/],
    ['an overlong UTF-8 escape', () => get('/v1/spaces/%C0%AF'), 400, /Malformed URL/],
    ['a truncated escape', () => get('/v1/spaces/%E2%82'), 400, /Malformed URL/],
    ['a trailing %', () => get('/v1/spaces/abc%'), 400, /Malformed URL/],
    ['a path parameter over the router limit', () => get(`/v1/spaces/${'x'.repeat(1500)}`), 414, /too long/],
    ['headers over 16 KB', () => get('/v1/user', `x-padding: ${'p'.repeat(17_000)}\r\n`), 431, /too large/],
    [
      'raw bytes in the request line',
      () => raw(`GET /v1/spaces/a b HTTP/1.1\r\nhost: quire\r\n\r\n`),
      400,
      /Malformed HTTP request/,
    ],
  ])('%s', async (_name, run, status, message) => {
    const res = await run();
    expect(res.status).toBe(status);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
  });

  it('answers deeply bracketed query keys (unknown parameters) instead of resetting', async () => {
    const res = await get(`/v1/orgs?limit${'[0]'.repeat(21)}=x`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ count: expect.any(Number), items: expect.any(Array) });
  });

  it('asks for a token on every operation but the API root', async () => {
    const res = await call('GET', `/v1/orgs/${boot.organization.id}/sso`, { auth: null });
    expect(res.status).toBe(401);
  });
});

describe('errors are always {error:{code,message}}', () => {
  it.each([
    ['no token', () => call('GET', '/v1/user', { auth: null }), 401, /Authentication required/],
    [
      'a bad token',
      () => call('GET', '/v1/user', { auth: 'Bearer quire_not-a-real-token' }),
      401,
      /Invalid or revoked/,
    ],
    [
      'a malformed Authorization header',
      () => call('GET', '/v1/user', { auth: 'Token abc' }),
      401,
      /Malformed Authorization/,
    ],
    ['an unknown route', () => call('GET', '/v1/nowhere'), 404, /No route GET \/v1\/nowhere/],
    ['malformed JSON', () => call('POST', '/v1/orgs', { headers: json, body: '{"title":' }), 400, /Malformed JSON/],
    [
      'a non-JSON body',
      () => call('POST', '/v1/orgs', { headers: { 'content-type': 'text/plain' }, body: 'title=x' }),
      415,
      /Content-Type/,
    ],
    ['a JSON array body', () => call('POST', '/v1/orgs', { headers: json, body: '[1]' }), 400, /JSON object/],
    [
      'a field breaking its rule',
      () =>
        call('POST', `/v1/orgs/${boot.organization.id}/spaces`, {
          headers: json,
          body: JSON.stringify({ title: 'x'.repeat(51) }),
        }),
      400,
      /title: Too big/,
    ],
    [
      'a wrong type',
      () => call('POST', '/v1/orgs', { headers: json, body: '{"title":42}' }),
      400,
      /title: Invalid input: expected string/,
    ],
    ['limit above 1000', () => call('GET', '/v1/orgs?limit=1001'), 400, /limit: Too big/],
    ['a limit that is no number', () => call('GET', '/v1/orgs?limit=ten'), 400, /limit/],
    ['a forged page cursor', () => call('GET', '/v1/orgs?page=WyJ4Il0'), 400, /Invalid `page`/],
    [
      'a body above the limit',
      () => call('POST', '/v1/orgs', { headers: json, body: JSON.stringify({ title: 'x'.repeat(70_000) }) }),
      413,
      /too large/,
    ],
    ['a missing space', () => call('GET', '/v1/spaces/doesnotexist'), 404, /Space not found/],
    [
      'path traversal in a parameter',
      () => call('GET', '/v1/spaces/..%2Ftrpc%2Fauth.resolveToken'),
      404,
      /Space not found/,
    ],
  ])('%s', async (_name, run, status, message) => {
    const res = await run();
    expect(res.status).toBe(status);
    expect(Object.keys(res.json)).toEqual(['error']);
    expect(res.json.error.code).toBe(status);
    expect(res.json.error.message).toMatch(message);
    expect(res.text).not.toMatch(/at .*\.ts:\d+|node_modules|stack/);
  });

  it('carries the request id, and echoes the caller’s', async () => {
    const mine = await call('GET', '/v1/user', { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    expect((await call('GET', '/v1/user')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives 204 and 201 with the bodies the spec says', async () => {
    const created = await call('POST', '/v1/user/tokens', { headers: json, body: '{"label":"tmp"}' });
    expect(created.status).toBe(201);
    const revoked = await call('DELETE', `/v1/user/tokens/${created.json.info.id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
  });

  it('answers 503 for the routes of a service that is down, and only those', async () => {
    const space = await call('POST', `/v1/orgs/${boot.organization.id}/spaces`, {
      headers: json,
      body: '{"title":"Before"}',
    });
    expect(space.status).toBe(201);
    const content = p.platform.services.find((s) => s.name === 'content')!;
    await content.close();
    const down = await call('GET', `/v1/spaces/${space.json.id}`);
    expect(down.status).toBe(503);
    expect(down.json).toEqual({ error: { code: 503, message: 'The content service is unavailable' } });
    expect((await call('GET', '/v1/user')).status).toBe(200);
    // Liveness stays up (the gateway itself is fine); readiness says a service is away.
    expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${p.url}/readyz`);
    expect(ready.status).toBe(503);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past the per-token limit', async () => {
    const config = loadGatewayConfig({
      QUIRE_INTERNAL_SECRET: p.platform.internalSecret,
      QUIRE_RATE_LIMIT_PER_MINUTE: '2',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
    const gw = await buildGateway({ config, log: testLogger(), local: p.platform.services });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await gw.app.inject({
          method: 'GET',
          url: '/v1/user',
          headers: { authorization: `Bearer ${boot.token}` },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expect(res.json()).toEqual({
            error: {
              code: 429,
              message: expect.stringMatching(/^API rate limit exceeded; please try again in \d+ seconds$/),
            },
          });
        }
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await gw.close();
    }
  });
});

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document stating real statuses and the error shape', async () => {
    const doc = (await call('GET', '/v1/openapi.json', { auth: null })).json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1/);
    const createSpace = doc.paths['/v1/orgs/{organizationId}/spaces'].post;
    expect(Object.keys(createSpace.responses)).toContain('201');
    expect(createSpace.responses['200']).toBeUndefined();
    expect(createSpace.operationId).toBe('createSpace');
    expect(doc.paths['/v1/user/tokens/{tokenId}'].delete.responses['204']).toEqual({ description: 'No content' });
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    expect(createSpace.responses['400']).toEqual({ $ref: '#/components/responses/Error400' });
    expect(doc.paths['/v1/spaces/{spaceId}'].get.parameters.map((x: { name: string }) => x.name)).toEqual([
      'spaceId',
      'shareKey',
    ]);
  });
});
