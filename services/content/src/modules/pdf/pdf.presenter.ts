import type { PdfUrl } from '@quire/contracts';
import type { DownloadLinks } from '@quire/kit';
import type { PdfDownload } from './pdf-exporter.ts';

/** `{url}`: the signed link to the PDF (its blob, or its export while being rendered), one hour, no token needed. */
export async function presentPdfUrl(ctx: { downloads: DownloadLinks }, pdf: PdfDownload): Promise<PdfUrl> {
  return { url: await ctx.downloads.url({ ...pdf.target, filename: pdf.filename, contentType: 'application/pdf' }) };
}
