import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAPISpecContentSchema } from '@quire/contracts';
import { natsAvailable } from '@quire/kit/testing';
import { addUser, apiError, type Boot, bootstrap, type Seat, usePlatform } from './harness.ts';

const hasNats = await natsAvailable();

const spec = (version: string) =>
  `openapi: 3.0.3\ninfo: { title: Pets, version: '${version}' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok, content: { application/json: { schema: { $ref: 'schemas/pet.yaml' } } } }\n`;
const served: Record<string, string> = {
  '/openapi.yaml': spec('1'),
  '/schemas/pet.yaml': 'type: object\nproperties: { name: { type: string } }\n',
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served[new URL(req.url ?? '/', 'http://x').pathname];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Polls the specification until its processing ended (as a client would). */
async function untilComplete(api: GitBookAPI, org: string, slug: string, after = '') {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { data } = await api.orgs.getOpenApiSpecBySlug(org, slug);
    if (data.processingState === 'complete' && (data.lastProcessedAt ?? '') > after) return data;
    if (Date.now() > deadline) throw new Error(`${slug} still ${data.processingState}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each([
  { label: 'standalone', nats: false },
  ...(hasNats ? [{ label: 'JetStream job queue', nats: true }] : []),
])('OpenAPI specs through the gateway ($label)', ({ nats }) => {
  const p = usePlatform({ nats, env: { QUIRE_ALLOW_PRIVATE_FETCH: '1', QUIRE_OPENAPI_SCAN_EVERY_MS: '200' } });
  let acme: Boot;
  let beta: Boot;
  let rita: Seat;

  beforeAll(async () => {
    acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
    beta = await bootstrap(p, 'Beta', 'bob@beta.io', 'Bob');
    rita = await addUser(p, acme.organization.id, 'rita@acme.io', 'read');
  });

  it('creates, processes, versions and downloads a specification with the official client', async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const created = await api.orgs.createOpenApiSpec(org, { slug: 'pets', source: { url: `${base}/openapi.yaml` } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      processingState: 'pending',
      permissions: { view: true, edit: true },
    });
    expect(created.data.urls.location).toBe(`http://quire.test/v1/orgs/${org}/openapi/pets`);

    const done = await untilComplete(api, org, 'pets');
    expect(done.lastProcessErrorCode).toBeUndefined();
    const listed = await api.orgs.listOpenApiSpecs(org);
    expect(listed.data.items.map((s) => s.slug)).toEqual(['pets']);

    const latest = await api.orgs.getLatestOpenApiSpecVersion(org, 'pets');
    expect(latest.data).toMatchObject({
      object: 'openapi-spec-version',
      id: done.lastVersion,
      url: `${base}/openapi.yaml`,
    });
    const content = OpenAPISpecContentSchema.parse(
      (await api.orgs.getLatestOpenApiSpecVersionContent(org, 'pets')).data,
    );
    expect(Object.keys(content.filesystem.files).sort()).toEqual(['openapi.yaml', 'schemas/pet.yaml']);

    // The signed link downloads the stored document without the API token.
    const download = await fetch(content.url.replace('http://quire.test', p.url));
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(spec('1'));
    expect(download.headers.get('content-type')).toBe('application/yaml');

    // A changed document: PUT, processed again, a second version (newest first).
    served['/openapi.yaml'] = spec('2');
    const put = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'pets', {
      source: { url: `${base}/openapi.yaml` },
    });
    expect(put.status).toBe(200);
    const again = await untilComplete(api, org, 'pets', done.lastProcessedAt);
    expect(again.lastVersion).not.toBe(done.lastVersion);
    const versions = await api.orgs.listOpenApiSpecVersions(org, 'pets');
    expect(versions.data.items.map((v) => v.id)).toEqual([again.lastVersion, done.lastVersion]);
    const first = OpenAPISpecContentSchema.parse(
      (await api.orgs.getOpenApiSpecVersionContentById(org, 'pets', done.lastVersion!)).data,
    );
    expect(await (await fetch(first.url.replace('http://quire.test', p.url))).text()).toBe(spec('1'));
    expect((await api.orgs.getOpenApiSpecVersionById(org, 'pets', done.lastVersion!)).data.id).toBe(done.lastVersion);

    const deleted = await api.orgs.deleteOpenApiSpecBySlug(org, 'pets');
    expect(deleted.status).toBe(205);
    expect(await apiError(api.orgs.getOpenApiSpecBySlug(org, 'pets'))).toEqual({
      code: 404,
      message: 'OpenAPI specification not found',
    });
    served['/openapi.yaml'] = spec('1');
  });

  it('answers errors in the wire format: limits, duplicates, readers, other organizations', async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    await api.orgs.createOpenApiSpec(org, {
      slug: 'dup',
      source: { text: '{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{}}' },
    });
    expect(
      await apiError(api.orgs.createOpenApiSpec(org, { slug: 'dup', source: { url: `${base}/openapi.yaml` } })),
    ).toEqual({
      code: 409,
      message: 'An OpenAPI specification with the slug "dup" already exists in this organization',
    });
    const tooLong = await apiError(
      api.orgs.createOpenApiSpec(org, { slug: 'a'.repeat(101), source: { url: `${base}/openapi.yaml` } }),
    );
    expect(tooLong.code).toBe(400);
    expect(tooLong.message).toMatch(/^Invalid request: slug: /);
    expect(
      await apiError(
        p.client(rita.token).orgs.createOpenApiSpec(org, { slug: 'mine', source: { url: `${base}/openapi.yaml` } }),
      ),
    ).toEqual({
      code: 403,
      message: 'Creating an OpenAPI specification needs the `create` role in the organization',
    });
    expect((await p.client(rita.token).orgs.getOpenApiSpecBySlug(org, 'dup')).data.permissions).toEqual({
      view: true,
      edit: false,
    });
    expect(await apiError(p.client(beta.token).orgs.getOpenApiSpecBySlug(org, 'dup'))).toMatchObject({ code: 404 });
    expect(await apiError(p.client(beta.token).orgs.listOpenApiSpecs(org))).toMatchObject({ code: 404 });
    const raw = await fetch(`${p.url}/v1/orgs/${org}/openapi`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'ftp', source: { url: 'ftp://example.com/x.yaml' } }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: { code: 400, message: expect.stringMatching(/^Invalid request: source/) },
    });
  });
});
