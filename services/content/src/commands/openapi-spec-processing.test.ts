import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { OpenAPISpec, OpenAPISpecVersion } from '../modules/openapi/openapi-spec.entity.ts';
import type { OpenAPIClaim } from '../modules/openapi/openapi-spec.repository.ts';
import { contentService } from '../service.ts';
import {
  openAPIResultRecorder,
  openAPISpecClaimer,
  openAPISpecLeaseRenewer,
  type OpenAPIOutcome,
} from './openapi-spec-processing.ts';
import { openAPISpecCreator, openAPISpecDeleter, openAPISpecUpserter } from './openapi-spec-writer.ts';

const ORG = 'openapi-processing';
const t = useTestService(contentService, loadContentConfig, { label: 'openapi-spec-processing' });
// The processing job is stopped: the test claims and records as it would.
beforeAll(() => t.svc.jobs?.stop());

const LEASE_MS = 60_000;
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const create = (slug: string, text = 'openapi: 3.0.0') =>
  inTx((tx) => openAPISpecCreator(tx, { organizationId: ORG, slug, source: { text } }));
const upsert = (slug: string, url: string) =>
  inTx((tx) => openAPISpecUpserter(tx, { organizationId: ORG, slug, source: { url } }));
const claim = (now = new Date()) => inTx((tx) => openAPISpecClaimer(tx, { now, leaseMs: LEASE_MS }));
const record = (c: OpenAPIClaim, outcome: OpenAPIOutcome) =>
  inTx((tx) => openAPIResultRecorder(tx, { claim: c, outcome }));
const stored = (id: string) => t.em().findOneOrFail(OpenAPISpec, { id }, { refresh: true });
const versionsOf = (specId: string) => t.em().find(OpenAPISpecVersion, { specId }, { orderBy: { createdAt: 'asc' } });
const eventsOf = async (type: string, spec: string) =>
  (await t.outboxEvents(type)).map((e) => e.data as Record<string, unknown>).filter((d) => d.spec === spec);
const document = (hash: string): OpenAPIOutcome => ({
  ok: true,
  hash,
  blobKey: `blob-${hash}`,
  filename: 'openapi.yaml',
  contentType: 'application/yaml',
  filesystem: { entrypoint: 'openapi.yaml', files: {} },
});

describe('openAPISpecClaimer and openAPISpecLeaseRenewer', () => {
  it('claims a pending specification once, holds it while its lease runs, and claims it again once the lease lapsed', async () => {
    const spec = await create('claimed', 'openapi: 3.1.0');
    const now = new Date();
    const first = await claim(now);
    expect(first).toEqual({
      id: spec.id,
      organizationId: ORG,
      slug: 'claimed',
      generation: 1,
      sourceUrl: null,
      sourceText: 'openapi: 3.1.0',
      lastVersionId: null,
    });
    expect(await stored(spec.id)).toMatchObject({ processingState: 'progress', leaseUntil: expect.any(Date) });
    expect((await stored(spec.id)).leaseUntil!.getTime()).toBe(now.getTime() + LEASE_MS);
    expect(await claim(new Date(now.getTime() + LEASE_MS - 1))).toBeNull();
    // Its process stopped: the lease lapses and another claims it.
    const again = await claim(new Date(now.getTime() + LEASE_MS + 1));
    expect(again?.id).toBe(spec.id);
    expect(await inTx((tx) => openAPISpecLeaseRenewer(tx, { claim: again!, leaseMs: LEASE_MS }))).toBe(true);
    await record(again!, document('h-claimed'));
    expect(await claim()).toBeNull();
  });

  it('drops the result of a claim whose source changed meanwhile, and renews it no more', async () => {
    const spec = await create('changed');
    const c = (await claim())!;
    expect(c.id).toBe(spec.id);
    await upsert('changed', 'https://specs.example.test/v2.yaml');
    expect(await inTx((tx) => openAPISpecLeaseRenewer(tx, { claim: c, leaseMs: LEASE_MS }))).toBe(false);
    expect(await record(c, document('h-old'))).toBeNull();
    expect(await versionsOf(spec.id)).toEqual([]);
    expect(await eventsOf('openapi-spec.processed', spec.id)).toEqual([]);
    // The new source waits for its own processing.
    const next = (await claim())!;
    expect(next).toMatchObject({ id: spec.id, generation: 2, sourceUrl: 'https://specs.example.test/v2.yaml' });
    await record(next, document('h-new'));
    expect((await versionsOf(spec.id)).map((v) => v.sourceUrl)).toEqual(['https://specs.example.test/v2.yaml']);
  });
});

describe('openAPIResultRecorder', () => {
  it('records a new version only when the document changed, and says whether it created one', async () => {
    const spec = await create('versions');
    await record((await claim())!, document('h1'));
    const [v1] = await versionsOf(spec.id);
    expect(v1).toMatchObject({ hash: 'h1', blobKey: 'blob-h1', filename: 'openapi.yaml' });
    expect(await stored(spec.id)).toMatchObject({
      processingState: 'complete',
      leaseUntil: null,
      lastVersionId: v1!.id,
      lastProcessErrorCode: null,
    });
    await upsert('versions', 'https://specs.example.test/same.yaml');
    await record((await claim())!, document('h1'));
    await upsert('versions', 'https://specs.example.test/other.yaml');
    await record((await claim())!, document('h2'));
    const versions = await versionsOf(spec.id);
    expect(versions.map((v) => v.hash)).toEqual(['h1', 'h2']);
    expect((await stored(spec.id)).lastVersionId).toBe(versions[1]!.id);
    expect(await eventsOf('openapi-spec.processed', spec.id)).toEqual([
      { spec: spec.id, organization: ORG, slug: 'versions', version: v1!.id, created: true },
      { spec: spec.id, organization: ORG, slug: 'versions', version: v1!.id, created: false },
      { spec: spec.id, organization: ORG, slug: 'versions', version: versions[1]!.id, created: true },
    ]);
  });

  it('records a failure with its code and message, keeping the last good version', async () => {
    const spec = await create('failing');
    await record((await claim())!, document('good'));
    const [good] = await versionsOf(spec.id);
    await upsert('failing', 'https://specs.example.test/broken.yaml');
    await record((await claim())!, { ok: false, code: 'PARSE_ERROR', message: 'not an OpenAPI document' });
    expect(await stored(spec.id)).toMatchObject({
      processingState: 'complete',
      leaseUntil: null,
      lastVersionId: good!.id,
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessErrorMessage: 'not an OpenAPI document',
    });
    expect(await eventsOf('openapi-spec.failed', spec.id)).toEqual([
      { spec: spec.id, organization: ORG, slug: 'failing', code: 'PARSE_ERROR', message: 'not an OpenAPI document' },
    ]);
    // The next success clears the error.
    await upsert('failing', 'https://specs.example.test/fixed.yaml');
    await record((await claim())!, document('fixed'));
    expect(await stored(spec.id)).toMatchObject({ lastProcessErrorCode: null, lastProcessErrorMessage: null });
  });

  it('drops the result for a specification deleted while it was processed', async () => {
    const spec = await create('deleted');
    const c = (await claim())!;
    await inTx(async (tx) => openAPISpecDeleter(tx, { spec: await tx.findOneOrFail(OpenAPISpec, { id: spec.id }) }));
    expect(await record(c, document('gone'))).toBeNull();
    expect(await t.em().count(OpenAPISpecVersion, { specId: spec.id })).toBe(0);
    expect(await eventsOf('openapi-spec.processed', spec.id)).toEqual([]);
  });
});
