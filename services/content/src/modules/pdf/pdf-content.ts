import type {
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockConflict,
  DocumentBlockHint,
  DocumentBlockIf,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentInlineAnnotation,
  DocumentTextLeaf,
  JSONDocument,
} from '@quire/contracts';
import type { Content } from 'pdfmake/interfaces';
import { leavesText, phrasingText as textOfPhrasing } from '@quire/document/model';
import {
  columns,
  contentRef,
  expandable,
  labelled,
  notRunnable,
  referenceRun,
  stepper,
  table,
  tabs,
  type Phrasing,
  type Render,
} from './pdf-blocks.ts';
import {
  box,
  BOX_INSET,
  CONFLICT,
  HINTS,
  LIST_INDENT,
  linkRun,
  MAX_IMAGE_HEIGHT,
  monospaceBox,
  MUTED_BAR,
  narrower,
  placeholder,
  TEXT_COLOR,
  widthOf,
  type Inline,
  type PdfContentContext,
} from './pdf-layout.ts';

export {
  CONTENT_STYLES,
  CONTENT_WIDTH,
  type PdfContentContext,
  type PdfImage,
  type PdfLinkTarget,
} from './pdf-layout.ts';

/**
 * A page's GitBook JSON document → pdfmake content. Nothing is interactive on paper: every tab, step, column
 * and expandable is printed in full, and nothing is left out without a word.
 *
 * | document                               | PDF                                                                       |
 * |----------------------------------------|---------------------------------------------------------------------------|
 * | `heading-1..3`                         | headings (a destination named `<page>#<anchor>`, what links to it reach)   |
 * | `paragraph`, marks                     | text: bold, italic, struck through, code and keys in the monospace font on grey, colors, sub- and superscript |
 * | `link`, `mention`, `button`            | a link: to the page or heading inside the PDF when it holds it, else to its URL (absolute, or on the public URL for `/…`); a mention shows the page's title or heading's text; other targets stay plain text |
 * | `annotation` (footnotes)               | a superscript number; the notes at the end of the page, numbered           |
 * | `emoji`, `expression`, `inline-math`   | the character; the expression and the TeX in the monospace font            |
 * | lists, task lists                      | bulleted, numbered (from `start`), ☐/☑ items; nested                       |
 * | `code`                                 | a grey box in the monospace font, its title above, its line numbers when asked |
 * | `math`                                 | its TeX in a grey box in the monospace font                               |
 * | `blockquote`, `hint`                   | a box with a bar on the left; a tinted box with its style (Info, Warning…) |
 * | `tabs`, `expandable`                   | a box: each tab under its title; the summary, then the content            |
 * | `stepper`, `columns`                   | the steps numbered; the columns one after the other                       |
 * | `table`                                | a grid (cells by column type), header row repeated on each page; cards: a box per card, its target a link |
 * | `images`, `drawing`                    | each embeddable image (PNG, JPEG of the space) scaled to the page, caption below; any other as its alternative text |
 * | `embed`, `content-ref`, `file`         | a line with the link (the page's title, the file's name)                  |
 * | `if`                                   | its content, in a box saying when it shows                                |
 * | `conflict`                             | a red box, each side under its origin                                     |
 * | reusable content, OpenAPI, integration | a line naming what is not printed                                         |
 * | `divider`                              | a thin rule                                                               |
 */

type AnyBlock = DocumentBlock;

/** The PDF content of a page's document, its notes (footnotes) at the end. */
export function documentContent(doc: JSONDocument, ctx: PdfContentContext): Content[] {
  const notes: Content[][] = [];
  const content = blocks(doc.nodes, { ...ctx, notes });
  if (!notes.length) return content;
  const rule: Content = {
    canvas: [{ type: 'line', x1: 0, y1: 0, x2: 120, y2: 0, lineWidth: 0.6, lineColor: '#999999' }],
    margin: [0, 8, 0, 4],
  };
  const numbered = notes.map(
    (note, i): Content => ({
      columns: [
        { text: `${i + 1}.`, width: LIST_INDENT },
        { stack: note.length ? note : [' '], width: widthOf(ctx) - LIST_INDENT },
      ],
      columnGap: 0,
      style: 'note',
    }),
  );
  return [...content, rule, { text: 'Notes', style: 'notesTitle' }, ...numbered];
}

/** The plain text of phrasing nodes (outline labels, captions). */
export const phrasingText = (nodes: Phrasing): string =>
  textOfPhrasing(nodes, { image: (data) => data.alt ?? '', emoji: emojiOf });

/** The character of an emoji from its hexadecimal code points (`1f44d`, `1f1eb-1f1f7`). */
function emojiOf(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((hex) => Number.parseInt(hex, 16)));
  } catch {
    return '';
  }
}

const render: Render = { blocks: (nodes, ctx) => blocks(nodes, ctx), inlines: (nodes, ctx) => inlines(nodes, ctx) };

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
      return [
        {
          canvas: [{ type: 'line', x1: 0, y1: 0, x2: widthOf(ctx), y2: 0, lineWidth: 0.6, lineColor: '#cccccc' }],
          margin: [0, 6, 0, 10],
        },
      ];
    case 'code':
      return code(node, ctx);
    case 'math':
      return [monospaceBox(node.data.formula, ctx)];
    case 'list-ordered':
      return [
        {
          ol: node.nodes.map((item) => listItem(item, narrower(ctx, LIST_INDENT))),
          start: node.data.start ?? 1,
          margin: [0, 0, 0, 6],
        },
      ];
    case 'list-unordered':
      return [{ ul: node.nodes.map((item) => listItem(item, narrower(ctx, LIST_INDENT))), margin: [0, 0, 0, 6] }];
    case 'list-tasks':
      return [{ stack: node.nodes.map((item) => taskItem(item, ctx)), margin: [0, 0, 0, 6] }];
    case 'blockquote':
      return [box(blocks(node.nodes, narrower(ctx, BOX_INSET)), ctx, { bar: MUTED_BAR, style: 'quote' })];
    case 'hint':
      return [hint(node, ctx)];
    default:
      return gitbookBlock(node, ctx);
  }
}

/** GitBook's own blocks: images and drawings, tables, containers, references, conditions and conflicts. */
function gitbookBlock(node: AnyBlock, ctx: PdfContentContext): Content[] {
  switch (node.type) {
    case 'images':
      return images(node, ctx);
    case 'drawing': {
      const embedded = node.data.ref ? ctx.image(node.data.ref) : undefined;
      return embedded ? [picture(embedded, ctx, false)] : [placeholder('Drawing')];
    }
    case 'table':
      return table(node, ctx, render);
    case 'tabs':
      return tabs(node, ctx, render);
    case 'expandable':
      return expandable(node, ctx, render);
    case 'stepper':
      return stepper(node, ctx, render);
    case 'columns':
      return columns(node, ctx, render);
    case 'embed':
      return [labelled('Embedded', [referenceRun({ kind: 'url', url: node.data.url }, ctx)])];
    case 'content-ref':
      return contentRef(node, ctx);
    case 'file':
      return [
        labelled('File', [
          referenceRun(node.data.ref, ctx, node.data.caption || 'a file'),
          ...(node.data.caption ? [{ text: ` (${node.data.caption})` }] : []),
        ]),
      ];
    case 'if':
      return [conditional(node, ctx)];
    case 'conflict':
      return [conflict(node, ctx)];
    default:
      // Containers' own parts (printed by their container), then what a PDF cannot run.
      return notRunnable(node, ctx) ?? blocksOfPart(node, ctx);
  }
}

/** A block that is a part of a container, met on its own (a tab, a step, a column…): its blocks. */
function blocksOfPart(node: AnyBlock, ctx: PdfContentContext): Content[] {
  if ('nodes' in node && Array.isArray(node.nodes) && node.type !== 'code-line')
    return blocks(node.nodes as AnyBlock[], ctx);
  return [placeholder(`${node.type} block`)];
}

function paragraph(nodes: Phrasing, ctx: PdfContentContext): Content {
  const text = inlines(nodes, ctx);
  return { text: text.length ? text : ' ', style: 'paragraph' };
}

/** A list item: its blocks, the first one's bottom margin dropped so items stay close. */
function listItem(item: DocumentBlockListItem, ctx: PdfContentContext): Content {
  const content = blocks(item.nodes, ctx);
  if (content.length === 1 && item.nodes[0]?.type === 'paragraph')
    return { text: (content[0] as { text: Inline[] }).text, margin: [0, 0, 0, 2] };
  return { stack: content.length ? content : [' '], margin: [0, 0, 0, 2] };
}

function taskItem(item: DocumentBlockListItem, ctx: PdfContentContext): Content {
  return {
    columns: [
      { text: item.data?.checked ? '☑' : '☐', width: 14 },
      { stack: blocks(item.nodes, narrower(ctx, 16)), width: widthOf(ctx) - 16 },
    ],
    columnGap: 2,
  };
}

/** The run of a leaf of text, with its marks. */
function leafRun(leaf: DocumentTextLeaf, inherited: Partial<Inline>): Inline {
  const run: Inline = { ...inherited, text: leaf.text };
  for (const mark of leaf.marks) {
    switch (mark.type) {
      case 'bold':
        run.bold = true;
        break;
      case 'italic':
        run.italics = true;
        break;
      case 'strikethrough':
        run.decoration = 'lineThrough';
        break;
      case 'superscript':
        run.sup = true;
        break;
      case 'subscript':
        run.sub = true;
        break;
      case 'code':
      case 'keyboard':
        run.font = 'Mono';
        run.background = '#eeeeee';
        break;
      case 'color': {
        const text = TEXT_COLOR[mark.data.text];
        const background = TEXT_COLOR[mark.data.background];
        if (text) run.color = text.text;
        if (background) run.background = background.background;
        break;
      }
    }
  }
  return run;
}

/** Phrasing nodes as flat inline runs (each run holds its own marks and link). */
function inlines(nodes: Phrasing, ctx: PdfContentContext, inherited: Partial<Inline> = {}): Inline[] {
  const out: Inline[] = [];
  const mono = { ...inherited, font: 'Mono', background: '#eeeeee' };
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) if (leaf.text) out.push(leafRun(leaf, inherited));
      continue;
    }
    switch (node.type) {
      case 'link':
        out.push(...inlines(node.nodes, ctx, { ...inherited, ...linkRun(ctx.link(node.data.ref, ctx.pageId)) }));
        break;
      case 'mention':
        out.push({ ...inherited, ...referenceRun(node.data.ref, ctx) });
        break;
      case 'button':
        out.push({
          ...inherited,
          ...('ref' in node.data ? referenceRun(node.data.ref, ctx, node.data.label) : { text: node.data.label }),
          text: `[${node.data.label}]`,
        });
        break;
      case 'annotation':
        out.push(...annotation(node, ctx, inherited));
        break;
      case 'emoji':
        out.push({ ...inherited, text: emojiOf(node.data.code) });
        break;
      case 'expression':
        out.push({ ...mono, text: node.data.expression });
        break;
      case 'inline-math':
        out.push({ ...mono, text: node.data.formula });
        break;
      case 'inline-image': {
        const alt = node.data.alt || node.data.caption;
        if (alt) out.push({ ...inherited, text: `[${alt}]`, style: 'missingImage' });
        break;
      }
      case 'icon':
        break; // an icon is decoration: a PDF has no icon font
    }
  }
  return out;
}

/** The annotated text, then the note's number in superscript; the note goes to the page's notes. */
function annotation(node: DocumentInlineAnnotation, ctx: PdfContentContext, inherited: Partial<Inline>): Inline[] {
  const out = node.nodes.flatMap((t) => t.leaves.filter((l) => l.text).map((l) => leafRun(l, inherited)));
  if (!ctx.notes) return out;
  ctx.notes.push(node.fragments.flatMap((f) => blocks(f.nodes, { ...narrower(ctx, LIST_INDENT), notes: undefined })));
  out.push({ text: String(ctx.notes.length), sup: true });
  return out;
}

function code(node: DocumentBlockCode, ctx: PdfContentContext): Content[] {
  const lines = node.nodes.map((line) =>
    line.nodes
      .map((t) =>
        t.object === 'text'
          ? leavesText(t)
          : t.type === 'expression'
            ? t.data.expression
            : t.nodes.map(leavesText).join(''),
      )
      .join(''),
  );
  const digits = String(lines.length).length;
  const text = lines
    .map((line, i) => `${node.data.lineNumbers ? `${String(i + 1).padStart(digits)}  ` : ''}${line}`)
    .join('\n')
    .replace(/\t/g, '    ');
  const out: Content[] = [];
  if (node.data.title) out.push({ text: node.data.title, style: 'codeTitle' });
  out.push(monospaceBox(text, ctx));
  return out;
}

function hint(node: DocumentBlockHint, ctx: PdfContentContext): Content {
  const style = HINTS[node.data.style];
  return box(
    [{ text: style.label, style: 'hintLabel', color: style.bar }, ...blocks(node.nodes, narrower(ctx, BOX_INSET))],
    ctx,
    { bar: style.bar, fill: style.fill },
  );
}

/** Content shown to some readers only: printed, in a box saying when it shows. */
function conditional(node: DocumentBlockIf, ctx: PdfContentContext): Content {
  const when = {
    text: [{ text: 'Shown when ' }, { text: node.data.expression, font: 'Mono' }],
    style: 'hintLabel',
    color: '#555555',
  };
  return box([when, ...blocks(node.nodes, narrower(ctx, BOX_INSET))], ctx, { bar: MUTED_BAR });
}

/** A merge conflict left in a change request: a red box, each side under its origin. */
function conflict(node: DocumentBlockConflict, ctx: PdfContentContext): Content {
  const inner = narrower(ctx, BOX_INSET);
  const sides = node.nodes.flatMap((side): Content[] => [
    { text: `From ${side.data.title}:`, style: 'hintLabel', color: CONFLICT.bar },
    ...(side.nodes.length ? blocks(side.nodes, inner) : [{ text: '(nothing)', style: 'missingImage' }]),
  ]);
  return box([{ text: 'Unresolved conflict', style: 'hintLabel', color: CONFLICT.bar }, ...sides], ctx, CONFLICT);
}

function picture(
  embedded: { name: string; width: number; height: number },
  ctx: PdfContentContext,
  captioned: boolean,
): Content {
  const scale = Math.min(1, widthOf(ctx) / embedded.width, MAX_IMAGE_HEIGHT / embedded.height);
  return {
    image: embedded.name,
    width: embedded.width * scale,
    height: embedded.height * scale,
    alignment: 'center',
    margin: [0, 4, 0, captioned ? 0 : 8],
  };
}

function images(node: DocumentBlockImages, ctx: PdfContentContext): Content[] {
  return node.nodes.flatMap((img): Content[] => {
    const caption = img.fragments
      .flatMap((f) => f.nodes)
      .map((p) => phrasingText(p.nodes))
      .join(' ')
      .trim();
    const embedded = ctx.image(img.data.ref);
    if (!embedded)
      return [{ text: `[Image: ${img.data.alt || caption || 'not embedded'}]`, style: ['paragraph', 'missingImage'] }];
    return caption
      ? [picture(embedded, ctx, true), { text: caption, style: 'caption' }]
      : [picture(embedded, ctx, false)];
  });
}
