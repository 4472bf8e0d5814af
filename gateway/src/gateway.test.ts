import { describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS } from '@quire/contracts';
import { useOfflineGateway } from './gateway.testing.ts';
import { buildOpenApiDocument, SERVICE_ROUTERS } from './openapi.ts';

type Paths = Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;

describe("the OpenAPI document, generated from the services' routers", () => {
  const doc = buildOpenApiDocument(SERVICE_ROUTERS, HTTP_OPERATIONS, { baseUrl: 'http://x', version: '1' });

  it('has one operation per HTTP operation of the contracts, none internal', () => {
    const documented = Object.values(doc.paths as Paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(documented.sort()).toEqual(HTTP_OPERATIONS.map((o) => o.http!.operationId).sort());
    expect(HTTP_OPERATIONS.every((o) => o.access !== 'internal')).toBe(true);
  });

  it('documents every operation with its real success status', () => {
    for (const op of HTTP_OPERATIONS) {
      const path = `/v1${op.http!.path === '/' ? '' : op.http!.path}`;
      const responses = (doc.paths as Paths)[path]![op.http!.method.toLowerCase()]!.responses;
      expect(Object.keys(responses)).toContain(String(op.http!.status));
      if (op.http!.status !== 200) expect(responses['200']).toBeUndefined();
    }
  });
});

describe('gateway without reachable services', () => {
  const gw = useOfflineGateway();

  it('refuses calls without a token before asking anyone', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/spaces/abc' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 401, message: 'Authentication required: send `Authorization: Bearer <API token>`' },
    });
  });

  it('answers 401 to GET /v1/ without a token, like every operation', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe(401);
  });

  it('answers 503 in the error shape with Retry-After when the owning service is down', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/', headers: { authorization: 'Bearer some-token' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ error: { code: 503, message: 'The org-admin service is unavailable' } });
  });

  it('is live (/healthz, asking nobody) but not ready (/readyz) within a second', async () => {
    const started = performance.now();
    const [health, ready] = await Promise.all([
      gw.app.inject({ method: 'GET', url: '/healthz' }),
      gw.app.inject({ method: 'GET', url: '/readyz' }),
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().services.content).toBe('unavailable');
  });

  it('serves the OpenAPI document without a token', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info.title).toBe('Quire API');
  });
});
