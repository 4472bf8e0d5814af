import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { OpenAPISpec } from '../modules/openapi/openapi-spec.entity.ts';
import { contentService } from '../service.ts';
import { openAPISpecCreator, openAPISpecDeleter, openAPISpecUpserter } from './openapi-spec-writer.ts';

const ORG = 'openapi-writer';
const t = useTestService(contentService, loadContentConfig, { label: 'openapi-spec-writer' });
// The processing job would claim what these tests write: the rows are read as the commands left them.
beforeAll(() => t.svc.jobs?.stop());

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
/** The row as stored (its lazy source text loaded). */
const row = (slug: string) =>
  t
    .em()
    .fork()
    .findOne(OpenAPISpec, { organizationId: ORG, slug }, { populate: ['sourceText'] });
const url = (u: string) => ({ url: u });

describe('openAPISpecCreator', () => {
  it('creates a pending specification, and refuses a slug the organization already has (409)', async () => {
    await inTx((tx) =>
      openAPISpecCreator(tx, { organizationId: ORG, slug: 'petstore', source: { text: 'openapi: 3.0.0' } }),
    );
    expect(await row('petstore')).toMatchObject({
      processingState: 'pending',
      generation: 1,
      sourceUrl: null,
      sourceText: 'openapi: 3.0.0',
      lastVersionId: null,
    });
    const err = await failureOf(
      inTx((tx) =>
        openAPISpecCreator(tx, { organizationId: ORG, slug: 'petstore', source: url('https://x.test/a.yaml') }),
      ),
    );
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'conflict',
      message: 'An OpenAPI specification with the slug "petstore" already exists in this organization',
    });
    expect((await row('petstore'))?.sourceText).toBe('openapi: 3.0.0');
    // Another organization may use the slug.
    await inTx((tx) =>
      openAPISpecCreator(tx, { organizationId: 'other-org', slug: 'petstore', source: url('https://x.test') }),
    );
    expect(await t.em().count(OpenAPISpec, { slug: 'petstore' })).toBe(2);
  });
});

describe('openAPISpecUpserter', () => {
  it('creates the slug, then gives it each new source whole, pending again, a generation further', async () => {
    const put = (source: { url: string } | { text: string }) =>
      inTx((tx) => openAPISpecUpserter(tx, { organizationId: ORG, slug: 'upserted', source }));
    const created = await put(url('https://specs.test/v1.yaml'));
    expect(await row('upserted')).toMatchObject({
      id: created.id,
      generation: 1,
      sourceUrl: 'https://specs.test/v1.yaml',
    });
    await inTx(async (tx) => {
      const spec = await tx.findOneOrFail(OpenAPISpec, { id: created.id });
      Object.assign(spec, { processingState: 'complete' });
    });
    const again = await put({ text: 'swagger: "2.0"' });
    expect(again.id).toBe(created.id);
    expect(await row('upserted')).toMatchObject({
      processingState: 'pending',
      generation: 2,
      sourceUrl: null,
      sourceText: 'swagger: "2.0"',
      leaseUntil: null,
    });
  });

  it('lets identical PUTs of a new slug at once all succeed, on one specification', async () => {
    const put = () =>
      inTx((tx) =>
        openAPISpecUpserter(tx, { organizationId: ORG, slug: 'raced', source: url('https://specs.test/r.yaml') }),
      );
    const specs = await Promise.all([put(), put(), put(), put()]);
    expect(new Set(specs.map((s) => s.id)).size).toBe(1);
    expect(await t.em().count(OpenAPISpec, { organizationId: ORG, slug: 'raced' })).toBe(1);
    expect((await row('raced'))?.generation).toBe(4);
  });
});

describe('openAPISpecDeleter', () => {
  it('deletes the specification', async () => {
    const spec = await inTx((tx) =>
      openAPISpecCreator(tx, { organizationId: ORG, slug: 'doomed', source: url('https://specs.test/d.yaml') }),
    );
    await inTx(async (tx) => openAPISpecDeleter(tx, { spec: await tx.findOneOrFail(OpenAPISpec, { id: spec.id }) }));
    expect(await row('doomed')).toBeNull();
  });
});
