import { beforeAll, describe, expect, it } from 'vitest';
import { newId, type EntityManager } from '@quire/kit';
import { buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { PdfExport, type IPdfExport, type PdfExportKey } from '../modules/pdf/pdf-export.entity.ts';
import { PDF_MAX_ATTEMPTS } from '../modules/pdf/pdf-export.repository.ts';
import { contentService } from '../service.ts';
import { pdfExportClaimer, pdfExportFinisher, pdfExportLeaseRenewer, pdfExportRequester } from './pdf-export-writer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'pdf-export-writer' });
// The rendering job would claim what these tests request: they claim and finish as it would.
beforeAll(() => t.svc.jobs?.stop());

const LEASE_MS = 60_000;
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const t0 = new Date('2032-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
/** The key of a whole space's export (a real space: exports go with their space). */
const keyOf = async (): Promise<PdfExportKey> => ({
  spaceId: (await buildSpace(t, { org: 'pdf-exports' })).id,
  revisionId: newId(),
  changeRequestId: '',
  pageId: '',
  onlyPage: false,
});
const request = (key: PdfExportKey, now = t0) => inTx((tx) => pdfExportRequester(tx, { key, now }));
const claim = (exportId: string | undefined, now: Date) =>
  inTx((tx) => pdfExportClaimer(tx, { ...(exportId ? { exportId } : {}), leaseMs: LEASE_MS, now }));
const finish = (c: IPdfExport, outcome: Parameters<typeof pdfExportFinisher>[1]['outcome'], now = t0) =>
  inTx((tx) => pdfExportFinisher(tx, { claim: c, outcome, now }));
const stored = (id: string) => t.em().fork().findOneOrFail(PdfExport, { id });
const ready = { state: 'ready' as const, blobKey: 'b'.repeat(64), size: 1234, pages: 3, renderMs: 50 };

describe('pdfExportRequester', () => {
  it('adds one pending export per key, found again by the next requests', async () => {
    const key = await keyOf();
    const [a, b] = await Promise.all([request(key), request(key)]);
    expect(a.id).toBe(b.id);
    expect(await stored(a.id)).toMatchObject({ ...key, state: 'pending', attempts: 0 });
    expect(await t.em().count(PdfExport, { spaceId: key.spaceId })).toBe(1);
    expect((await request({ ...key, onlyPage: true })).id).not.toBe(a.id);
  });

  it('puts a failed export back to pending for a new try, and leaves a ready one as it is', async () => {
    const failedKey = await keyOf();
    const e = await request(failedKey);
    await finish((await claim(e.id, t0))!, { state: 'failed', error: 'boom' });
    expect(await request(failedKey, at(1))).toMatchObject({ id: e.id, state: 'pending', attempts: 0, error: null });
    const readyKey = await keyOf();
    const r = await request(readyKey);
    await finish((await claim(r.id, t0))!, ready);
    expect(await request(readyKey, at(1))).toMatchObject({ id: r.id, state: 'ready', blobKey: ready.blobKey });
  });
});

describe('pdfExportClaimer, pdfExportLeaseRenewer and pdfExportFinisher', () => {
  it('claims an export once while its lease runs, renews it, and records its end', async () => {
    const e = await request(await keyOf());
    const c = (await claim(e.id, t0))!;
    expect(c).toMatchObject({ id: e.id, state: 'progress', attempts: 1 });
    expect((await stored(e.id)).leaseUntil).toEqual(at(LEASE_MS));
    expect(await claim(e.id, at(1))).toBeNull();
    expect(await inTx((tx) => pdfExportLeaseRenewer(tx, { claim: c, leaseMs: LEASE_MS, now: at(10) }))).toBe(true);
    expect((await stored(e.id)).leaseUntil).toEqual(at(10 + LEASE_MS));
    expect(await finish(c, ready, at(20))).toBe(true);
    expect(await stored(e.id)).toMatchObject({
      state: 'ready',
      leaseUntil: null,
      size: 1234,
      pages: 3,
      renderedAt: at(20),
    });
    expect(await claim(e.id, at(30))).toBeNull();
  });

  it("drops the result of a claim lost to another claimer once its lease lapsed (the other's result stands)", async () => {
    const e = await request(await keyOf());
    const first = (await claim(e.id, t0))!;
    const second = (await claim(e.id, at(LEASE_MS + 1)))!;
    expect(second.attempts).toBe(2);
    expect(
      await inTx((tx) => pdfExportLeaseRenewer(tx, { claim: first, leaseMs: LEASE_MS, now: at(LEASE_MS + 2) })),
    ).toBe(false);
    expect(await finish(first, { state: 'failed', error: 'late' })).toBe(false);
    expect(await finish(second, ready)).toBe(true);
    expect((await stored(e.id)).state).toBe('ready');
  });

  it(`fails an export whose render stopped ${PDF_MAX_ATTEMPTS} times, and claims the one waiting longest`, async () => {
    // Exports left by the tests above, still waiting, are finished first: the job claims in order.
    for (let c = await claim(undefined, at(10 * LEASE_MS)); c; c = await claim(undefined, at(10 * LEASE_MS)))
      await finish(c, ready, at(10 * LEASE_MS));
    const e = await request(await keyOf(), at(20 * LEASE_MS));
    let now = 20 * LEASE_MS;
    for (let i = 1; i <= PDF_MAX_ATTEMPTS; i++) {
      now += 2 * LEASE_MS;
      expect((await claim(undefined, at(now)))?.id).toBe(e.id);
    }
    now += 2 * LEASE_MS;
    expect(await claim(undefined, at(now))).toBeNull();
    expect(await stored(e.id)).toMatchObject({
      state: 'failed',
      error: `the rendering stopped before its end ${PDF_MAX_ATTEMPTS} times`,
    });
  });
});
