import { Piscina } from 'piscina';
import type { PdfBookInput } from './pdf-book.ts';
import type { PdfRenderOutput } from './pdf-render.ts';

export interface PdfRendererSettings {
  threads: number;
  /** Heap limit of a rendering thread, in MiB. */
  memoryMb: number;
}

export interface PdfRenderer {
  /** The PDF of a book, rendered on a worker thread (rejects when the render fails or the thread runs out of memory). */
  render(input: PdfBookInput): Promise<PdfRenderOutput>;
}

/** How long a rendering thread stays idle before it exits (and its memory with it). */
const IDLE_MS = 30_000;
const pools = new Map<string, Piscina<PdfBookInput, PdfRenderOutput>>();

/**
 * The process's PDF rendering threads (piscina): laying out a large book takes seconds of CPU, which would
 * stop the event loop (requests, leases, the bus) if done in the main thread. Created on first use, shared
 * by every caller with the same settings; renders queue when every thread is busy.
 */
export function pdfRenderer(settings: PdfRendererSettings): PdfRenderer {
  const key = `${settings.threads}/${settings.memoryMb}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Piscina<PdfBookInput, PdfRenderOutput>({
      filename: new URL('./pdf-render.worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: settings.threads,
      idleTimeout: IDLE_MS,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: settings.memoryMb },
    });
    pools.set(key, pool);
  }
  const running = pool;
  return { render: (input) => running.run(input) };
}
