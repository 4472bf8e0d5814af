import type {
  DocumentBlockCode,
  DocumentBlockHint,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentBlockTopLevel,
  DocumentHintStyle,
  DocumentRef,
  JSONDocument,
} from '@quire/contracts';
import type { Content, ContentText, Style, TableCell } from 'pdfmake/interfaces';

/**
 * A page's GitBook JSON document → pdfmake content.
 *
 * | document                               | PDF                                                                       |
 * |----------------------------------------|---------------------------------------------------------------------------|
 * | `heading-1..3`                         | headings (a destination named `<page>#<anchor>`, what links to it reach)   |
 * | `paragraph`, marks                     | text: bold, italic, struck through, code in the monospace font on grey     |
 * | `link`                                 | a link: to the page or heading inside the PDF when it holds it, else to its URL (absolute, or on the public URL for `/…`); other targets (files, relative URLs) stay plain text |
 * | lists, task lists                      | bulleted, numbered (from `start`), ☐/☑ items; nested                       |
 * | `code`                                 | a grey box in the monospace font, its title above                          |
 * | `blockquote`, `hint`                   | a box with a bar on the left; a tinted box with its style (Info, Warning…) |
 * | `table`                                | a grid, header row repeated on each page                                   |
 * | `images`                               | each embeddable image (PNG, JPEG of the space) scaled to the page, caption below; any other image as its alternative text |
 * | `inline-image`                         | its alternative text                                                      |
 * | `divider`                              | a thin rule                                                               |
 */

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
  /** Where a link of the page goes. */
  link(ref: DocumentRef, fromPage: string): PdfLinkTarget;
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
}

/** The text width of an A4 page with the book's margins, in points. */
export const CONTENT_WIDTH = 595.28 - 2 * 50;
/** The tallest an image may be drawn, in points. */
const MAX_IMAGE_HEIGHT = 560;
/** What a list takes from the width of its items (marker and gap, generously: numbers up to three digits). */
const LIST_INDENT = 26;
/** A box's padding (left, right) and its bar. */
const BOX = { left: 8, right: 6, bar: 2.5 };
/** A code block's padding (each side). */
const CODE_PADDING = 6;
/** A table cell's padding (each side) and the width of its lines. */
const CELL = { padding: 4, line: 0.5 };

const LINK_COLOR = '#1a56db';
const HINTS: Record<DocumentHintStyle, { label: string; fill: string; bar: string }> = {
  info: { label: 'Info', fill: '#eef4ff', bar: '#3b82f6' },
  warning: { label: 'Warning', fill: '#fff8e6', bar: '#f59e0b' },
  danger: { label: 'Danger', fill: '#fdeeee', bar: '#ef4444' },
  success: { label: 'Success', fill: '#ecfdf3', bar: '#22c55e' },
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
};

type Inline = Omit<ContentText, 'text'> & { text: string };
type Phrasing = DocumentBlockParagraph['nodes'];
type AnyBlock = DocumentBlockTopLevel | DocumentBlockListItem['nodes'][number];

/** The PDF content of a page's document. */
export function documentContent(doc: JSONDocument, ctx: PdfContentContext): Content[] {
  return blocks(doc.nodes, ctx);
}

/** The plain text of phrasing nodes (outline labels). */
export function phrasingText(nodes: Phrasing): string {
  return nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : n.type === 'link' ? phrasingText(n.nodes) : (n.data.alt ?? ''))).join('');
}

const widthOf = (ctx: PdfContentContext) => ctx.width ?? CONTENT_WIDTH;
/** The context of content laid out `less` points narrower. */
const narrower = (ctx: PdfContentContext, less: number): PdfContentContext => ({ ...ctx, width: Math.max(40, widthOf(ctx) - less) });

function blocks(nodes: readonly AnyBlock[], ctx: PdfContentContext): Content[] {
  return nodes.flatMap((node) => block(node, ctx));
}

function block(node: AnyBlock, ctx: PdfContentContext): Content[] {
  switch (node.type) {
    case 'paragraph':
      return [paragraph(node.nodes, ctx)];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const style = node.type === 'heading-1' ? 'h1' : node.type === 'heading-2' ? 'h2' : 'h3';
      const anchor = node.data.id ?? node.meta?.id;
      const id = anchor ? ctx.headingDestination(ctx.pageId, anchor) : null;
      return [{ text: inlines(node.nodes, ctx), style, ...(id ? { id } : {}) }];
    }
    case 'divider':
      return [{ canvas: [{ type: 'line', x1: 0, y1: 0, x2: widthOf(ctx), y2: 0, lineWidth: 0.6, lineColor: '#cccccc' }], margin: [0, 6, 0, 10] }];
    case 'code':
      return code(node, ctx);
    case 'list-ordered':
      return [{ ol: node.nodes.map((item) => listItem(item, narrower(ctx, LIST_INDENT))), start: node.data.start ?? 1, margin: [0, 0, 0, 6] }];
    case 'list-unordered':
      return [{ ul: node.nodes.map((item) => listItem(item, narrower(ctx, LIST_INDENT))), margin: [0, 0, 0, 6] }];
    case 'list-tasks':
      return [
        {
          stack: node.nodes.map((item) => ({ columns: [{ text: item.data?.checked ? '☑' : '☐', width: 14 }, { stack: blocks(item.nodes, narrower(ctx, 16)), width: widthOf(ctx) - 16 }], columnGap: 2 })),
          margin: [0, 0, 0, 6],
        },
      ];
    case 'blockquote':
      return [box(blocks(node.nodes, narrower(ctx, BOX.left + BOX.right + BOX.bar)), ctx, { bar: '#bbbbbb', style: 'quote' })];
    case 'hint':
      return [hint(node, ctx)];
    case 'images':
      return images(node, ctx);
    case 'table':
      return table(node, ctx);
  }
}

function paragraph(nodes: Phrasing, ctx: PdfContentContext): Content {
  const text = inlines(nodes, ctx);
  return { text: text.length ? text : ' ', style: 'paragraph' };
}

/** A list item: its blocks, the first one's bottom margin dropped so items stay close. */
function listItem(item: DocumentBlockListItem, ctx: PdfContentContext): Content {
  const content = blocks(item.nodes, ctx);
  if (content.length === 1 && item.nodes[0]?.type === 'paragraph') return { text: (content[0] as ContentText).text, margin: [0, 0, 0, 2] };
  return { stack: content.length ? content : [' '], margin: [0, 0, 0, 2] };
}

/**
 * Phrasing nodes as flat inline runs: pdfmake does not carry the style of a nested run down to its
 * children, so every run holds its own marks and link.
 */
function inlines(nodes: Phrasing, ctx: PdfContentContext, inherited: Partial<Inline> = {}): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if (!leaf.text) continue;
        const run: Inline = { ...inherited, text: leaf.text };
        for (const mark of leaf.marks) {
          if (mark.type === 'bold') run.bold = true;
          else if (mark.type === 'italic') run.italics = true;
          else if (mark.type === 'strikethrough') run.decoration = 'lineThrough';
          else {
            run.font = 'Mono';
            run.background = '#eeeeee';
          }
        }
        out.push(run);
      }
    } else if (node.type === 'link') {
      const target = ctx.link(node.data.ref, ctx.pageId);
      const link: Partial<Inline> = !target ? {} : 'destination' in target ? { linkToDestination: target.destination, color: LINK_COLOR } : { link: target.url, color: LINK_COLOR };
      out.push(...inlines(node.nodes, ctx, { ...inherited, ...link }));
    } else {
      const alt = node.data.alt || node.data.caption;
      if (alt) out.push({ ...inherited, text: `[${alt}]`, style: 'missingImage' });
    }
  }
  return out;
}

function code(node: DocumentBlockCode, ctx: PdfContentContext): Content[] {
  const text = node.nodes.map((line) => line.nodes.map((t) => t.leaves.map((l) => l.text).join('')).join('')).join('\n').replace(/\t/g, '    ');
  const out: Content[] = [];
  if (node.data.title) out.push({ text: node.data.title, style: 'codeTitle' });
  out.push({
    table: { widths: [widthOf(ctx) - 2 * CODE_PADDING], body: [[{ text: text || ' ', style: 'code', preserveLeadingSpaces: true }]] },
    layout: { hLineWidth: () => 0, vLineWidth: () => 0, fillColor: () => '#f5f5f5', paddingLeft: () => CODE_PADDING, paddingRight: () => CODE_PADDING, paddingTop: () => 5, paddingBottom: () => 5 },
    margin: [0, 0, 0, 8],
  });
  return out;
}

/** A one-cell box with a coloured bar on its left (quotes, hints), as wide as `ctx` (its content laid out narrower). */
function box(content: Content[], ctx: PdfContentContext, opts: { bar: string; fill?: string; style?: string }): Content {
  return {
    table: { widths: [widthOf(ctx) - BOX.left - BOX.right - BOX.bar], body: [[{ stack: content.length ? content : [' '], ...(opts.style ? { style: opts.style } : {}) }]] },
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

function hint(node: DocumentBlockHint, ctx: PdfContentContext): Content {
  const style = HINTS[node.data.style];
  return box([{ text: style.label, style: 'hintLabel', color: style.bar }, ...blocks(node.nodes, narrower(ctx, BOX.left + BOX.right + BOX.bar))], ctx, { bar: style.bar, fill: style.fill });
}

function images(node: DocumentBlockImages, ctx: PdfContentContext): Content[] {
  return node.nodes.flatMap((img): Content[] => {
    const caption = img.fragments.flatMap((f) => f.nodes).map((p) => phrasingText(p.nodes)).join(' ').trim();
    const embedded = ctx.image(img.data.ref);
    const out: Content[] = [];
    if (embedded) {
      const scale = Math.min(1, widthOf(ctx) / embedded.width, MAX_IMAGE_HEIGHT / embedded.height);
      out.push({ image: embedded.name, width: embedded.width * scale, height: embedded.height * scale, alignment: 'center', margin: [0, 4, 0, caption ? 0 : 8] });
    } else {
      out.push({ text: `[Image: ${img.data.alt || caption || 'not embedded'}]`, style: ['paragraph', 'missingImage'] });
    }
    if (caption && embedded) out.push({ text: caption, style: 'caption' });
    return out;
  });
}

function table(node: DocumentBlockTable, ctx: PdfContentContext): Content[] {
  const { view, records, definition } = node.data;
  const columns = view.columns.filter((id) => definition[id]);
  if (!columns.length) return [];
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f]));
  const rows = Object.entries(records).sort(([a, x], [b, y]) => (x.orderIndex < y.orderIndex ? -1 : x.orderIndex > y.orderIndex ? 1 : a < b ? -1 : 1));
  const alignment = (id: string) => definition[id]!.textAlignment;
  const columnWidth = (widthOf(ctx) - columns.length * 2 * CELL.padding - (columns.length + 1) * CELL.line) / columns.length;
  const cellCtx = { ...ctx, width: columnWidth };
  const header: TableCell[] = columns.map((id) => ({ text: definition[id]!.title || ' ', style: 'tableHeader', alignment: alignment(id) }));
  const body: TableCell[][] = rows.map(([, record]) =>
    columns.map((id): TableCell => {
      const paragraphs = fragments.get(record.values[id] ?? '')?.nodes ?? [];
      return { stack: paragraphs.length ? paragraphs.map((p) => ({ text: inlines(p.nodes, cellCtx) })) : [' '], alignment: alignment(id) };
    }),
  );
  const withHeader = !view.hideHeader;
  if (!body.length && !withHeader) return [];
  return [
    {
      table: { headerRows: withHeader ? 1 : 0, widths: columns.map(() => Math.max(8, columnWidth)), body: withHeader ? [header, ...body] : body },
      layout: {
        hLineWidth: () => CELL.line,
        vLineWidth: () => CELL.line,
        hLineColor: () => '#d0d0d0',
        vLineColor: () => '#d0d0d0',
        fillColor: (row: number) => (withHeader && row === 0 ? '#f3f4f6' : null),
        paddingLeft: () => CELL.padding,
        paddingRight: () => CELL.padding,
        paddingTop: () => 3,
        paddingBottom: () => 3,
      },
      fontSize: columns.length > 5 ? 8 : 9.5,
      margin: [0, 2, 0, 10],
    },
  ];
}
