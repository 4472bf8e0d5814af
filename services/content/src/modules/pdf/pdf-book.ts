import type { DocumentContentRef, JSONDocument } from '@quire/contracts';
import type { Content, Style, TDocumentDefinitions } from 'pdfmake/interfaces';
import { headingsOf, markdownToDocument } from '@quire/document/model';
import { targetOfRef, targetOfUrl } from '../links/link-extraction.ts';
import {
  CONTENT_STYLES,
  documentContent,
  type PdfContentContext,
  type PdfImage,
  type PdfLinkTarget,
} from './pdf-content.ts';

/** One page of the book, in reading order (what the renderer is handed: plain data, it crosses to a worker thread). */
export interface PdfBookPage {
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  description: string | null;
  /** 0 for the top of what is exported, then 1, 2… below. */
  depth: number;
  /** The page above it in the book (null at the top). */
  parentId: string | null;
  /** Document pages: the stored markdown (null for an empty document). */
  markdown: string | null;
  /** Link pages: where they point. */
  href: string | null;
}

/** An image file of the revision the pages show: PNG or JPEG bytes, and its size in pixels when known. */
export interface PdfBookImage {
  id: string;
  contentType: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
}

export interface PdfBookInput {
  /** The space's title: the title page and the document's title. */
  title: string;
  /** Under the title: the change request, the page exported. */
  subtitle: string | null;
  /** The small print of the title page (revision, date). */
  note: string;
  /** When the revision was made: the PDF's creation date (the same for every render of it). */
  createdAt: string;
  spaceId: string;
  pages: PdfBookPage[];
  images: PdfBookImage[];
  /** The application URL of every page of the revision: links to pages the PDF leaves out go there. */
  pageUrls: Record<string, string>;
  /** The title of every page of the revision (what a mention or content-ref of it shows). */
  pageTitles: Record<string, string>;
  /** The name of every file of the revision (what a file block shows). */
  fileNames: Record<string, string>;
  /** The instance's public URL: root-relative links (`/…`) are made absolute on it. */
  baseUrl: string;
}

/** The margins of every page, in points (left, top, right, bottom). */
const MARGINS: [number, number, number, number] = [50, 60, 50, 56];
const MUTED = '#666666';

const BOOK_STYLES: Record<string, Style> = {
  bookTitle: { fontSize: 28, bold: true, margin: [0, 0, 0, 12] },
  bookSubtitle: { fontSize: 15, color: '#333333', margin: [0, 0, 0, 18] },
  bookNote: { fontSize: 9, color: MUTED },
  tocTitle: { fontSize: 18, bold: true, margin: [0, 0, 0, 14] },
  pageTitle: { fontSize: 22, bold: true, margin: [0, 0, 0, 8] },
  pageDescription: { fontSize: 11, italics: true, color: '#444444', margin: [0, 0, 0, 12] },
  running: { fontSize: 8, color: MUTED },
};

/** The named destination of a page, and of one of its headings. */
export const pageDestination = (pageId: string) => `p:${pageId}`;
export const headingDestination = (pageId: string, anchor: string) => `p:${pageId}#${anchor}`;

/** The only images a PDF embeds: PNG and JPEG, recognised by their bytes. */
export function isEmbeddableImage(bytes: Uint8Array): 'png' | 'jpeg' | null {
  if (
    bytes.length > 8 &&
    bytes[0] === 0x89 &&
    bytes[1] === 0x50 &&
    bytes[2] === 0x4e &&
    bytes[3] === 0x47 &&
    bytes[4] === 0x0d &&
    bytes[5] === 0x0a &&
    bytes[6] === 0x1a &&
    bytes[7] === 0x0a
  )
    return 'png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

const ABSOLUTE = /^(?:https?:|mailto:)/i;

/**
 * The pdfmake definition of a book: a title page, the table of contents (with page numbers, each entry a
 * link; when more than one page is exported), then every page from a new sheet (a group's first child
 * follows its group's title), each page in the PDF outline (bookmarks) under its parent. Every sheet but
 * the title page has the title as running header and `n / total` as footer. `onPageCount` learns the
 * number of sheets once laid out.
 */
export function bookDefinition(
  input: PdfBookInput,
  opts: { embedImages: boolean; onPageCount?: (n: number) => void },
): TDocumentDefinitions {
  const book = bookIndex(input);
  const images = embeddedImages(input, opts.embedImages);
  const ctxFor = contentContexts(input, book, images);
  const content: Content[] = [titlePage(input)];
  if (input.pages.length > 1)
    content.push({
      toc: { title: { text: 'Contents', style: 'tocTitle' }, numberStyle: { color: MUTED } },
      pageBreak: 'before',
    });
  input.pages.forEach((page, i) => content.push(...pageContent(page, input.pages[i - 1], book, ctxFor)));

  return {
    pageSize: 'A4',
    pageMargins: MARGINS,
    info: {
      title: input.title,
      creator: 'Quire',
      producer: 'Quire (pdfmake)',
      creationDate: new Date(input.createdAt),
    },
    defaultStyle: { font: 'Sans', fontSize: 10 },
    styles: { ...CONTENT_STYLES, ...BOOK_STYLES },
    images: Object.fromEntries([...images.values()].map((img) => [img.name, img.dataUrl])),
    header: (page: number) =>
      page === 1
        ? null
        : { text: input.title, style: 'running', alignment: 'right', margin: [MARGINS[0], 28, MARGINS[2], 0] },
    footer: (page: number, pages: number) => {
      opts.onPageCount?.(pages);
      return page === 1
        ? null
        : { text: `${page} / ${pages}`, style: 'running', alignment: 'center', margin: [0, 22, 0, 0] };
    },
    content,
  };
}

/** What the book holds: its pages, their documents (read once), and its headings' destinations → their titles. */
interface BookIndex {
  inBook: ReadonlySet<string>;
  docs: ReadonlyMap<string, JSONDocument>;
  headings: ReadonlyMap<string, string>;
}

function bookIndex(input: PdfBookInput): BookIndex {
  const docs = new Map<string, JSONDocument>();
  for (const page of input.pages)
    if (page.kind === 'document' && page.markdown) docs.set(page.id, markdownToDocument(page.markdown));
  const headings = new Map<string, string>();
  for (const [id, doc] of docs)
    for (const h of headingsOf(doc)) if (h.id) headings.set(headingDestination(id, h.id), h.title);
  return { inBook: new Set(input.pages.map((p) => p.id)), docs, headings };
}

/** The images the PDF embeds (none unless `embed`): PNG and JPEG files of known size, 96 dots per inch. */
function embeddedImages(input: PdfBookInput, embed: boolean): Map<string, PdfImage & { dataUrl: string }> {
  const images = new Map<string, PdfImage & { dataUrl: string }>();
  if (!embed) return images;
  for (const img of input.images) {
    const kind = isEmbeddableImage(img.bytes);
    if (!kind || !img.width || !img.height) continue;
    // 96 dots per inch: a pixel is 0.75 point.
    images.set(img.id, {
      name: `f:${img.id}`,
      width: img.width * 0.75,
      height: img.height * 0.75,
      dataUrl: `data:image/${kind};base64,${Buffer.from(img.bytes).toString('base64')}`,
    });
  }
  return images;
}

/** What a reference points to in this space, read as the links do (a URL as the stored markdown writes it). */
function targetIn(spaceId: string, ref: DocumentContentRef) {
  if (ref.kind === 'url') return targetOfUrl(ref.url);
  if (ref.kind === 'page' || ref.kind === 'anchor' || ref.kind === 'file') {
    return ref.space === undefined || ref.space === spaceId ? targetOfRef(ref) : null;
  }
  return null;
}

/** A link to a page (at a heading): inside the book when the page is in it, else to its application URL. */
function pageLink(input: PdfBookInput, book: BookIndex, pageId: string, anchor: string | undefined): PdfLinkTarget {
  if (book.inBook.has(pageId)) {
    const heading = anchor !== undefined ? headingDestination(pageId, anchor) : undefined;
    return { destination: heading && book.headings.has(heading) ? heading : pageDestination(pageId) };
  }
  const url = input.pageUrls[pageId];
  return url ? { url: anchor ? `${url}#${encodeURIComponent(anchor)}` : url } : null;
}

/**
 * The context each page's content is made in: where its links go, what its references show, its images, and the
 * destinations of its headings (each one used once in the whole book).
 */
function contentContexts(
  input: PdfBookInput,
  book: BookIndex,
  images: ReadonlyMap<string, PdfImage>,
): (pageId: string) => PdfContentContext {
  const usedDestinations = new Set<string>();
  return (pageId) => ({
    pageId,
    link: (ref: DocumentContentRef, from: string) => {
      const target = targetIn(input.spaceId, ref);
      if (!target || target.kind === 'file') return null;
      if (target.kind === 'page') return pageLink(input, book, target.page, target.anchor);
      if (target.kind === 'anchor') return pageLink(input, book, from, target.anchor);
      if (ABSOLUTE.test(target.url)) return { url: target.url };
      if (target.url.startsWith('/') && !target.url.startsWith('//')) return { url: `${input.baseUrl}${target.url}` };
      return null;
    },
    label: (ref: DocumentContentRef, from: string) => {
      const target = targetIn(input.spaceId, ref);
      if (!target || target.kind === 'url') return undefined;
      if (target.kind === 'file') return input.fileNames[target.file];
      const page = target.kind === 'anchor' ? from : target.page;
      const anchor =
        target.anchor === undefined ? undefined : book.headings.get(headingDestination(page, target.anchor));
      return anchor ?? input.pageTitles[page];
    },
    image: (ref) =>
      ref.kind === 'file' && (ref.space === undefined || ref.space === input.spaceId)
        ? images.get(ref.file)
        : undefined,
    headingDestination: (id, anchor) => {
      const name = headingDestination(id, anchor);
      if (!book.headings.has(name) || usedDestinations.has(name)) return null;
      usedDestinations.add(name);
      return name;
    },
  });
}

/**
 * A page of the book: its title (an entry of the table of contents and of the outline, from a new sheet unless it
 * follows its group's title), its description, where a link page points, and its document.
 */
function pageContent(
  page: PdfBookPage,
  previous: PdfBookPage | undefined,
  book: BookIndex,
  ctxFor: (pageId: string) => PdfContentContext,
): Content[] {
  const followsItsGroup = previous?.kind === 'group' && previous.id === page.parentId;
  const content: Content[] = [
    {
      text: page.title || 'Untitled',
      style: 'pageTitle',
      fontSize: page.depth === 0 ? 22 : page.depth === 1 ? 19 : 17,
      id: pageDestination(page.id),
      tocItem: true,
      tocMargin: [page.depth * 14, page.depth === 0 ? 5 : 2, 0, 0],
      tocStyle: page.depth === 0 ? { bold: true } : {},
      outline: true,
      outlineText: page.title || 'Untitled',
      ...(page.parentId && book.inBook.has(page.parentId) ? { outlineParentId: pageDestination(page.parentId) } : {}),
      ...(followsItsGroup ? {} : { pageBreak: 'before' as const }),
    },
  ];
  if (page.description) content.push({ text: page.description, style: 'pageDescription' });
  if (page.kind === 'link' && page.href) {
    const target = ABSOLUTE.test(page.href) ? page.href : undefined;
    content.push({
      text: [{ text: 'Link: ' }, { text: page.href, ...(target ? { link: target, color: '#1a56db' } : {}) }],
      style: 'paragraph',
    });
  }
  const doc = book.docs.get(page.id);
  if (doc) content.push(...documentContent(doc, ctxFor(page.id)));
  return content;
}

function titlePage(input: PdfBookInput): Content {
  const stack: Content[] = [{ text: input.title || 'Untitled', style: 'bookTitle' }];
  if (input.subtitle) stack.push({ text: input.subtitle, style: 'bookSubtitle' });
  stack.push({ text: input.note, style: 'bookNote' });
  if (!input.pages.length)
    stack.push({ text: 'Nothing to show: this content has no pages.', style: 'bookNote', margin: [0, 24, 0, 0] });
  return {
    stack,
    margin: [0, 200, 0, 0],
  };
}
