import {
  BLOB_MAX_BYTES,
  DomainError,
  errorText,
  holdLease,
  type BlobStore,
  type DeferredDownload,
  type DownloadTarget,
  type EntityManager,
  type LeaseOptions,
  type Logger,
  type PublicUrls,
} from '@quire/kit';
import {
  pdfExportClaimer,
  pdfExportFinisher,
  pdfExportLeaseRenewer,
  pdfExportRequester,
} from '../../commands/pdf-export-writer.ts';
import type { JSONDocument } from '@quire/contracts';
import { documentToMarkdown } from '@quire/document/model';
import type { ContentConfig } from '../../env.ts';
import type { ContentContext } from '../../trpc.ts';
import { memberSlots } from '../parsing/member-slots.ts';
import { pageAppUrl } from '../content/content.presenter.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { storedDocument } from '../content/document-format.ts';
import { inlineReusableContents } from '../reusable-content/reusable-content-documents.ts';
import { loadIncludedDocuments } from '../reusable-content/reusable-content.loader.ts';
import { treeIndex } from '../revisions/revision-tree.ts';
import type { PdfBookImage, PdfBookInput } from './pdf-book.ts';
import type { IPdfExport, PdfExportOutcome } from './pdf-export.entity.ts';
import { pdfExportRepository } from './pdf-export.repository.ts';
import type { PdfRequest } from './pdf.loader.ts';
import { pdfRenderer, type PdfRenderer } from './pdf-renderer.ts';
import type { PdfRenderOutput } from './pdf-render.ts';

/** How long a claim lasts without renewal: a process stopped mid-render leaves its export to be claimed again after this. */
export const PDF_LEASE_MS = 30_000;
/** The job whose runs render the exports left waiting. */
export const PDF_JOB = 'content-pdf-render';

/** How a claimed export's lease is kept while it is rendered (by a request, or by the job). */
export function pdfLease(deps: Pick<PdfExportDeps, 'em' | 'log'>): LeaseOptions<IPdfExport> {
  return {
    name: PDF_JOB,
    log: deps.log,
    leaseMs: PDF_LEASE_MS,
    renew: (claim) => pdfExportLeaseRenewer(deps.em.fork(), { claim, leaseMs: PDF_LEASE_MS }),
    describe: (claim) => ({ export: claim.id }),
  };
}

/** What a link to a PDF still being rendered says to wait, in seconds. */
const RETRY_AFTER_SECONDS = 5;
/** How often a link waiting for a PDF looks at it again. */
const POLL_MS = 250;

/** What rendering an export needs: the service's database, blob store, public URLs, settings and log. */
export interface PdfExportDeps {
  em: EntityManager;
  blobs: BlobStore;
  urls: PublicUrls;
  config: ContentConfig;
  log: Logger;
}

/** A PDF to hand out: its blob when rendered, else its export (a deferred download), under a filename. */
export interface PdfDownload {
  target: DownloadTarget;
  filename: string;
  /** A render for this request that goes on after the answer (its link waits for it): settles when it ends. */
  rendering?: Promise<unknown>;
}

export const rendererOf = (config: ContentConfig): PdfRenderer =>
  pdfRenderer({ threads: config.QUIRE_PDF_RENDER_THREADS, memoryMb: config.QUIRE_PDF_RENDER_MEMORY_MB });

/** The reference of an export in its deferred download link. */
export const pdfDownloadRef = (exportId: string) => `pdf:${exportId}`;

/** The name the PDF is saved under: the space, the page it starts from, the change request. */
export function pdfFilename(req: PdfRequest): string {
  const parts = [req.space.title || 'Untitled space'];
  if (req.root) parts.push(req.root.title || 'Untitled');
  if (req.changeRequest) parts.push(`change request ${req.changeRequest.number}`);
  return `${parts.join(' - ')}.pdf`;
}

const UTC_MINUTE = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What the renderer is handed: the pages' markdown, the PNG and JPEG files they show, where links go. */
export async function pdfBookInput(
  deps: Pick<PdfExportDeps, 'em' | 'blobs' | 'urls'>,
  req: PdfRequest,
): Promise<PdfBookInput> {
  const { space, tree, pages } = req;
  const markdown = await documentRepository.getMany(
    deps.em,
    pages.flatMap((p) => (p.page.documentHash ? [p.page.documentHash] : [])),
  );
  const stored = pages.map((p) => (p.page.documentHash ? (markdown.get(p.page.documentHash) ?? null) : null));
  const texts = await withReusableContents(deps, req, stored);
  const images = await shownImages(deps.blobs, tree, texts);
  const { pageUrls, pageTitles } = pageTargets(deps.urls, space, tree);
  const fileNames = Object.fromEntries([...tree.files.values()].map((file) => [file.id, file.name]));
  const count = pages.length === 1 ? '1 page' : `${pages.length} pages`;
  return {
    title: space.title || 'Untitled space',
    subtitle: subtitleOf(req),
    note: `Revision ${tree.revision.id} · ${UTC_MINUTE(tree.revision.createdAt)} · ${count}`,
    createdAt: tree.revision.createdAt.toISOString(),
    spaceId: space.id,
    pages: pages.map(({ page, depth, parentId }, i) => ({
      id: page.id,
      kind: page.kind,
      title: page.title,
      description: page.description,
      depth,
      parentId,
      markdown: texts[i] ?? null,
      href: page.href,
    })),
    images,
    pageUrls,
    pageTitles,
    fileNames,
    baseUrl: deps.urls.base,
  };
}

/** Include marks of reusable contents in stored markdown (`{% include "…" %}`, docs/markdown.md). */
const INCLUDES = '{% include';

/**
 * The pages' markdown with the reusable contents they include expanded in place, as the published site shows them
 * (a page without an include is handed over as stored, never converted).
 */
async function withReusableContents(
  deps: Pick<PdfExportDeps, 'em'>,
  req: PdfRequest,
  texts: (string | null)[],
): Promise<(string | null)[]> {
  const including = new Map<number, JSONDocument>();
  texts.forEach((text, i) => {
    const hash = req.pages[i]!.page.documentHash;
    if (text?.includes(INCLUDES) && hash) including.set(i, storedDocument(hash, text));
  });
  if (!including.size) return texts;
  const at = { spaceId: req.space.id, tree: req.tree, evaluation: null };
  const included = await loadIncludedDocuments(deps, at, [...including.values()] as never);
  return texts.map((text, i) => {
    const document = including.get(i);
    if (!document) return text;
    const expanded = inlineReusableContents(document, req.space.id, (id) => included.get(id));
    return expanded === document ? text : documentToMarkdown(expanded);
  });
}

/**
 * The images the pages show, read from the blob store. They are written `gitbook-file:<id>` (or `/files/<id>`):
 * only the image files named in the markdown (`texts`) are read.
 */
async function shownImages(
  blobs: BlobStore,
  tree: PdfRequest['tree'],
  texts: readonly (string | null)[],
): Promise<PdfBookImage[]> {
  const images: PdfBookImage[] = [];
  for (const file of tree.files.values()) {
    if (!file.contentType.startsWith('image/') || !texts.some((t) => t?.includes(file.id))) continue;
    const blob = await blobs.get(file.blobKey);
    if (blob)
      images.push({
        id: file.id,
        contentType: file.contentType,
        bytes: blob.bytes,
        width: file.width,
        height: file.height,
      });
  }
  return images;
}

/** The application URL (link pages have none) and the title of every page of the revision. */
function pageTargets(urls: PublicUrls, space: PdfRequest['space'], tree: PdfRequest['tree']) {
  const { paths } = treeIndex(tree.pages);
  const pageUrls: Record<string, string> = {};
  const pageTitles: Record<string, string> = {};
  for (const page of tree.pages.values()) {
    pageTitles[page.id] = page.title || 'Untitled';
    if (page.kind !== 'link') pageUrls[page.id] = pageAppUrl(urls, space, paths.get(page.id) ?? page.slug);
  }
  return { pageUrls, pageTitles };
}

/** Under the book's title: the change request exported, the page it starts from (null when neither). */
function subtitleOf({ changeRequest, root }: PdfRequest): string | null {
  const subtitle = [
    changeRequest
      ? `Change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`
      : null,
    root ? root.title || 'Untitled' : null,
  ]
    .filter(Boolean)
    .join('\n');
  return subtitle || null;
}

/**
 * The export cache and its queue change state by single statements (insert-or-find, a conditional claim, lease
 * renewal, finish: each one atomic `update … returning`), run on the pool outside any transaction: a `GET …/pdf`
 * is a query, and opens none; neither does the rendering job, which shares this path.
 */

/**
 * Renders a claimed export: its book read, laid out on a rendering thread, the PDF put in the blob store,
 * the export recorded `ready` (or `failed` when the render itself fails: a damaged document, a thread out
 * of memory). The caller holds the claim's lease meanwhile (`holdLease(pdfLease(deps), …)`). A database or
 * blob store failure is thrown (the claim lapses and the export is claimed again later).
 */
export async function renderClaimedExport(
  deps: PdfExportDeps,
  claim: IPdfExport,
  req: PdfRequest,
  renderer = rendererOf(deps.config),
): Promise<PdfExportOutcome> {
  const started = performance.now();
  const input = await pdfBookInput(deps, req);
  let out: PdfRenderOutput | { error: string };
  try {
    out = await renderer.render(input);
  } catch (err) {
    deps.log.error({ err, export: claim.id, space: req.space.id }, 'PDF rendering failed');
    out = { error: errorText(err) };
  }
  if ('bytes' in out && out.bytes.byteLength > BLOB_MAX_BYTES)
    out = { error: `the PDF (${out.bytes.byteLength} bytes) is larger than a blob may be (${BLOB_MAX_BYTES})` };
  let outcome: PdfExportOutcome;
  if ('error' in out) outcome = { state: 'failed', error: out.error };
  else {
    const { key, size } = await deps.blobs.put(out.bytes, 'application/pdf');
    outcome = {
      state: 'ready',
      blobKey: key,
      size,
      pages: out.pages,
      renderMs: Math.round(performance.now() - started),
    };
    if (out.imagesDropped)
      deps.log.warn({ export: claim.id }, 'PDF rendered without its images: one could not be embedded');
    deps.log.info(
      {
        export: claim.id,
        space: req.space.id,
        revision: req.key.revisionId,
        pages: out.pages,
        bytes: size,
        ms: outcome.renderMs,
      },
      'PDF rendered',
    );
  }
  await pdfExportFinisher(deps.em.fork(), { claim, outcome });
  return outcome;
}

/** Whether a request is small enough to render while it waits (see QUIRE_PDF_INLINE_MAX_PAGES and _CHARS). */
async function isSmall(deps: PdfExportDeps, req: PdfRequest): Promise<boolean> {
  if (req.pages.length > deps.config.QUIRE_PDF_INLINE_MAX_PAGES) return false;
  const markdown = await documentRepository.getMany(
    deps.em,
    req.pages.flatMap((p) => (p.page.documentHash ? [p.page.documentHash] : [])),
  );
  let chars = 0;
  for (const text of markdown.values()) chars += text.length;
  return chars <= deps.config.QUIRE_PDF_INLINE_MAX_CHARS;
}

/**
 * The PDF of a request, cached by what it renders (revision, change request, page, `only`): a ready export
 * is handed out as its blob; a new (or failed) one is rendered now when small, its blob handed out; a
 * large one is left to the rendering job and handed out as a deferred download, which the link resolves
 * once the PDF is ready (`resolvePdfDownload`).
 */
export async function exportPdf(
  deps: PdfExportDeps,
  req: PdfRequest,
  opts: { renderer?: PdfRenderer; waitMs?: number } = {},
): Promise<PdfDownload> {
  const filename = pdfFilename(req);
  const exp = await pdfExportRequester(deps.em.fork(), { key: req.key });
  if (exp.state === 'ready') return { target: { key: exp.blobKey! }, filename };
  if (exp.state === 'pending' && (await isSmall(deps, req))) {
    const claim = await pdfExportClaimer(deps.em.fork(), { exportId: exp.id, leaseMs: PDF_LEASE_MS });
    if (claim) {
      // The request waits for the render at most QUIRE_PDF_INLINE_WAIT_MS (a busy machine, a queue of renders):
      // past it, the render goes on and the caller gets the deferred link, which waits for it.
      const rendering = holdLease(pdfLease(deps), claim, () => renderClaimedExport(deps, claim, req, opts.renderer));
      rendering.catch((err: unknown) => deps.log.warn({ err, export: exp.id }, 'PDF render failed; its claim lapses'));
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        rendering,
        new Promise<null>(
          (resolve) => (timer = setTimeout(() => resolve(null), opts.waitMs ?? deps.config.QUIRE_PDF_INLINE_WAIT_MS)),
        ),
      ]).finally(() => clearTimeout(timer));
      if (outcome === null) return { target: { ref: pdfDownloadRef(exp.id) }, filename, rendering };
      if (outcome.state === 'failed') throw new DomainError('internal', 'The PDF could not be rendered');
      return { target: { key: outcome.blobKey }, filename };
    }
  }
  return { target: { ref: pdfDownloadRef(exp.id) }, filename };
}

/**
 * What a deferred PDF link gives (see kit `DeferredDownloadResolver`): the PDF once ready, waiting up to
 * `QUIRE_PDF_LINK_WAIT_MS` for one being rendered, then "retry in a few seconds"; a failed render is a
 * 500 whose message says to ask for a new link (which tries again); an unknown export a 404.
 */
export async function resolvePdfDownload(
  deps: Pick<PdfExportDeps, 'em' | 'config'>,
  ref: string,
): Promise<DeferredDownload> {
  const id = /^pdf:(.+)$/.exec(ref)?.[1];
  if (id === undefined) return null;
  const deadline = Date.now() + deps.config.QUIRE_PDF_LINK_WAIT_MS;
  for (;;) {
    const exp = await pdfExportRepository.findById(deps.em.fork(), id);
    if (!exp) return null;
    if (exp.state === 'ready') return { key: exp.blobKey! };
    if (exp.state === 'failed')
      throw new DomainError('internal', 'The PDF could not be rendered: ask for a new link to try again');
    const left = deadline - Date.now();
    if (left <= 0)
      return {
        pending: {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
          message: 'The PDF is still being rendered: retry in a few seconds',
        },
      };
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}

/**
 * `exportPdf` in one of the caller's PDF export slots: a member's exports in flight are capped
 * (`QUIRE_MEMBER_CONCURRENT_PDF_EXPORTS`: 429 past it), a render that goes on after the answer included: it keeps
 * its slot until it ends.
 */
export async function exportPdfInSlot(ctx: ContentContext, req: PdfRequest): Promise<PdfDownload> {
  const slots = memberSlots('PDF exports', ctx.config.QUIRE_MEMBER_CONCURRENT_PDF_EXPORTS);
  const release = slots.take(ctx.actor.kind === 'user' ? ctx.actor.userId : 'anonymous');
  let download: PdfDownload;
  try {
    download = await exportPdf(ctx, req);
  } catch (err) {
    release();
    throw err;
  }
  if (download.rendering) download.rendering.then(release, release);
  else release();
  return download;
}
