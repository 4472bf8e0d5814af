import { ops, type AnyOperation } from '@quire/contracts';
import { implement, type ContentContext } from '../../trpc.ts';
import type { RevisionSelector } from '../content/content.loader.ts';
import { exportPdf } from './pdf-exporter.ts';
import { loadPdfRequestFor } from './pdf.loader.ts';
import { presentPdfUrl } from './pdf.presenter.ts';

/** A PDF of the content, as a signed link: load (the `export` of the space) → find or render the export → present. */
const pdfOf = async (ctx: ContentContext, input: RevisionSelector & { page?: string | undefined; only?: boolean | undefined }) =>
  presentPdfUrl(ctx, await exportPdf(ctx, await loadPdfRequestFor(ctx, input)));

export const pdfProcedures = {
  getSpacePDF: implement(ops.getSpacePDF, ({ input, ctx }) => pdfOf(ctx, input)),
  getChangeRequestPDF: implement(ops.getChangeRequestPDF, ({ input, ctx }) => pdfOf(ctx, input)),
} satisfies Record<string, ReturnType<typeof implement<AnyOperation>>>;
