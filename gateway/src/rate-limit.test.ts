import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '@quire/kit';
import { testLogger } from '@quire/kit/testing';
import { installErrorHandlers } from './errors.ts';
import { registerRateLimits, trustProxyOf, type RateLimits } from './rate-limit.ts';

/**
 * A bare app with the limits: `/t` spends a token's budget (`x-token`; `forged` fails to authenticate, `unknown` is
 * one the app cannot vouch for: looked up only while the address's failure budget lasts), `/page` is a page read
 * without a token (a published site, `/login`), `/healthz` is a probe.
 */
async function appWith(
  settings: { perToken?: number; perAddress?: number; authFailures?: number },
  trustProxy?: string,
): Promise<FastifyInstance> {
  const app = createHttpApp(testLogger(), 1024 * 1024, trustProxyOf(trustProxy));
  installErrorHandlers(app);
  const limits: RateLimits = await registerRateLimits(app, {
    perToken: 0,
    perAddress: 0,
    authFailures: 0,
    windowMs: 60_000,
    ...settings,
  });
  app.get('/t', async (req, reply) => {
    const token = req.headers['x-token'];
    if (token === 'forged' || (token === 'unknown' && !(await limits.mayLookUp(req)))) {
      if (!(await limits.authFailed(req, reply))) return reply;
      return reply.code(401).send({ error: { code: 401, message: 'Invalid or revoked API token' } });
    }
    if (typeof token === 'string' && !(await limits.token(req, reply, token))) return reply;
    return { ok: true };
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/page', async () => ({ page: true }));
  return app;
}

describe('trustProxyOf', () => {
  it('reads QUIRE_TRUST_PROXY', () => {
    expect(trustProxyOf(undefined)).toEqual({});
    expect(trustProxyOf('false')).toEqual({});
    expect(trustProxyOf('true')).toEqual({ trustProxy: true });
    expect(trustProxyOf('10.0.0.1, 192.168.0.0/16')).toEqual({ trustProxy: ['10.0.0.1', '192.168.0.0/16'] });
  });
});

describe('rate limits (plugin)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({ perToken: 3, perAddress: 20, authFailures: 2 });
  });
  afterAll(async () => {
    await app.close();
  });
  const get = (remoteAddress: string, token?: string, url = '/t') =>
    app.inject({ method: 'GET', url, remoteAddress, headers: token ? { 'x-token': token } : {} });

  it('spends a token budget with GitBook and IETF headers, then 429 with Retry-After', async () => {
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await get('10.1.0.1', 'tok-a'));
    expect(codes.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expect(codes[0]!.headers).toMatchObject({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '2',
      'ratelimit-policy': '"token";q=3;w=60',
    });
    expect(codes[3]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(codes[3]!.json()).toEqual({
      error: {
        code: 429,
        message: expect.stringMatching(/^API rate limit exceeded; please try again in \d+ seconds$/),
      },
    });
    expect((await get('10.1.0.1', 'tok-b')).statusCode).toBe(200);
  });

  it('throttles the failing tokens of an address, not its valid tokens nor its pages', async () => {
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await get('10.2.0.1', 'forged')).statusCode);
    expect(codes).toEqual([401, 401, 429, 429]);
    const refused = await get('10.2.0.1', 'forged');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json().error.message).toMatch(
      /^Too many failed authentications from this address; please try again in \d+ seconds$/,
    );
    // A token that cannot be vouched for is no longer looked up from there: 429.
    expect((await get('10.2.0.1', 'unknown')).statusCode).toBe(429);
    expect((await get('10.2.0.2', 'unknown')).statusCode).toBe(200);
    // The same address's valid token, its page reads and its probes are answered.
    expect((await get('10.2.0.1', 'tok-c')).statusCode).toBe(200);
    expect((await get('10.2.0.1', undefined, '/page')).statusCode).toBe(200);
    expect((await get('10.2.0.1', undefined, '/healthz')).statusCode).toBe(200);
  });

  it('counts every request of an address, anonymous or not', async () => {
    const codes = [];
    for (let i = 0; i < 21; i++) codes.push((await get('10.3.0.1', `tok-${i}`)).statusCode);
    expect(codes).toEqual([...Array(20).fill(200), 429]);
  });

  it('behind a trusted proxy, counts by the forwarded client address', async () => {
    const proxied = await appWith({ perAddress: 2 }, '10.9.9.9');
    try {
      const via = (client: string) =>
        proxied.inject({ method: 'GET', url: '/t', remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': client } });
      expect([
        (await via('203.0.113.7')).statusCode,
        (await via('203.0.113.7')).statusCode,
        (await via('203.0.113.7')).statusCode,
      ]).toEqual([200, 200, 429]);
      expect((await via('203.0.113.8')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
