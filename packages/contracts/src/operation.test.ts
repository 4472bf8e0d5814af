import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, EmptySchema, MAX_PAGE_SIZE, PageQueryShape, queryBoolean, queryNumber } from './common.ts';
import { operationsOf, SERVICES, VERBS, type HttpMethod } from './operation.ts';
import { ALL_OPERATIONS, HTTP_OPERATIONS, ServiceOperations } from './registry.ts';

const sites = operationsOf('sites', { tags: ['test'] });

describe('operationsOf', () => {
  it('throws when a path parameter is not an input field', () => {
    expect(() =>
      sites({
        id: 'spaces.get',
        input: z.object({ spaceId: z.string() }),
        output: EmptySchema,
        http: { route: 'GET /orgs/{organizationId}/spaces/{spaceId}', operationId: 'testOp', summary: 'Test' },
      }),
    ).toThrow('spaces.get: path parameter {organizationId} is not an input field');
  });

  it('binds the route, the builder service and tags, the default status and access', () => {
    const op = sites({
      id: 'spaces.get',
      input: z.object({ organizationId: z.string(), spaceId: z.string() }),
      output: EmptySchema,
      http: { route: 'GET /orgs/{organizationId}/spaces/{spaceId}', operationId: 'testOp', summary: 'Test' },
    });
    expect(op).toMatchObject({
      id: 'spaces.get',
      service: 'sites',
      access: 'user',
      type: 'query',
      http: { method: 'GET', path: '/orgs/{organizationId}/spaces/{spaceId}', status: 200, tags: ['test'] },
    });
    const created = sites({
      id: 'spaces.create',
      input: EmptySchema,
      output: EmptySchema,
      http: { route: 'POST /x', status: 201, operationId: 'x', summary: 'X', tags: ['other'] },
    });
    expect(created.http).toMatchObject({ status: 201, tags: ['other'] });
  });

  it('makes GET operations queries and the other methods mutations', () => {
    const typeOf = (method: HttpMethod) =>
      sites({
        id: 'x.get',
        input: EmptySchema,
        output: EmptySchema,
        http: { route: `${method} /x`, operationId: 'x', summary: 'X' },
      }).type;
    expect(typeOf('GET')).toBe('query');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) expect(typeOf(method)).toBe('mutation');
  });

  it('defaults operations without HTTP to queries, and an explicit type wins', () => {
    expect(sites({ id: 'internal.get', access: 'internal', input: EmptySchema, output: EmptySchema }).type).toBe(
      'query',
    );
    expect(
      sites({ id: 'internal.update', access: 'internal', input: EmptySchema, output: EmptySchema, type: 'mutation' })
        .type,
    ).toBe('mutation');
  });

  it('refuses operation ids outside <noun>.<verb>[Qualifier]', () => {
    for (const id of ['spaces.remove', 'spaces', 'Spaces.get', 'spaces.getter', 'spaces.get_it']) {
      expect(() => sites({ id: id as 'x.get', input: EmptySchema, output: EmptySchema }), id).toThrow(/operation id/);
    }
    for (const id of ['spaces.get', 'spaces.listInOrg', 'members.updateSso'])
      expect(sites({ id: id as 'x.get', input: EmptySchema, output: EmptySchema }).id).toBe(id);
  });
});

describe('operation registry', () => {
  it('has every service and at least one HTTP operation', () => {
    expect(Object.keys(ServiceOperations).sort()).toEqual([...SERVICES].sort());
    expect(HTTP_OPERATIONS.length).toBeGreaterThan(0);
    expect(HTTP_OPERATIONS.every((op) => op.access !== 'internal')).toBe(true);
  });

  it('files each operation under its own service', () => {
    for (const [service, ops] of Object.entries(ServiceOperations)) {
      for (const op of Object.values(ops)) expect(op.service, op.id).toBe(service);
    }
  });

  it('names every operation <noun>.<verb>[Qualifier] with one of the verbs', () => {
    for (const op of ALL_OPERATIONS)
      expect(
        VERBS.some((v) => new RegExp(`^[a-z][a-zA-Z]*\\.${v}([A-Z]\\w*)?$`).test(op.id)),
        op.id,
      ).toBe(true);
  });

  it('has unique operation ids within each service', () => {
    for (const service of SERVICES) {
      const ids = ALL_OPERATIONS.filter((op) => op.service === service).map((op) => op.id);
      expect(new Set(ids).size, `${service}: ${ids.join(', ')}`).toBe(ids.length);
    }
  });

  it('routes each method and /v1 path to one operation only', () => {
    const seen = new Map<string, string>();
    for (const op of ALL_OPERATIONS) {
      if (!op.http) continue;
      expect(op.http.path, op.id).toMatch(/^\//);
      expect(op.http.path, op.id).not.toMatch(/^\/v1(\/|$)/);
      // `/orgs/{organizationId}` and `/orgs/{orgId}` are the same route.
      const key = `${op.http.method} /v1${op.http.path.replace(/\{\w+\}/g, '{}').replace(/\/$/, '')}`;
      expect(seen.get(key), `${key} is served by both ${seen.get(key)} and ${op.id}`).toBeUndefined();
      seen.set(key, op.id);
    }
    expect(seen.size).toBe(ALL_OPERATIONS.filter((op) => op.http).length);
  });

  it('has unique GitBook operationIds', () => {
    const ids = ALL_OPERATIONS.flatMap((op) => (op.http ? [op.http.operationId] : []));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names only input fields as path parameters', () => {
    for (const op of ALL_OPERATIONS) {
      if (!op.http) continue;
      for (const [, name] of op.http.path.matchAll(/\{(\w+)\}/g))
        expect(Object.keys(op.input.shape), `${op.id} {${name}}`).toContain(name);
    }
  });
});

describe('query parameter schemas', () => {
  const flag = queryBoolean('A flag');

  it('parses the query strings `true` and `false` to booleans', () => {
    expect(flag.parse('true')).toBe(true);
    expect(flag.parse('false')).toBe(false);
    expect(flag.parse(false)).toBe(false);
    expect(flag.parse(true)).toBe(true);
  });

  it('rejects other strings as booleans', () => {
    for (const v of ['1', '0', 'yes', '', 'FALSE']) expect(flag.safeParse(v).success, JSON.stringify(v)).toBe(false);
  });

  it('parses number strings to numbers and rejects non-numbers', () => {
    const n = queryNumber(z.number().int().min(0));
    expect(n.parse('12')).toBe(12);
    expect(n.parse(12)).toBe(12);
    expect(n.safeParse('abc').success).toBe(false);
    expect(n.safeParse('').success).toBe(false);
    expect(n.safeParse('1.5').success).toBe(false);
    expect(n.safeParse('-1').success).toBe(false);
  });

  it('bounds the page size', () => {
    const page = z.object(PageQueryShape);
    expect(page.parse({ limit: '12' })).toEqual({ limit: 12 });
    expect(page.parse({ limit: String(MAX_PAGE_SIZE) })).toEqual({ limit: MAX_PAGE_SIZE });
    expect(page.parse({ limit: '0' })).toEqual({ limit: 0 });
    expect(page.parse({})).toEqual({});
    expect(page.safeParse({ limit: String(MAX_PAGE_SIZE + 1) }).success).toBe(false);
    expect(page.safeParse({ limit: 'abc' }).success).toBe(false);
    expect(page.safeParse({ limit: '-1' }).success).toBe(false);
    expect(page.parse({ page: 'cursor-1', limit: '5' })).toEqual({ page: 'cursor-1', limit: 5 });
    expect(page.safeParse({ page: '' }).success).toBe(false);
    expect(MAX_PAGE_SIZE).toBe(1000);
    expect(DEFAULT_PAGE_SIZE).toBeLessThanOrEqual(MAX_PAGE_SIZE);
  });
});
