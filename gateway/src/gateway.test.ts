import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS } from '@quire/contracts';
import { testLogger, TEST_SECRET } from '@quire/kit/testing';
import { buildGateway, type Gateway } from './app.ts';
import { RateLimiter } from './auth.ts';
import { loadGatewayConfig } from './env.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { buildV1Router } from './v1-router.ts';

describe('RateLimiter', () => {
  it('allows `limit` calls a minute per key, then says how long to wait', () => {
    const limiter = new RateLimiter(2);
    const t0 = 1_000_000;
    expect([limiter.hit('a', t0), limiter.hit('a', t0 + 1), limiter.hit('a', t0 + 2)]).toEqual([0, 0, 60]);
    expect(limiter.hit('b', t0 + 3)).toBe(0);
    expect(limiter.hit('a', t0 + 60_000)).toBe(0);
    expect(new RateLimiter(0).hit('a')).toBe(0);
  });
});

describe('the v1 router', () => {
  it('has one generated procedure per HTTP operation of the contracts, none internal', () => {
    const procedures = Object.keys(buildV1Router()._def.procedures);
    expect(procedures.sort()).toEqual(HTTP_OPERATIONS.map((o) => `${o.service}__${o.id.replaceAll('.', '_')}`).sort());
    expect(HTTP_OPERATIONS.every((o) => o.access !== 'internal')).toBe(true);
  });

  it('documents every operation with its real success status', () => {
    const router = buildV1Router(HTTP_OPERATIONS);
    const doc = buildOpenApiDocument(router, HTTP_OPERATIONS, { baseUrl: 'http://x', version: '1' });
    for (const op of HTTP_OPERATIONS) {
      const path = `/v1${op.http!.path === '/' ? '' : op.http!.path}`;
      const responses = (doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[path]![op.http!.method.toLowerCase()]!.responses;
      expect(Object.keys(responses)).toContain(String(op.http!.status));
      if (op.http!.status !== 200) expect(responses['200']).toBeUndefined();
    }
  });
});

describe('gateway without reachable services', () => {
  let gw: Gateway;
  beforeAll(async () => {
    const closed = 'http://127.0.0.1:9';
    const config = loadGatewayConfig({
      QUIRE_INTERNAL_SECRET: TEST_SECRET,
      ORG_ADMIN_URL: closed,
      CONTENT_URL: closed,
      SITES_URL: closed,
      INTEGRATIONS_URL: closed,
    });
    gw = await buildGateway({ config, log: testLogger() });
  });
  afterAll(async () => gw?.close());

  it('refuses calls without a token before asking anyone', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/spaces/abc' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 401, message: 'Authentication required: send `Authorization: Bearer <API token>`' } });
  });

  it('answers 503 in the error shape when the owning service is down', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: { code: 503, message: 'The org-admin service is unavailable' } });
    const health = await gw.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(503);
  });

  it('serves the OpenAPI document without a token', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.title).toBe('Quire API');
  });
});
