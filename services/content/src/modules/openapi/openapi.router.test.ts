import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Actor, type OpenAPISpec } from '@quire/contracts';
import { sql } from '@quire/kit';
import {
  createTestDatabase,
  eventually,
  expectReasons,
  failureOf,
  reasonOf,
  startTestService,
  type TestDatabase,
  userActor,
  useTestService,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';

const ORG = 'org1';
const admin = userActor('admin-user', [{ organization: ORG, role: 'admin' }]);
const creator = userActor('creator', [{ organization: ORG, role: 'create' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const guest = userActor('guest', [{ organization: ORG, role: null }]);
const stranger = userActor('stranger', [{ organization: 'org2', role: 'admin' }]);

const doc = (version: string) =>
  `openapi: 3.1.0\ninfo: { title: Pets, version: '${version}' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok, content: { application/json: { schema: { $ref: 'pet.yaml' } } } }\n`;
const files: Record<string, string> = {
  '/v1.yaml': doc('1'),
  '/pet.yaml': 'type: object\nproperties: { name: { type: string } }\n',
  '/broken.yaml': 'openapi: 3.1.0\npaths: {}\n',
};
const served: Record<string, string> = { '/live.yaml': doc('1') };

let server: Server;
let base: string;
const FETCH_TIMEOUT_MS = 400;
const env = {
  QUIRE_ALLOW_PRIVATE_FETCH: '1',
  QUIRE_OPENAPI_FETCH_TIMEOUT_MS: String(FETCH_TIMEOUT_MS),
  QUIRE_OPENAPI_SCAN_EVERY_MS: '100',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/slow.yaml') return void setTimeout(() => res.end(doc('slow')), FETCH_TIMEOUT_MS * 4);
    const body = served[path] ?? files[path];
    if (body === undefined) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const t = useTestService(contentService, loadContentConfig, { label: 'openapi', env });

/** The specification once its processing ended. */
const processed = (slug: string, org = ORG, as = admin) =>
  eventually(
    async () => {
      const s = await t.call(ops.getOpenAPISpecBySlug, { organizationId: org, specSlug: slug }, as);
      return s.processingState === 'complete' ? s : undefined;
    },
    10_000,
    `${slug} processed`,
  );

/** Processed after `after` (a PUT sets `pending`; the job may already have finished). */
const processedAfter = async (slug: string, after: OpenAPISpec) =>
  eventually(
    async () => {
      const s = await processed(slug);
      return s.lastProcessedAt && s.lastProcessedAt > (after.lastProcessedAt ?? '') ? s : undefined;
    },
    10_000,
    `${slug} processed again`,
  );

describe('OpenAPI specs', () => {
  it('processes a specification from a URL to complete, with its content and a signed download', async () => {
    const created = await t.call(
      ops.createOpenAPISpec,
      { organizationId: ORG, slug: 'pets', source: { url: `${base}/v1.yaml` } },
      creator,
    );
    expect(created).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      sourceURL: `${base}/v1.yaml`,
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
    });
    expect(created.urls.location).toBe('http://quire.test/v1/orgs/org1/openapi/pets');
    const spec = await processed('pets');
    expect(spec.lastVersion).toBeDefined();
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastProcessedAt).toBeDefined();

    const latest = await t.call(ops.getLatestOpenAPISpecVersion, { organizationId: ORG, specSlug: 'pets' }, reader);
    expect(latest).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion, url: `${base}/v1.yaml` });
    expect(
      await t.call(
        ops.getOpenAPISpecVersionById,
        { organizationId: ORG, specSlug: 'pets', versionId: latest.id },
        reader,
      ),
    ).toEqual(latest);

    const content = await t.call(
      ops.getLatestOpenAPISpecVersionContent,
      { organizationId: ORG, specSlug: 'pets' },
      reader,
    );
    expect(content.filesystem.entrypoint).toBe('v1.yaml');
    expect(content.filesystem.files['pet.yaml']).toEqual({ type: 'object', properties: { name: { type: 'string' } } });
    expect(content.filesystem.files['v1.yaml']).toMatchObject({ openapi: '3.1.0', info: { version: '1' } });
    expect(content.url).toMatch(/^http:\/\/quire\.test\/v1\/downloads\//);
    // The stored bytes are the document as fetched, content-addressed in the blob store.
    const key = (
      await sql<{ blob_key: string }>(t.em(), `select blob_key from :schema.openapi_spec_version where id = ?`, [
        latest.id,
      ])
    )[0]!.blob_key;
    expect((await t.svc.deps.blobs.get(key))?.bytes.toString()).toBe(files['/v1.yaml']);
    expect(
      await t.call(
        ops.getOpenAPISpecVersionContentById,
        { organizationId: ORG, specSlug: 'pets', versionId: latest.id },
        reader,
      ),
    ).toMatchObject({ filesystem: content.filesystem });

    const events = await t.outboxEvents('openapi-spec.processed');
    expect(events.map((e) => e.data)).toContainEqual({
      spec: spec.id,
      organization: ORG,
      slug: 'pets',
      version: latest.id,
      created: true,
    });
  });

  it('adds a version when a PUT brings a changed document, and none for an identical one', async () => {
    served['/live.yaml'] = doc('1');
    const put = await t.call(
      ops.createOrUpdateOpenAPISpecBySlug,
      { organizationId: ORG, specSlug: 'live', source: { url: `${base}/live.yaml` } },
      creator,
    );
    expect(put.processingState).toBe('pending');
    const first = await processed('live');

    const again = await t.call(
      ops.createOrUpdateOpenAPISpecBySlug,
      { organizationId: ORG, specSlug: 'live', source: { url: `${base}/live.yaml` } },
      creator,
    );
    expect(again.id).toBe(first.id);
    const unchanged = await processedAfter('live', first);
    expect(unchanged.lastVersion).toBe(first.lastVersion);
    expect((await t.call(ops.listOpenAPISpecVersions, { organizationId: ORG, specSlug: 'live' }, reader)).count).toBe(
      1,
    );

    served['/live.yaml'] = doc('2');
    await t.call(
      ops.createOrUpdateOpenAPISpecBySlug,
      { organizationId: ORG, specSlug: 'live', source: { url: `${base}/live.yaml` } },
      creator,
    );
    const changed = await processedAfter('live', unchanged);
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    const versions = await t.call(
      ops.listOpenAPISpecVersions,
      { organizationId: ORG, specSlug: 'live', limit: 1 },
      reader,
    );
    expect(versions.count).toBe(2);
    expect(versions.items.map((v) => v.id)).toEqual([changed.lastVersion]);
    const older = await t.call(
      ops.listOpenAPISpecVersions,
      { organizationId: ORG, specSlug: 'live', limit: 1, page: versions.next!.page },
      reader,
    );
    expect(older.items.map((v) => v.id)).toEqual([first.lastVersion]);
    expect(older.next).toBeUndefined();
    const events = (await t.outboxEvents('openapi-spec.processed')).filter(
      (e) => (e.data as { spec: string }).spec === first.id,
    );
    expect(events.map((e) => (e.data as { created: boolean }).created)).toEqual([true, false, true]);
  });

  it('processes a specification given as text', async () => {
    await t.call(
      ops.createOpenAPISpec,
      {
        organizationId: ORG,
        slug: 'texty',
        source: { text: '{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{}}' },
      },
      admin,
    );
    const spec = await processed('texty');
    expect(spec.sourceURL).toBeUndefined();
    const content = await t.call(
      ops.getLatestOpenAPISpecVersionContent,
      { organizationId: ORG, specSlug: 'texty' },
      admin,
    );
    expect(content.filesystem).toEqual({
      entrypoint: 'openapi.json',
      files: { 'openapi.json': { swagger: '2.0', info: { title: 'T', version: '1' }, paths: {} } },
    });
    const version = await t.call(ops.getLatestOpenAPISpecVersion, { organizationId: ORG, specSlug: 'texty' }, admin);
    expect(version.url).toBe(`${version.urls.location}/content`);
  });

  it('gives FETCH_ERROR, FETCH_TIMEOUT and PARSE_ERROR and keeps the last good version', async () => {
    const good = await (async () => {
      await t.call(
        ops.createOpenAPISpec,
        { organizationId: ORG, slug: 'flaky', source: { url: `${base}/v1.yaml` } },
        admin,
      );
      return processed('flaky');
    })();
    const cases = [
      { url: `${base}/missing.yaml`, code: 'FETCH_ERROR', message: `GET ${base}/missing.yaml answered HTTP 404` },
      {
        url: 'http://127.0.0.1:1/down.yaml',
        code: 'FETCH_ERROR',
        message: /Refusing to fetch http:\/\/127\.0\.0\.1:1\/down\.yaml: ECONNREFUSED/,
      },
      { url: `${base}/slow.yaml`, code: 'FETCH_TIMEOUT', message: /it timed out/ },
      { url: `${base}/broken.yaml`, code: 'PARSE_ERROR', message: /info/ },
    ] as const;
    let last = good;
    for (const c of cases) {
      await t.call(
        ops.createOrUpdateOpenAPISpecBySlug,
        { organizationId: ORG, specSlug: 'flaky', source: { url: c.url } },
        admin,
      );
      const failed = await processedAfter('flaky', last);
      expect(failed, c.url).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: c.code,
        lastVersion: good.lastVersion,
        lastProcessedErrorCount: 1,
        sourceURL: c.url,
      });
      expect(failed.lastProcessedErrors![0]!.message).toMatch(c.message);
      last = failed;
    }
    expect((await t.call(ops.getLatestOpenAPISpecVersion, { organizationId: ORG, specSlug: 'flaky' }, admin)).id).toBe(
      good.lastVersion,
    );
    expect((await t.outboxEvents('openapi-spec.failed')).map((e) => (e.data as { code: string }).code)).toEqual(
      cases.map((c) => c.code),
    );

    // Back to a good document: the error is gone, the version unchanged (same document).
    await t.call(
      ops.createOrUpdateOpenAPISpecBySlug,
      { organizationId: ORG, specSlug: 'flaky', source: { url: `${base}/v1.yaml` } },
      admin,
    );
    const healed = await processedAfter('flaky', last);
    expect(healed.lastProcessErrorCode).toBeUndefined();
    expect(healed.lastProcessedErrors).toBeUndefined();
    expect(healed.lastVersion).toBe(good.lastVersion);
  });

  it('has no version before the first processing succeeds', async () => {
    await t.call(
      ops.createOpenAPISpec,
      { organizationId: ORG, slug: 'never', source: { url: `${base}/missing.yaml` } },
      admin,
    );
    const spec = await processed('never');
    expect(spec.lastVersion).toBeUndefined();
    expect(
      (await failureOf(t.call(ops.getLatestOpenAPISpecVersion, { organizationId: ORG, specSlug: 'never' }, admin)))
        .message,
    ).toBe('OpenAPI specification version not found');
    expect(
      await reasonOf(t.call(ops.getLatestOpenAPISpecVersionContent, { organizationId: ORG, specSlug: 'never' }, admin)),
    ).toBe('not_found');
  });

  it('checks slugs, sources and limits', async () => {
    await t.call(
      ops.createOpenAPISpec,
      { organizationId: ORG, slug: 'taken', source: { url: `${base}/v1.yaml` } },
      admin,
    );
    const dup = await failureOf(
      t.call(ops.createOpenAPISpec, { organizationId: ORG, slug: 'taken', source: { url: `${base}/v1.yaml` } }, admin),
    );
    expect(dup).toMatchObject({
      reason: 'conflict',
      message: 'An OpenAPI specification with the slug "taken" already exists in this organization',
    });
    // The same slug in another organization is fine.
    await t.call(
      ops.createOpenAPISpec,
      { organizationId: 'org2', slug: 'taken', source: { url: `${base}/v1.yaml` } },
      stranger,
    );

    const bad = async (input: Record<string, unknown>) =>
      failureOf(
        t.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'ok', source: { url: `${base}/v1.yaml` }, ...input } as never,
          admin,
        ),
      );
    expect((await bad({ slug: 'Not_A_Slug' })).message).toMatch(/slug/);
    expect((await bad({ slug: 'x'.repeat(101) })).message).toMatch(/slug/);
    expect((await bad({ slug: '' })).message).toMatch(/slug/);
    expect((await bad({ source: { url: `https://example.com/${'a'.repeat(2048)}` } })).message).toMatch(/source/);
    expect((await bad({ source: { url: 'ftp://example.com/x.yaml' } })).message).toMatch(/source/);
    expect((await bad({ source: { text: '' } })).message).toMatch(/source/);
    expect((await bad({ source: {} })).reason).toBe('invalid_input');
    const longest = `${base}/${'a'.repeat(2048 - base.length - 1)}`;
    expect(
      (
        await t.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'longest-url', source: { url: longest } },
          admin,
        )
      ).sourceURL,
    ).toBe(longest);
    expect(
      (
        await t.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'x'.repeat(100), source: { url: `${base}/v1.yaml` } },
          admin,
        )
      ).slug,
    ).toHaveLength(100);
  });

  it('lists the specifications of an organization, paged', async () => {
    const org = 'org-list';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    for (const slug of ['one', 'two', 'three'])
      await t.call(ops.createOpenAPISpec, { organizationId: org, slug, source: { url: `${base}/v1.yaml` } }, a);
    const page1 = await t.call(ops.listOpenAPISpecs, { organizationId: org, limit: 2 }, a);
    expect(page1.count).toBe(3);
    expect(page1.items.map((s) => s.slug)).toEqual(['one', 'two']);
    const page2 = await t.call(ops.listOpenAPISpecs, { organizationId: org, limit: 2, page: page1.next!.page }, a);
    expect(page2.items.map((s) => s.slug)).toEqual(['three']);
    expect(page2.next).toBeUndefined();
  });

  it('answers every one of 8 PUTs at once on a new slug, and keeps one whole source when URLs and texts race', async () => {
    const put = (source: { url: string } | { text: string }) =>
      t.call(ops.createOrUpdateOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'raced', source }, creator);
    const same = await Promise.all(Array.from({ length: 8 }, () => put({ url: `${base}/v1.yaml` })));
    expect(new Set(same.map((s) => s.id)).size).toBe(1);
    expect(same.every((s) => s.sourceURL === `${base}/v1.yaml`)).toBe(true);
    // A URL and a text at once: an update writing only what differed from what it read once stored neither (a 500).
    const mixed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(i % 2 ? { url: `${base}/v1.yaml` } : { text: doc('2') })),
    );
    expect(new Set(mixed.map((s) => s.id))).toEqual(new Set([same[0]!.id]));
    const [row] = await sql<{ n: number; source_url: string | null; source_text: string | null }>(
      t.em(),
      `select count(*) over ()::int as n, source_url, source_text from :schema.openapi_spec where organization_id = ? and slug = 'raced'`,
      [ORG],
    );
    expect(row!.n).toBe(1);
    expect([row!.source_url, row!.source_text]).toContainEqual(null);
    expect(row!.source_url ?? row!.source_text).toBeTruthy();
  });

  it('lets readers read, create+ write, refuses guests (403) and hides from outsiders (404)', async () => {
    await t.call(
      ops.createOpenAPISpec,
      { organizationId: ORG, slug: 'guarded', source: { url: `${base}/v1.yaml` } },
      admin,
    );
    expect(
      (await t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'guarded' }, reader)).permissions,
    ).toEqual({ view: true, edit: false });
    await expectReasons('forbidden', [
      () =>
        t.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'nope', source: { url: `${base}/v1.yaml` } },
          reader,
        ),
      () =>
        t.call(
          ops.createOrUpdateOpenAPISpecBySlug,
          { organizationId: ORG, specSlug: 'guarded', source: { url: `${base}/v1.yaml` } },
          reader,
        ),
      () => t.call(ops.deleteOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'guarded' }, reader),
      () => t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'guarded' }, guest),
      () => t.call(ops.listOpenAPISpecs, { organizationId: ORG }, guest),
    ]);
    for (const slug of ['guarded', 'does-not-exist']) {
      await expectReasons('not_found', [
        () => t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: slug }, stranger),
        () => t.call(ops.listOpenAPISpecVersions, { organizationId: ORG, specSlug: slug }, stranger),
        () => t.call(ops.deleteOpenAPISpecBySlug, { organizationId: ORG, specSlug: slug }, stranger),
      ]);
    }
    expect(await reasonOf(t.call(ops.listOpenAPISpecs, { organizationId: ORG }, stranger))).toBe('not_found');
    expect(
      (await failureOf(t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'nope' }, admin))).message,
    ).toBe('OpenAPI specification not found');
  });

  it('deletes a specification with its versions', async () => {
    await t.call(
      ops.createOpenAPISpec,
      { organizationId: ORG, slug: 'doomed', source: { url: `${base}/v1.yaml` } },
      creator,
    );
    const spec = await processed('doomed');
    await t.call(ops.deleteOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'doomed' }, creator);
    expect(await reasonOf(t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'doomed' }, admin))).toBe(
      'not_found',
    );
    expect(await sql(t.em(), `select id from :schema.openapi_spec_version where spec_id = ?`, [spec.id])).toEqual([]);
    // The slug is free again.
    expect(
      (
        await t.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'doomed', source: { url: `${base}/v1.yaml` } },
          creator,
        )
      ).id,
    ).not.toBe(spec.id);
  });
});

describe("OpenAPI specs for a site's readers", () => {
  const block = (slug: string) =>
    `{% openapi-operation spec="${slug}" path="/pets" method="get" %}\n[OpenAPI ${slug}](gitbook-openapi:${slug})\n{% endopenapi-operation %}\n`;
  const readerOf = (space: string, claims: Record<string, unknown> = {}, organization = ORG) =>
    ({
      kind: 'reader',
      reader: { site: 'site1', organization, siteSpaces: [{ id: 'ss1', space }], claims: { ...claims, unsigned: {} } },
    }) satisfies Actor;
  const latest = (slug: string, as: Parameters<typeof t.call>[2]) =>
    t.call(ops.getLatestOpenAPISpecVersionContent, { organizationId: ORG, specSlug: slug }, as);

  it('reads a specification shown through a reusable content a page includes, evaluated against its claims', async () => {
    for (const slug of ['included', 'beta-only'])
      await t.call(ops.createOpenAPISpec, { organizationId: ORG, slug, source: { url: `${base}/v1.yaml` } }, admin);
    await processed('included');
    await processed('beta-only');
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'API docs' }, admin);
    const markdown = `${block('included')}\n{% if visitor.claims.beta %}\n${block('beta-only')}{% endif %}\n`;
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'insert_reusable_content', title: 'Reference', document: { markdown } }],
      'admin-user',
    );
    const rc = (await t.call(ops.getRevisionOfChangeRequestById, { spaceId: space.id, changeRequestId: cr.id }, admin))
      .reusableContents[0]!.id;
    await editContent(
      t,
      space.id,
      cr.id,
      [
        {
          operation: 'insert_page',
          title: 'Reference',
          document: { markdown: `See below.\n\n{% include "${rc}" %}\n` },
        },
      ],
      'admin-user',
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);

    expect((await latest('included', readerOf(space.id))).filesystem.entrypoint).toBeTruthy();
    expect(await reasonOf(latest('beta-only', readerOf(space.id)))).toBe('not_found');
    expect((await latest('beta-only', readerOf(space.id, { beta: true }))).filesystem.entrypoint).toBeTruthy();
    // A reader of another site (its site spaces show another space) or of another organization: 404.
    expect(await reasonOf(latest('included', readerOf('elsewhere')))).toBe('not_found');
    expect(await reasonOf(latest('included', readerOf(space.id, {}, 'org2')))).toBe('not_found');
    // Other reads of specifications are a member's.
    const bySlug = t.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'included' }, readerOf(space.id));
    expect(await reasonOf(bySlug)).toBe('forbidden');
  });
});

describe('OpenAPI processing across restarts and without private fetches', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('openapi_restart');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('completes a specification a stopped process left in progress', async () => {
    // A first process takes the specification; it is stopped before processing ends.
    const first = await startTestService(contentService, loadContentConfig, db, {
      env: { ...env, QUIRE_OPENAPI_SCAN_EVERY_MS: '3600000' },
    });
    let id: string;
    try {
      id = (
        await first.call(
          ops.createOpenAPISpec,
          { organizationId: ORG, slug: 'resumed', source: { url: `${base}/v1.yaml` } },
          admin,
        )
      ).id;
      // What a process killed mid-job leaves: `progress`, its lease lapsed (no process renews it).
      await sql(
        first.em(),
        `update :schema.openapi_spec set processing_state = 'progress', lease_until = now() - interval '1 second' where id = ?`,
        [id],
      );
    } finally {
      await first.close();
    }
    const second = await startTestService(contentService, loadContentConfig, db, { env });
    try {
      const spec = await eventually(async () => {
        const s = await second.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'resumed' }, admin);
        return s.processingState === 'complete' ? s : undefined;
      }, 10_000);
      expect(spec.id).toBe(id);
      expect(spec.lastProcessErrorCode).toBeUndefined();
      expect(spec.lastVersion).toBeDefined();
    } finally {
      await second.close();
    }
  });

  it('refuses loopback URLs unless QUIRE_ALLOW_PRIVATE_FETCH=1 (FETCH_ERROR with the reason)', async () => {
    const svc = await startTestService(contentService, loadContentConfig, db, {
      env: { QUIRE_OPENAPI_SCAN_EVERY_MS: '100' },
    });
    try {
      await svc.call(
        ops.createOpenAPISpec,
        { organizationId: ORG, slug: 'private', source: { url: `${base}/v1.yaml` } },
        admin,
      );
      const spec = await eventually(async () => {
        const s = await svc.call(ops.getOpenAPISpecBySlug, { organizationId: ORG, specSlug: 'private' }, admin);
        return s.processingState === 'complete' ? s : undefined;
      }, 10_000);
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.lastProcessedErrors![0]!.message).toMatch(
        /resolves to a loopback or private address; set QUIRE_ALLOW_PRIVATE_FETCH=1/,
      );
    } finally {
      await svc.close();
    }
  });
});
