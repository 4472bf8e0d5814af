import { threadTask, workerPool, type ThreadLane } from '@quire/kit/threads';
import type { PackJob } from '../git/git-pack.worker.ts';
import type { ParseJob } from '../parsing/parse.worker.ts';
import type { ParseSettings } from '../parsing/text-parser.ts';
import type { PdfBookInput } from '../pdf/pdf-book.ts';
import type { PdfRenderOutput } from '../pdf/pdf-render.ts';

const PDF_TASK = new URL('../pdf/pdf-render.worker.ts', import.meta.url);
const PACK_TASK = new URL('../git/git-pack.worker.ts', import.meta.url);

/**
 * The content service's one worker pool: what runs off the event loop (every request, lease and event would wait
 * for it there), one dispatch table of named tasks, each a module whose default export runs it. A thread loads a
 * task's module at its first task of that name, so a lane's threads hold only what they run.
 */
export const contentThreads = workerPool({
  /** A text parsed (markdown, HTML, a document's JSON) or an OpenAPI specification read: parsing/text-parser.ts. */
  parse: threadTask<ParseJob, unknown>(new URL('../parsing/parse.worker.ts', import.meta.url)),
  /** A book laid out as a PDF: pdf/pdf-renderer.ts. */
  pdf: threadTask<PdfBookInput, PdfRenderOutput>(PDF_TASK),
  /** A Git fetch's pack checked, written and indexed, its chunks coming on a message port: git/git-pack-thread.ts. */
  pack: threadTask<PackJob, void>(PACK_TASK),
});

/** The heap of the markdown threads that take everyday texts, in MiB (at most the settings' `memoryMb`). */
export const EVERYDAY_THREAD_MB = 64;
/** An everyday parsing thread beyond the first ends after this long without a task, giving its heap (~60–80 MB) back. */
const EXTRA_THREAD_IDLE_MS = 15_000;
/** How long a large-text or OpenAPI thread outlives its last task. */
const ON_DEMAND_IDLE_MS = 5_000;

const PARSERS = new URL('../parsing/parse-tasks.ts', import.meta.url);
const OPENAPI = new URL('../openapi/openapi-document.ts', import.meta.url);

/**
 * The parsing lanes. V8 lets a thread's heap grow to about half its limit before it collects, and a thread keeps that
 * heap: so the threads that take everyday texts (kept warm: a thread loads its parsers once) have a small heap, and a
 * text that needs more (a large one, or one that ran out of the small heap) runs on a thread with the whole
 * `memoryMb`, started for it and stopped a few seconds after its last task, giving its heap back; so is the OpenAPI
 * thread, whose validator stays out of the markdown threads (which restart faster for it). A thread needs ~40 MB of
 * heap for its parsers alone: one that cannot load them makes piscina stop starting threads (so the limit is at least
 * 64 MB).
 */
export const parseLanes = {
  text: (s: ParseSettings): ThreadLane =>
    parseLane('parse', s.threads, Math.min(EVERYDAY_THREAD_MB, s.memoryMb), PARSERS),
  large: (s: ParseSettings): ThreadLane => ({
    ...parseLane('parse-large', 1, s.memoryMb, PARSERS),
    retireAfterMs: ON_DEMAND_IDLE_MS,
  }),
  openapi: (s: ParseSettings): ThreadLane => ({
    ...parseLane('openapi', 1, s.memoryMb, OPENAPI),
    retireAfterMs: ON_DEMAND_IDLE_MS,
  }),
};

function parseLane(name: string, threads: number, memoryMb: number, preload: URL): ThreadLane {
  return {
    name,
    threads,
    // One thread stays while the lane lives; the other everyday ones start when parses queue, end after 15 s idle.
    minThreads: 1,
    threadIdleMs: EXTRA_THREAD_IDLE_MS,
    memoryMb,
    youngMb: Math.min(64, Math.max(8, memoryMb >> 3)),
    stackMb: 4,
    preload: [preload],
  };
}

/** The PDF lane: started on demand, a thread ends 30 s after its last render (and its memory with it). */
export const pdfLane = (s: { threads: number; memoryMb: number }): ThreadLane => ({
  name: 'pdf',
  threads: s.threads,
  minThreads: 0,
  threadIdleMs: 30_000,
  memoryMb: s.memoryMb,
  // A thread loads the layout code (pdfmake, the fonts) as it starts, not during its first render.
  preload: [PDF_TASK],
});

/**
 * The pack lane: two packs read at once (more fetches wait), started on demand and stopped 5 s after its last pack.
 * The pack is on disk, never in the heap: the heap holds the index, an inflater and the delta bases' cache.
 */
export const PACK_LANE: ThreadLane = {
  name: 'pack',
  threads: 2,
  minThreads: 0,
  threadIdleMs: 5_000,
  retireAfterMs: 5_000,
  memoryMb: 256,
  youngMb: 16,
  stackMb: 4,
  // Loaded as the thread starts: the pack guard and store only (no kit, no database).
  preload: [PACK_TASK],
};
