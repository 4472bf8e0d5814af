import type { DocumentContentRef, DocumentHintStyle, DocumentRef, DocumentTextColor } from '@quire/contracts';
import type { Content, ContentText, Style } from 'pdfmake/interfaces';

/** Where a link goes in the PDF: a destination of the PDF, an external URL, or nowhere (plain text). */
export type PdfLinkTarget = { destination: string } | { url: string } | null;

/** An image ready to embed: its name in the document's images and its size in points. */
export interface PdfImage {
  name: string;
  width: number;
  height: number;
}

export interface PdfContentContext {
  /** The page the document is the content of. */
  pageId: string;
  /** Where a reference of the page goes (links, mentions, content-refs, buttons, cards). */
  link(ref: DocumentContentRef, fromPage: string): PdfLinkTarget;
  /** What a reference is called: a page's title, a heading's text, a file's name (undefined when unknown). */
  label(ref: DocumentContentRef, fromPage: string): string | undefined;
  /** The embeddable image of a file reference (undefined: shown as its alternative text). */
  image(ref: DocumentRef): PdfImage | undefined;
  /** The destination of a heading of a page (null when the id is taken: destinations are unique). */
  headingDestination(pageId: string, anchor: string): string | null;
  /**
   * The width the content is laid out in, in points (the text width unless said; less inside lists and
   * boxes). Boxes and tables are given fixed widths from it: pdfmake widens a `*` column to its longest word,
   * pushing a long token (a URL, a hash in code) off the page, where a fixed width breaks it.
   */
  width?: number;
  /** The notes (footnotes) of the page so far, each its blocks: printed at the end of the page. */
  notes?: Content[][];
}

/** A run of text: pdfmake does not carry the style of a nested run down to its children, so each holds its own. */
export type Inline = Omit<ContentText, 'text'> & { text: string };

/** The text width of an A4 page with the book's margins, in points. */
export const CONTENT_WIDTH = 595.28 - 2 * 50;
/** The tallest an image may be drawn, in points. */
export const MAX_IMAGE_HEIGHT = 560;
/** What a list takes from the width of its items (marker and gap, generously: numbers up to three digits). */
export const LIST_INDENT = 26;
/** A box's padding (left, right) and its bar. */
export const BOX = { left: 8, right: 6, bar: 2.5 };
/** What a box takes from the width of its content. */
export const BOX_INSET = BOX.left + BOX.right + BOX.bar;
/** A code block's padding (each side). */
export const CODE_PADDING = 6;
/** A table cell's padding (each side) and the width of its lines. */
export const CELL = { padding: 4, line: 0.5 };

export const LINK_COLOR = '#1a56db';
export const MUTED_BAR = '#bbbbbb';
export const HINTS: Record<DocumentHintStyle, { label: string; fill: string; bar: string }> = {
  info: { label: 'Info', fill: '#eef4ff', bar: '#3b82f6' },
  warning: { label: 'Warning', fill: '#fff8e6', bar: '#f59e0b' },
  danger: { label: 'Danger', fill: '#fdeeee', bar: '#ef4444' },
  success: { label: 'Success', fill: '#ecfdf3', bar: '#22c55e' },
};
export const CONFLICT = { bar: '#b91c1c', fill: '#fff1f1' };

/** GitBook's colors of text and of its background, printed (`default`: no color of its own). */
export const TEXT_COLOR: Record<DocumentTextColor, { text: string; background: string } | null> = {
  default: null,
  green: { text: '#15803d', background: '#dcfce7' },
  blue: { text: '#1d4ed8', background: '#dbeafe' },
  red: { text: '#b91c1c', background: '#fee2e2' },
  orange: { text: '#c2410c', background: '#ffedd5' },
  yellow: { text: '#a16207', background: '#fef08a' },
  purple: { text: '#7e22ce', background: '#f3e8ff' },
  pink: { text: '#be185d', background: '#fce7f3' },
  violet: { text: '#6d28d9', background: '#ede9fe' },
  cyan: { text: '#0e7490', background: '#cffafe' },
  $primary: { text: '#1d4ed8', background: '#dbeafe' },
  $info: { text: '#1d4ed8', background: '#dbeafe' },
  $success: { text: '#15803d', background: '#dcfce7' },
  $warning: { text: '#c2410c', background: '#ffedd5' },
  $danger: { text: '#b91c1c', background: '#fee2e2' },
  $tint: { text: '#444444', background: '#eeeeee' },
};

/** The named styles the content uses (with the book's own, see pdf-book.ts). */
export const CONTENT_STYLES: Record<string, Style> = {
  paragraph: { margin: [0, 0, 0, 6], lineHeight: 1.15 },
  h1: { fontSize: 16, bold: true, margin: [0, 10, 0, 6] },
  h2: { fontSize: 13.5, bold: true, margin: [0, 8, 0, 5] },
  h3: { fontSize: 11.5, bold: true, margin: [0, 6, 0, 4] },
  code: { font: 'Mono', fontSize: 8.5, lineHeight: 1.1 },
  codeTitle: { fontSize: 8.5, bold: true, color: '#444444', margin: [0, 4, 0, 2] },
  quote: { color: '#444444', italics: true },
  hintLabel: { bold: true, fontSize: 9, margin: [0, 0, 0, 2] },
  caption: { fontSize: 8.5, italics: true, color: '#555555', alignment: 'center', margin: [0, 2, 0, 8] },
  missingImage: { italics: true, color: '#666666' },
  tableHeader: { bold: true },
  sectionTitle: { bold: true, fontSize: 10.5, margin: [0, 2, 0, 4] },
  stepNumber: { bold: true, fontSize: 11, color: '#ffffff', alignment: 'center' },
  placeholder: { italics: true, color: '#555555', margin: [0, 0, 0, 6] },
  notesTitle: { bold: true, fontSize: 9, color: '#444444', margin: [0, 0, 0, 3] },
  note: { fontSize: 9 },
};

export const widthOf = (ctx: PdfContentContext) => ctx.width ?? CONTENT_WIDTH;
/** The context of content laid out `less` points narrower. */
export const narrower = (ctx: PdfContentContext, less: number): PdfContentContext => ({
  ...ctx,
  width: Math.max(40, widthOf(ctx) - less),
});

/** A one-cell box with a coloured bar on its left, as wide as `ctx` (its content laid out `BOX_INSET` narrower). */
export function box(
  content: Content[],
  ctx: PdfContentContext,
  opts: { bar: string; fill?: string; style?: string },
): Content {
  return {
    table: {
      widths: [widthOf(ctx) - BOX_INSET],
      body: [[{ stack: content.length ? content : [' '], ...(opts.style ? { style: opts.style } : {}) }]],
    },
    layout: {
      hLineWidth: () => 0,
      vLineWidth: (i: number) => (i === 0 ? BOX.bar : 0),
      vLineColor: () => opts.bar,
      fillColor: () => opts.fill ?? null,
      paddingLeft: () => BOX.left,
      paddingRight: () => BOX.right,
      paddingTop: () => 4,
      paddingBottom: () => 0,
    },
    margin: [0, 0, 0, 8],
  };
}

/** Monospaced text in a grey box, its lines and their indentation kept (code, formulas). */
export function monospaceBox(text: string, ctx: PdfContentContext): Content {
  return {
    table: {
      widths: [widthOf(ctx) - 2 * CODE_PADDING],
      body: [[{ text: text || ' ', style: 'code', preserveLeadingSpaces: true }]],
    },
    layout: {
      hLineWidth: () => 0,
      vLineWidth: () => 0,
      fillColor: () => '#f5f5f5',
      paddingLeft: () => CODE_PADDING,
      paddingRight: () => CODE_PADDING,
      paddingTop: () => 5,
      paddingBottom: () => 5,
    },
    margin: [0, 0, 0, 8],
  };
}

/** A line standing for what a PDF cannot show, naming it. */
export const placeholder = (text: string): Content => ({ text: `[${text}]`, style: 'placeholder' });

/** The link properties of a run going to `target`. */
export function linkRun(target: PdfLinkTarget): Partial<Inline> {
  if (!target) return {};
  return 'destination' in target
    ? { linkToDestination: target.destination, color: LINK_COLOR }
    : { link: target.url, color: LINK_COLOR };
}
