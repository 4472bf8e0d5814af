import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Contract } from './contract.ts';
import { readOperations } from './document.ts';
import { encode } from './hostile.ts';
import { requestArbitrary, type FuzzRequest, type FuzzTargets } from './requests.ts';

const error = { $ref: '#/components/responses/Error' };
const doc = {
  openapi: '3.1.0',
  paths: {
    '/v1/things/{thingId}': {
      get: {
        operationId: 'getThing',
        security: [{ user: [] }],
        parameters: [
          { in: 'path', name: 'thingId', required: true, schema: { type: 'string', maxLength: 100 } },
          { in: 'query', name: 'limit', schema: { type: 'integer', minimum: 0, maximum: 10 } },
        ],
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { id: { type: 'string' } },
                  required: ['id'],
                  additionalProperties: false,
                },
              },
            },
          },
          400: error,
          404: error,
        },
      },
      delete: {
        operationId: 'deleteThing',
        parameters: [{ in: 'path', name: 'thingId', required: true, schema: { type: 'string' } }],
        responses: { 204: { description: 'No content' }, 404: error },
      },
    },
    '/v1/things': {
      post: {
        operationId: 'createThing',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { title: { type: 'string', minLength: 1 }, kind: { enum: ['a', 'b'] } },
                required: ['title'],
              },
            },
          },
        },
        responses: {
          201: { description: 'created', content: { 'application/json': { schema: { type: 'object' } } } },
          400: error,
        },
      },
    },
  },
  components: {
    responses: {
      Error: {
        description: 'error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    schemas: { Error: { type: 'object' } },
  },
};

const operations = readOperations(doc);
const [getThing, deleteThing] = operations;
const contract = new Contract();
const request = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
  operation: 'GET /v1/things/{thingId}',
  method: 'GET',
  path: '/v1/things/x',
  headers: {},
  body: undefined,
  auth: 'owner',
  tags: ['path:thingId'],
  oversized: false,
  ...over,
});
const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
  response: { status, contentType, text: typeof body === 'string' ? body : JSON.stringify(body) },
});
const rules = (outcome: Parameters<Contract['check']>[2], req = request(), op = getThing!) =>
  contract.check(op, req, outcome).map((v) => v.rule);

describe('reading the document', () => {
  it('lists every operation with its parameters, body, success and documented errors', () => {
    expect(operations.map((o) => o.key)).toEqual([
      'GET /v1/things/{thingId}',
      'DELETE /v1/things/{thingId}',
      'POST /v1/things',
    ]);
    expect(getThing!.pathParams.map((p) => p.name)).toEqual(['thingId']);
    expect(getThing!.queryParams.map((p) => p.name)).toEqual(['limit']);
    expect([...getThing!.errors]).toEqual([400, 404]);
    expect(deleteThing!.success).toEqual(new Map([[204, undefined]]));
    expect(operations[2]!.body?.required).toBe(true);
  });
});

describe('the contract', () => {
  it('accepts errors in the exact shape with a documented status, and valid successes', () => {
    expect(rules(answer(404, { error: { code: 404, message: 'Thing not found' } }))).toEqual([]);
    expect(rules(answer(200, { id: 'x' }))).toEqual([]);
    expect(rules(answer(204, ''), request({ method: 'DELETE' }), deleteThing)).toEqual([]);
  });

  it('flags 5xx, other error shapes, undocumented statuses and bodies that break the schema', () => {
    expect(rules(answer(500, { error: { code: 500, message: 'boom' } }))).toEqual([
      'server-error',
      'undocumented-status',
    ]);
    expect(
      rules(answer(400, { statusCode: 400, code: 'FST_ERR_BAD_URL', error: 'Bad Request', message: 'x' })),
    ).toEqual(['error-shape']);
    expect(rules(answer(404, { error: { code: 400, message: 'x' } }))).toEqual(['error-shape']);
    expect(rules(answer(404, { error: { code: 404, message: 'x', stack: '' } }))).toEqual(['error-shape']);
    expect(rules(answer(404, { error: { code: 404, message: 'x' } }, 'text/html'))).toEqual(['error-shape']);
    expect(rules(answer(415, { error: { code: 415, message: 'x' } }))).toEqual(['undocumented-status']);
    expect(rules(answer(201, { id: 'x' }))).toEqual(['undocumented-status']);
    expect(rules(answer(200, { id: 1 }))).toEqual(['success-body']);
    expect(rules(answer(204, 'x'), request({ method: 'DELETE' }), deleteThing)).toEqual(['success-body']);
  });

  it('allows 414/431 only for deliberately oversized requests, still in the shape', () => {
    const tooLarge = answer(431, { error: { code: 431, message: 'Request headers too large' } });
    expect(rules(tooLarge, request({ oversized: true }))).toEqual([]);
    expect(rules(tooLarge)).toEqual(['undocumented-status']);
    expect(rules(answer(431, { statusCode: 431, error: 'x', message: 'y' }), request({ oversized: true }))).toEqual([
      'error-shape',
    ]);
  });

  it('wants 401 for a valid request without a token', () => {
    expect(rules(answer(404, { error: { code: 404, message: 'x' } }), request({ auth: 'none', tags: [] }))).toEqual([
      'authentication',
    ]);
    expect(rules(answer(404, { error: { code: 404, message: 'x' } }), request({ auth: 'none' }))).toEqual([]);
  });

  it('flags socket errors, and a connection dropped after an answer that did not say so', () => {
    expect(rules({ failure: { code: 'ECONNRESET', message: 'reset' } })).toEqual(['socket-error']);
    expect(
      rules({
        ...answer(404, { error: { code: 404, message: 'x' } }),
        reuse: { code: 'NO_RESPONSE', message: 'closed' },
      }),
    ).toEqual(['socket-error']);
  });
});

describe('generating requests', () => {
  const targets: FuzzTargets = {
    ids: { thingId: ['thing1'] },
    allIds: ['thing1', 'other1'],
    tokens: { owner: 'o', 'other-org': 'x', admin: 'a' },
    bodyLimit: 1 << 20,
  };
  const arb = requestArbitrary(operations, targets);

  it('is deterministic for a seed and reaches every operation, validly and with hostile inputs', () => {
    const run = fc.sample(arb, { seed: 42, numRuns: 300 });
    expect(fc.sample(arb, { seed: 42, numRuns: 300 })).toEqual(run);
    expect(new Set(run.map((r) => r.operation))).toEqual(new Set(operations.map((o) => o.key)));
    expect(run.some((r) => r.tags.length === 0 && r.path.startsWith('/v1/things/thing1'))).toBe(true);
    expect(run.some((r) => r.tags.some((t) => t.startsWith('path:')))).toBe(true);
    expect(run.some((r) => r.tags.some((t) => t.startsWith('body:')))).toBe(true);
    expect(run.some((r) => r.auth === 'none')).toBe(true);
  });

  it('keeps URL and headers under 16 KB unless the request is oversized on purpose', () => {
    for (const r of fc.sample(arb, { seed: 7, numRuns: 1000 })) {
      const size = r.path.length + Object.entries(r.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
      if (!r.oversized) expect(size).toBeLessThan(16_000);
    }
  });

  it('percent-encodes lone surrogates as their invalid UTF-8 bytes instead of throwing', () => {
    expect(encode('a\u0000b')).toBe('a%00b');
    expect(encode('\ud800')).toBe('%ED%A0%80');
    expect(encode('😀')).toBe('%F0%9F%98%80');
  });
});
