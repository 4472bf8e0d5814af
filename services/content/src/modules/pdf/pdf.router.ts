import { ops, type AnyOperation } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { exportPdfInSlot } from './pdf-exporter.ts';
import { loadPdfRequestFor } from './pdf.loader.ts';
import { presentPdfUrl } from './pdf.presenter.ts';

/** A PDF of the content, as a signed link: load (the `export` of the space) → find or render the export → present. */
export const pdfProcedures = {
  getSpacePDF: implement(ops.getSpacePDF, async ({ input, ctx }) =>
    presentPdfUrl(ctx, await exportPdfInSlot(ctx, await loadPdfRequestFor(ctx, input))),
  ),
  getChangeRequestPDF: implement(ops.getChangeRequestPDF, async ({ input, ctx }) =>
    presentPdfUrl(ctx, await exportPdfInSlot(ctx, await loadPdfRequestFor(ctx, input))),
  ),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
