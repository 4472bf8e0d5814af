import { describe, expect, it } from 'vitest';
import { ops, type ContentChange } from '@quire/contracts';
import { ActorSigner, DownloadSigner, sql, type DownloadClaims, type StoredBlob } from '@quire/kit';
import { buildSpace, failureOf, pdfText, png, TEST_SECRET, userActor, useTestService } from '@quire/kit/testing';
import { pdfExportClaimer } from '../../commands/pdf-export-writer.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { loadContentConfig } from '../../env.ts';
import { renderWaitingPdfExports } from '../../jobs/pdf-render.job.ts';
import { contentService } from '../../service.ts';
import { PDF_MAX_ATTEMPTS, pdfExportRepository } from './pdf-export.repository.ts';
import { exportPdf, renderClaimedExport, rendererOf, type PdfExportDeps } from './pdf-exporter.ts';
import { loadPdfRequestFor, loadPdfRequestOf } from './pdf.loader.ts';

const ORG = 'org1';
const ADMIN_ID = 'admin-user';
const admin = userActor(ADMIN_ID, [{ organization: ORG, role: 'admin' }]);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const guest = userActor('guest', [{ organization: ORG, role: null }]);
const stranger = userActor('stranger', [{ organization: 'org2', role: 'admin' }]);

// Up to 3 pages render while the request waits; the job runs at start only, so the tests render the rest themselves.
const t = useTestService(contentService, loadContentConfig, {
  label: 'pdf',
  env: {
    QUIRE_PDF_INLINE_MAX_PAGES: '3',
    QUIRE_PDF_SCAN_EVERY_MS: '3600000',
    QUIRE_PDF_LINK_WAIT_MS: '0',
    QUIRE_PDF_INLINE_WAIT_MS: '120000',
  },
});

const signer = new DownloadSigner(TEST_SECRET);
const actorHeader = async () =>
  (await new ActorSigner(TEST_SECRET).sign({ kind: 'service', service: 'gateway' })).header;
const claimsOf = async (url: string): Promise<DownloadClaims> => {
  const claims = await signer.verifyDownload(url.split('/v1/downloads/')[1]!);
  if (typeof claims !== 'object') throw new Error(`link ${claims}`);
  return claims;
};
/** What following a PDF link gives, as the gateway sees it: the blob, "pending", or null. */
async function follow(url: string): Promise<StoredBlob | 'pending' | null> {
  const claims = await claimsOf(url);
  expect(claims).toMatchObject({ service: 'content', contentType: 'application/pdf' });
  if (claims.key !== undefined) return t.svc.invoker.readBlob(claims.key, { actorHeader: await actorHeader() });
  const read = await t.svc.invoker.readDeferred(claims.ref, { actorHeader: await actorHeader() });
  return read && ('pending' in read ? 'pending' : read.blob);
}
const textOf = async (url: string) => {
  const blob = await follow(url);
  if (!blob || blob === 'pending') throw new Error(`no PDF behind ${url}`);
  expect(blob.contentType).toBe('application/pdf');
  return (await pdfText(blob.bytes)).text.replace(/\s+/g, ' ');
};
const deps = (): PdfExportDeps => ({
  em: t.em(),
  blobs: t.svc.deps.blobs,
  urls: { base: 'http://quire.test', api: (p) => `http://quire.test/v1${p}`, page: (p) => `http://quire.test${p}` },
  config: t.svc.deps.config as PdfExportDeps['config'],
  log: t.svc.deps.log,
});
const exports = (spaceId: string) =>
  sql<{
    id: string;
    state: string;
    revision_id: string;
    page_id: string;
    only_page: boolean;
    pages: number | null;
    size: string | null;
  }>(t.em(), `select * from :schema.pdf_export where space_id = ? order by created_at, id`, [spaceId]);

/**
 * A change request of the space with `changes`, written by the commands the API runs (the API's answer
 * presents the change request with its author, which asks org-admin: not running here).
 */
const draft = (spaceId: string, changes: ContentChange[]) =>
  editContent(t, spaceId, undefined, changes, ADMIN_ID, { subject: 'Edits' });

/**
 * A space whose live revision holds `files`, then `pages` (`into` nests under a `ref`; `gitbook-file:{name}`
 * in their markdown names a file), each batch through a merged change request.
 */
async function spaceWith(
  pages: { title: string; markdown: string; ref?: string; into?: string; hidden?: boolean }[],
  files: { name: string; base64: string }[] = [],
) {
  const space = await buildSpace(t, { org: ORG, as: admin, title: 'Handbook Ελληνικά' });
  const fileIds: Record<string, string> = {};
  if (files.length) {
    const added = await draft(space.id, [
      { operation: 'insert_files', files: files.map((f) => ({ ...f, contentType: 'image/png' })) },
    ]);
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: added.id }, admin);
    for (const f of (await t.call(ops.listFiles, { spaceId: space.id }, admin)).items) fileIds[f.name] = f.id;
  }
  const withFiles = (markdown: string) =>
    markdown.replace(/gitbook-file:\{(.+?)\}/g, (_, name: string) => `gitbook-file:${fileIds[name]}`);
  const cr = await draft(
    space.id,
    pages.map((p) => ({
      operation: 'insert_page' as const,
      title: p.title,
      ref: p.ref,
      into: p.into,
      hidden: p.hidden,
      document: { markdown: withFiles(p.markdown) },
    })),
  );
  await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
  const tree = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages;
  const ids: Record<string, string> = {};
  const visit = (list: typeof tree) => {
    for (const p of list) {
      ids[p.title] = p.id;
      if ('pages' in p) visit(p.pages as typeof tree);
    }
  };
  visit(tree);
  return { space, ids };
}

describe('PDF export of a space', () => {
  it('renders a small space while the request waits: a signed link to the PDF, cached by revision', async () => {
    const { space, ids } = await spaceWith(
      [
        {
          title: 'Welcome',
          ref: 'welcome',
          markdown: 'Καλημέρα κόσμε and Привет, мир.\n\n![Red](gitbook-file:{red.png} "A red box")\n',
        },
        { title: 'Install', into: 'welcome', markdown: 'Run **the installer**. See [the welcome](./welcome.md).\n' },
      ],
      [{ name: 'red.png', base64: png(40, 20).toString('base64') }],
    );
    const { url } = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    expect(url).toMatch(/^http:\/\/quire\.test\/v1\/downloads\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = await claimsOf(url);
    expect(claims.key).toMatch(/^[0-9a-f]{64}$/);
    expect(claims.filename).toBe('Handbook Ελληνικά.pdf');
    expect(claims.expiresAt - Date.now()).toBeGreaterThan(3590_000);
    const text = await textOf(url);
    for (const words of [
      'Handbook Ελληνικά',
      'Contents',
      'Welcome',
      'Καλημέρα κόσμε and Привет, мир.',
      'Run the installer. See the welcome.',
      'A red box',
    ])
      expect(text).toContain(words);
    // The image is embedded: an image XObject in the file.
    const blob = (await follow(url)) as StoredBlob;
    expect(blob.bytes.includes('/Subtype /Image')).toBe(true);

    // Same revision, same options: the same file (one export, no second render).
    const again = await t.call(ops.getSpacePDF, { spaceId: space.id }, admin);
    expect((await claimsOf(again.url)).key).toBe(claims.key);
    const rows = await exports(space.id);
    expect(rows).toEqual([expect.objectContaining({ state: 'ready', page_id: '', only_page: false })]);
    expect(rows[0]!.pages).toBeGreaterThanOrEqual(4);
    expect(Number(rows[0]!.size)).toBe(blob.size);

    // A page with its sub-pages, or alone; each its own export.
    const section = await textOf(
      (await t.call(ops.getSpacePDF, { spaceId: space.id, page: ids.Welcome! }, reader)).url,
    );
    expect(section).toContain('Run the installer.');
    const alone = await textOf(
      (await t.call(ops.getSpacePDF, { spaceId: space.id, page: ids.Welcome!, only: true }, reader)).url,
    );
    expect(alone).toContain('Καλημέρα κόσμε');
    expect(alone).not.toContain('Run the installer.');
    expect(alone).not.toContain('Contents');
    expect((await exports(space.id)).map((r) => [r.page_id, r.only_page])).toEqual([
      ['', false],
      [ids.Welcome, false],
      [ids.Welcome, true],
    ]);

    // A new revision: a new file.
    const cr = await draft(space.id, [
      { operation: 'update_page', page: ids.Install!, document: { markdown: 'Run the new installer.\n' } },
    ]);
    // The change request's content, before the merge.
    const inChangeRequest = await textOf(
      (await t.call(ops.getChangeRequestPDF, { spaceId: space.id, changeRequestId: cr.id }, reader)).url,
    );
    expect(inChangeRequest).toContain('Run the new installer.');
    expect(inChangeRequest).toContain(`Change request #${cr.number}: Edits`);
    expect(await textOf((await t.call(ops.getSpacePDF, { spaceId: space.id }, reader)).url)).toContain(
      'Run the installer.',
    );
    await t.call(ops.mergeChangeRequest, { spaceId: space.id, changeRequestId: cr.id }, admin);
    const merged = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    expect((await claimsOf(merged.url)).key).not.toBe(claims.key);
    expect(await textOf(merged.url)).toContain('Run the new installer.');
  });

  it('leaves hidden pages out of the whole content, not a hidden page asked for', async () => {
    const { space, ids } = await spaceWith([
      { title: 'Shown', markdown: 'Visible words.\n' },
      { title: 'Secret', ref: 'secret', hidden: true, markdown: 'Hidden words.\n' },
    ]);
    const whole = await textOf((await t.call(ops.getSpacePDF, { spaceId: space.id }, reader)).url);
    expect(whole).toContain('Visible words.');
    expect(whole).not.toContain('Hidden words.');
    expect(
      await textOf((await t.call(ops.getSpacePDF, { spaceId: space.id, page: ids.Secret! }, reader)).url),
    ).toContain('Hidden words.');
  });

  it('refuses an unknown page (404), `only` without a page (400), and callers without read access (404)', async () => {
    const { space } = await spaceWith([{ title: 'One', markdown: 'One.\n' }]);
    expect(await failureOf(t.call(ops.getSpacePDF, { spaceId: space.id, page: 'no-such-page' }, reader))).toMatchObject(
      { message: 'Page not found' },
    );
    expect(
      (await failureOf<{ message: string }>(t.call(ops.getSpacePDF, { spaceId: space.id, only: true }, reader)))
        .message,
    ).toMatch(/^Invalid request: page: /);
    expect(
      await failureOf(t.call(ops.getChangeRequestPDF, { spaceId: space.id, changeRequestId: '999' }, reader)),
    ).toMatchObject({ message: 'Change request not found' });
    for (const who of [guest, stranger])
      expect(await failureOf(t.call(ops.getSpacePDF, { spaceId: space.id }, who))).toMatchObject({
        message: 'Space not found',
      });
    expect(await exports(space.id)).toEqual([]);
  });

  it('leaves a large space to the rendering job: the link is deferred, answers "pending", then the PDF', async () => {
    const { space } = await spaceWith(
      Array.from({ length: 5 }, (_, i) => ({ title: `Chapter ${i}`, markdown: `Words of chapter ${i}, Ελληνικά.\n` })),
    );
    const { url } = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    const claims = await claimsOf(url);
    expect(claims.key).toBeUndefined();
    expect(claims.ref).toMatch(/^pdf:/);
    expect(await follow(url)).toBe('pending');
    // The HTTP form of the same answer: a marked 503 with Retry-After, in the error shape.
    const res = await fetch(`${t.url}/blobs/deferred/${encodeURIComponent(claims.ref!)}`, {
      headers: { 'x-quire-actor': await actorHeader() },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({
      error: { code: 503, message: 'The PDF is still being rendered: retry in a few seconds' },
    });
    // Asking again meanwhile hands out the same deferred link.
    expect((await claimsOf((await t.call(ops.getSpacePDF, { spaceId: space.id }, admin)).url)).ref).toBe(claims.ref);

    expect(await renderWaitingPdfExports(deps())).toHaveLength(1);
    expect(await textOf(url)).toContain('Words of chapter 4, Ελληνικά.');
    // Once rendered, a new request links the blob itself.
    const ready = await claimsOf((await t.call(ops.getSpacePDF, { spaceId: space.id }, reader)).url);
    expect(ready.key).toMatch(/^[0-9a-f]{64}$/);
    expect(await follow(url)).toMatchObject({
      size: ((await follow((await t.call(ops.getSpacePDF, { spaceId: space.id }, reader)).url)) as StoredBlob).size,
    });
    expect(await t.svc.invoker.readDeferred('pdf:no-such-export', { actorHeader: await actorHeader() })).toBeNull();
  });

  it('marks a render that fails as failed (its link says to ask again), and a new request renders it again', async () => {
    const { space } = await spaceWith(
      Array.from({ length: 4 }, (_, i) => ({ title: `Part ${i}`, markdown: `Part ${i}.\n` })),
    );
    const { url } = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    const claim = (await t.em().transactional((tx) => pdfExportClaimer(tx, { leaseMs: 30_000 })))!;
    expect(claim.spaceId).toBe(space.id);
    const failing = { render: async () => Promise.reject(new Error('the layout engine broke')) };
    expect(await renderClaimedExport(deps(), claim, await loadPdfRequestOf(t.em(), claim), failing)).toEqual({
      state: 'failed',
      error: 'Error: the layout engine broke',
    });
    expect(await failureOf(follow(url))).toMatchObject({
      reason: 'internal',
      message: 'The PDF could not be rendered: ask for a new link to try again',
    });

    const retried = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    expect((await claimsOf(retried.url)).ref).toBe((await claimsOf(url)).ref);
    expect((await exports(space.id))[0]).toMatchObject({ state: 'pending' });
    await renderWaitingPdfExports(deps());
    expect(await textOf(url)).toContain('Part 3.');
  });

  it('hands out the deferred link when a small render takes longer than the request may wait, and the render goes on', async () => {
    const { space } = await spaceWith([{ title: 'Slow', markdown: 'Rendered late.\n' }]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const real = rendererOf(deps().config);
    const slow = { render: async (input: Parameters<typeof real.render>[0]) => (await gate, real.render(input)) };
    const req = await loadPdfRequestFor({ em: t.em(), actor: admin }, { spaceId: space.id });
    const download = await exportPdf(deps(), req, { renderer: slow, waitMs: 50 });
    expect(download.target).toEqual({ ref: expect.stringMatching(/^pdf:/) });
    expect((await exports(space.id))[0]?.state).not.toBe('ready');
    release();
    await download.rendering;
    expect((await exports(space.id))[0]?.state).toBe('ready');
    const read = await t.svc.invoker.readDeferred((download.target as { ref: string }).ref, {
      actorHeader: await actorHeader(),
    });
    expect(read && 'blob' in read && read.blob.contentType).toBe('application/pdf');
  });

  it('gives up on an export whose rendering stopped three times (a process dying mid-render)', async () => {
    const { space } = await spaceWith(
      Array.from({ length: 4 }, (_, i) => ({ title: `Piece ${i}`, markdown: `Piece ${i}.\n` })),
    );
    const { url } = await t.call(ops.getSpacePDF, { spaceId: space.id }, reader);
    const id = (await claimsOf(url)).ref!.slice('pdf:'.length);
    for (let i = 0; i < PDF_MAX_ATTEMPTS; i++) {
      const lapsed = await t
        .em()
        .transactional((tx) =>
          pdfExportClaimer(tx, { exportId: id, leaseMs: 1, now: new Date(Date.now() + i * 1000) }),
        );
      expect(lapsed?.attempts).toBe(i + 1);
    }
    expect(
      await t
        .em()
        .transactional((tx) => pdfExportClaimer(tx, { exportId: id, leaseMs: 1, now: new Date(Date.now() + 10_000) })),
    ).toBeNull();
    await t.em().transactional((tx) => pdfExportClaimer(tx, { leaseMs: 1, now: new Date(Date.now() + 20_000) }));
    expect(await pdfExportRepository.findById(t.em(), id)).toMatchObject({
      state: 'failed',
      error: 'the rendering stopped before its end 3 times',
    });
  });
});
