import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAPIProcessingError, processOpenAPISource, type OpenAPIFetchLimits } from './openapi-document.ts';

const PETSTORE = `openapi: 3.0.3
info: { title: Pets, version: '1.0' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'schemas/pet.yaml' }
`;
const PET = `type: object
properties:
  name: { type: string }
  tag: { $ref: './tag.yaml#/Tag' }
`;
const TAG = `Tag: { type: string }\n`;

const files: Record<string, string> = {
  '/api/openapi.yaml': PETSTORE,
  '/api/schemas/pet.yaml': PET,
  '/api/schemas/tag.yaml': TAG,
  '/swagger.json': JSON.stringify({ swagger: '2.0', info: { title: 'S', version: '1' }, paths: {} }),
  '/invalid.yaml': `openapi: 3.0.3\ninfo: { title: Broken }\npaths: {}\n`,
  '/loop.yaml': `openapi: 3.0.3\ninfo: { title: L, version: '1' }\npaths: {}\ncomponents:\n  schemas:\n    A: { $ref: 'a1.yaml' }\n`,
  '/a1.yaml': `{ $ref: 'a2.yaml' }`,
  '/a2.yaml': `{ $ref: 'a3.yaml' }`,
  '/a3.yaml': `{ type: string }`,
};

let server: Server;
let base: string;
const limits = (over: Partial<OpenAPIFetchLimits> = {}): OpenAPIFetchLimits => ({
  fetchTimeoutMs: 2_000,
  maxBytes: 1_000_000,
  maxFiles: 10,
  allowPrivate: true,
  allowPublic: true,
  ...over,
});
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof OpenAPIProcessingError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a failure');
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/slow') return void setTimeout(() => res.end(files['/swagger.json']), 1_500);
    const body = files[path];
    if (body === undefined) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': path.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('processOpenAPISource', () => {
  it('fetches a YAML document and the files its relative $refs reach into the filesystem', async () => {
    const out = await processOpenAPISource({ url: `${base}/api/openapi.yaml` }, limits());
    expect(out.filesystem.entrypoint).toBe('openapi.yaml');
    expect(Object.keys(out.filesystem.files).sort()).toEqual(['openapi.yaml', 'schemas/pet.yaml', 'schemas/tag.yaml']);
    expect(out.filesystem.files['schemas/tag.yaml']).toEqual({ Tag: { type: 'string' } });
    expect(out.entry).toMatchObject({ filename: 'openapi.yaml', contentType: 'application/yaml' });
    expect(out.entry.bytes.toString()).toBe(PETSTORE);
    expect(out.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await processOpenAPISource({ url: `${base}/api/openapi.yaml` }, limits())).hash).toBe(out.hash);
  });

  it('accepts Swagger 2.0 JSON and documents given as text', async () => {
    const out = await processOpenAPISource({ url: `${base}/swagger.json` }, limits());
    expect(out.entry.contentType).toBe('application/json');
    const text = await processOpenAPISource({ text: files['/swagger.json']! }, limits());
    expect(text.filesystem.entrypoint).toBe('openapi.json');
    expect(text.filesystem.files['openapi.json']).toMatchObject({ swagger: '2.0' });
  });

  it('answers PARSE_ERROR with the validator message for an invalid document', async () => {
    const f = await failure(processOpenAPISource({ url: `${base}/invalid.yaml` }, limits()));
    expect(f.code).toBe('PARSE_ERROR');
    expect(f.message).toMatch(/version/);
    expect((await failure(processOpenAPISource({ text: 'a: [unclosed' }, limits()))).code).toBe('PARSE_ERROR');
    expect((await failure(processOpenAPISource({ text: PETSTORE }, limits()))).message).toMatch(
      /relative.*given as text/,
    );
  });

  it('answers FETCH_ERROR for HTTP and network errors and FETCH_TIMEOUT for a slow server', async () => {
    const missing = await failure(processOpenAPISource({ url: `${base}/nope.yaml` }, limits()));
    expect(missing).toEqual({ code: 'FETCH_ERROR', message: `GET ${base}/nope.yaml answered HTTP 404` });
    expect((await failure(processOpenAPISource({ url: 'http://127.0.0.1:1/x.yaml' }, limits()))).code).toBe(
      'FETCH_ERROR',
    );
    expect((await failure(processOpenAPISource({ url: `${base}/slow` }, limits({ fetchTimeoutMs: 300 })))).code).toBe(
      'FETCH_TIMEOUT',
    );
    const loopback = await failure(
      processOpenAPISource({ url: `${base}/swagger.json` }, limits({ allowPrivate: false })),
    );
    expect(loopback.code).toBe('FETCH_ERROR');
    expect(loopback.message).toMatch(/loopback or private address/);
  });

  it('bounds the number of files and the bytes', async () => {
    expect(await failure(processOpenAPISource({ url: `${base}/loop.yaml` }, limits({ maxFiles: 3 })))).toEqual({
      code: 'PARSE_ERROR',
      message: 'The specification spans more than 3 files',
    });
    expect(
      (await processOpenAPISource({ url: `${base}/loop.yaml` }, limits({ maxFiles: 4 }))).filesystem.files['a3.yaml'],
    ).toEqual({ type: 'string' });
    expect(
      (
        await failure(
          processOpenAPISource({ url: `${base}/api/openapi.yaml` }, limits({ maxBytes: PETSTORE.length + 10 })),
        )
      ).code,
    ).toBe('FETCH_ERROR');
  });
});
