import { contentThreads, pdfLane } from '../threads/content-threads.ts';
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

/**
 * The process's PDF rendering threads (the `pdf` task of the content service's worker pool, on its `pdf` lane):
 * laying out a large book takes seconds of CPU, which would stop the event loop (requests, leases, the bus) if done
 * in the main thread. Started on first use, shared by every caller with the same settings; renders queue when every
 * thread is busy.
 */
export function pdfRenderer(settings: PdfRendererSettings): PdfRenderer {
  const lane = pdfLane(settings);
  return { render: (input) => contentThreads.run('pdf', input, lane) };
}
