import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bookDefinition, type PdfBookInput } from './pdf-book.ts';

const require = createRequire(import.meta.url);
/** pdfmake's server build: one instance per thread, its fonts and access policies set once below. */
const pdfmake = require('pdfmake') as typeof import('pdfmake');

/**
 * The shipped fonts: DejaVu Sans (Latin, Greek, Cyrillic and much more, in four styles) for the text and
 * DejaVu Sans Mono for code, from the `dejavu-fonts-ttf` package; embedded as subsets.
 */
const FONT_DIR = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const font = (file: string) => join(FONT_DIR, file);
pdfmake.setFonts({
  Sans: {
    normal: font('DejaVuSans.ttf'),
    bold: font('DejaVuSans-Bold.ttf'),
    italics: font('DejaVuSans-Oblique.ttf'),
    bolditalics: font('DejaVuSans-BoldOblique.ttf'),
  },
  Mono: {
    normal: font('DejaVuSansMono.ttf'),
    bold: font('DejaVuSansMono-Bold.ttf'),
    italics: font('DejaVuSansMono-Oblique.ttf'),
    bolditalics: font('DejaVuSansMono-BoldOblique.ttf'),
  },
});
// Nothing a document says is fetched or read from disk: images come in as bytes, fonts from the directory above.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => dirname(path) === FONT_DIR);

export interface PdfRenderOutput {
  bytes: Uint8Array;
  /** Sheets of the PDF. */
  pages: number;
  /** True when the images could not be embedded (a damaged file): the PDF shows their alternative texts. */
  imagesDropped: boolean;
}

async function render(input: PdfBookInput, embedImages: boolean): Promise<PdfRenderOutput> {
  let pages = 0;
  const definition = bookDefinition(input, { embedImages, onPageCount: (n) => (pages = n) });
  const buffer = await pdfmake.createPdf(definition).getBuffer();
  return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), pages, imagesDropped: false };
}

/** The PDF of a book; when an image breaks the rendering, the book again without images. */
export async function renderBook(input: PdfBookInput): Promise<PdfRenderOutput> {
  try {
    return await render(input, true);
  } catch (err) {
    if (!input.images.length) throw err;
    return { ...(await render(input, false)), imagesDropped: true };
  }
}
