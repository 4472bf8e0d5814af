/** A run of text (about a word) as placed on its page: `x`, `y` from the bottom left, `width` and `fontSize`, in points. */
export interface PdfTextItem {
  page: number;
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** What a test reads of a PDF: its pages' text (one string per page, lines joined by `\n`) and its metadata. */
export interface PdfText {
  pages: string[];
  items: PdfTextItem[];
  /** Every page's text, pages joined by a form feed. */
  text: string;
  info: Record<string, unknown>;
  /** The titles of the outline (bookmarks), depth first. */
  outline: string[];
  /** The link annotations, page by page: an external `url`, or the named destination `dest` inside the PDF. */
  links: { page: number; url?: string; dest?: string }[];
}

/**
 * The text of a PDF as a reader extracts it, with Mozilla's PDF.js (pure JavaScript, no poppler needed):
 * what `pdftotext` shows, to check that rendered words are really there (fonts embedded with a Unicode map).
 */
export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    const items: PdfTextItem[] = [];
    const links: PdfText['links'] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      for (const a of (await page.getAnnotations()) as { subtype: string; url?: string; dest?: unknown }[]) {
        if (a.subtype === 'Link')
          links.push({
            page: i,
            ...(a.url ? { url: a.url } : {}),
            ...(typeof a.dest === 'string' ? { dest: a.dest } : {}),
          });
      }
      for (const item of content.items) {
        if ('str' in item && item.str.trim())
          items.push({
            page: i,
            str: item.str,
            x: item.transform[4],
            y: item.transform[5],
            width: item.width,
            fontSize: Math.hypot(item.transform[2], item.transform[3]),
          });
      }
    }
    const outline: string[] = [];
    const visit = (items: { title: string; items: unknown[] }[] | null) => {
      for (const item of items ?? []) {
        outline.push(item.title);
        visit(item.items as { title: string; items: unknown[] }[]);
      }
    };
    visit(await doc.getOutline());
    const { info } = await doc.getMetadata();
    return { pages, items, text: pages.join('\f'), info: info as Record<string, unknown>, outline, links };
  } finally {
    await task.destroy();
  }
}
