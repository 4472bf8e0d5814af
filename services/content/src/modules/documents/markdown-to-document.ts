import GithubSlugger from 'github-slugger';
import type { Code, Definition, List, ListItem, Node, Paragraph, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { generateNKeysBetween } from 'fractional-indexing';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import {
  HEADING_TYPES,
  type DocumentBlockCode,
  type DocumentBlockHeading,
  type DocumentBlockHint,
  type DocumentBlockImage,
  type DocumentBlockListItem,
  type DocumentBlockParagraph,
  type DocumentBlockQuote,
  type DocumentBlockTable,
  type DocumentBlockTopLevel,
  type DocumentHintChild,
  type DocumentHintStyle,
  type DocumentInlineImage,
  type DocumentInlineLink,
  type DocumentListItemChild,
  type DocumentQuoteChild,
  type DocumentTableDefinitionText,
  type DocumentTableRecord,
  type JSONDocument,
} from '@quire/contracts';
import { BOLD, CODE, ITALIC, STRIKETHROUGH, captionText, phrasingNodes, textNode, type Piece, type Run } from './leaves.ts';
import { hintOpenStyle, isHintClose, parseMarkdown } from './markdown-syntax.ts';
import { refFromUrl } from './refs.ts';

/**
 * Markdown → GitBook JSON document.
 *
 * | markdown                                  | document                                                        |
 * |-------------------------------------------|-----------------------------------------------------------------|
 * | `#`, `##`, `###`                          | `heading-1..3`; `####`–`######` become `heading-3` (GitBook has three levels); `meta.id` is the GitHub anchor |
 * | paragraph                                 | `paragraph`; soft line breaks are spaces, hard breaks `\n`       |
 * | `**` `*` `~~` `` ` ``                     | marks bold, italic, strikethrough, code                         |
 * | `[text](url)`, `<url>`, `www.x.y`, refs   | inline `link`, ref `{kind:'url'}` or `{kind:'file'}` (see refs.ts); link titles are dropped |
 * | paragraph of only images (top level)      | `images` block, one `image` per picture (title → caption)       |
 * | GitBook's `<figure><img …>` export        | the same (`src`, `alt`, `<figcaption>` text)                     |
 * | other images                              | inline `inline-image` (title → caption)                         |
 * | `-`/`*`/`+`, `1.`, `- [ ]`                | `list-unordered`, `list-ordered` (`start`), `list-tasks` (`checked`); a list with any task item is a task list |
 * | fenced/indented code                      | `code` (`syntax` = language, `title` from `title="…"` in the info string), one `code-line` per line |
 * | `>`                                       | `blockquote`                                                    |
 * | `{% hint style="…" %}…{% endhint %}`      | `hint` (info, warning, danger, success)                         |
 * | GFM table                                 | `table`: text columns titled by the header row (plain text), alignment kept, one fragment per cell |
 * | `---`                                     | `divider`                                                       |
 *
 * GitBook restricts what may nest: a block that its container may not hold (code, tables, quotes or hints
 * in a quote; code, quotes or hints in a hint) is lifted out, splitting the container around it, so nothing
 * is dropped. Markdown GitBook has no block for is kept as its raw text in a plain paragraph: HTML blocks,
 * footnote definitions and references, and inline HTML (except `<br>`, a line break); reference-style link
 * definitions are applied to their links and then dropped.
 */
export function markdownToDocument(markdown: string): JSONDocument {
  const { tree, source } = parseMarkdown(markdown);
  const definitions = new Map<string, Definition>();
  collectDefinitions(tree.children, definitions);
  const ctx: Ctx = { source, definitions, slugger: new GithubSlugger() };
  return { object: 'document', data: {}, nodes: flow(tree.children, 'document', ctx) };
}

type Container = 'document' | 'list-item' | 'blockquote' | 'hint';
interface Ctx {
  source: string;
  definitions: Map<string, Definition>;
  slugger: GithubSlugger;
}

function collectDefinitions(nodes: RootContent[], into: Map<string, Definition>): void {
  for (const node of nodes) {
    if (node.type === 'definition' && !into.has(node.identifier)) into.set(node.identifier, node);
    if ('children' in node) collectDefinitions(node.children, into);
  }
}

/** The blocks of a sequence of mdast siblings; hint markers among them open and close hints. */
function flow(children: RootContent[], container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  const out: DocumentBlockTopLevel[] = [];
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    const style = markerParagraph(child, hintOpenStyle, ctx);
    const end = style ? closingMarker(children, i, ctx) : -1;
    if (style && end > i) {
      out.push(...hint(style, children.slice(i + 1, end), ctx));
      i = end;
      continue;
    }
    out.push(...block(child, container, ctx));
  }
  return out;
}

/** A paragraph that is only a marker line, tested by `test` (on its source: `\{% endhint %}` is text). */
function markerParagraph<T>(node: RootContent, test: (line: string) => T, ctx: Ctx): T | null {
  if (node.type !== 'paragraph' || node.children.length !== 1 || node.children[0]?.type !== 'text') return null;
  return test(sourceOf(node, ctx));
}

function closingMarker(children: RootContent[], open: number, ctx: Ctx): number {
  let depth = 0;
  for (let i = open + 1; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    if (markerParagraph(child, hintOpenStyle, ctx)) depth++;
    else if (markerParagraph(child, isHintClose, ctx)) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

function block(node: RootContent, container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  switch (node.type) {
    case 'paragraph': {
      const result = paragraphOrImages(node, container, ctx);
      return result.type === 'paragraph' && isEmpty(result) ? [] : [result]; // e.g. only `<br>`s: nothing to show
    }
    case 'heading': {
      const type = HEADING_TYPES[Math.min(node.depth, 3) - 1] ?? 'heading-3'; // h4–h6: GitBook has three levels
      const nodes = phrasingNodes(singleLine(pieces(node.children, 0, ctx)));
      const heading: DocumentBlockHeading = { object: 'block', type, data: {}, meta: { id: ctx.slugger.slug(headingText(nodes)) }, nodes };
      return [heading];
    }
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'code':
      return [code(node)];
    case 'blockquote':
      return wrapRuns(flow(node.children, 'blockquote', ctx), isQuoteChild, quote, emptyParagraph());
    case 'list':
      return [list(node, ctx)];
    case 'table':
      return [table(node, ctx)];
    case 'definition':
      return []; // applied to the links that use it
    case 'html': {
      const image = figure(node.value);
      if (!image) return [rawParagraph(node.value, ctx)];
      return [container === 'document' ? imagesBlock([image]) : paragraph(phrasingNodes([image]))];
    }
    default:
      // footnote definitions, and whatever GFM adds that GitBook has no block for: kept as their source text
      return [rawParagraph(sourceOf(node, ctx), ctx)];
  }
}

function sourceOf(node: Node, ctx: Ctx): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? '' : ctx.source.slice(start, end);
}

/**
 * Raw text as a plain paragraph, one line per line (indentation and trailing spaces do not survive markdown).
 * URLs and e-mail addresses in it become links, as they will when its markdown is read again.
 */
function rawParagraph(raw: string, ctx: Ctx): DocumentBlockParagraph {
  const lines = raw.trim().split('\n');
  const children = lines.flatMap((line, i): PhrasingContent[] => [...(i > 0 ? [{ type: 'break' as const }] : []), { type: 'text', value: line.trim() }]);
  return paragraph(phrasingNodes(rawPieces(children, 0, ctx)));
}

const [findLiteralLinks] = gfmAutolinkLiteralFromMarkdown().transforms ?? [];

/** Text taken verbatim from the source: remark finds `www.`/`https://` URLs and e-mail addresses in it the way it does in any text. */
function rawPieces(children: PhrasingContent[], marks: number, ctx: Ctx): Piece<Inline>[] {
  const root: Root = { type: 'root', children: [{ type: 'paragraph', children }] };
  findLiteralLinks?.(root);
  const paragraphNode = root.children[0];
  return pieces(paragraphNode?.type === 'paragraph' ? paragraphNode.children : children, marks, ctx);
}

const isEmpty = (p: DocumentBlockParagraph) => p.nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.text === ''));
const paragraph = (nodes: DocumentBlockParagraph['nodes']): DocumentBlockParagraph => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const emptyParagraph = () => paragraph([textNode([])]);

// ── Containers ──────────────────────────────────────────────────────────────────────────────────────────

const QUOTE_CHILDREN = new Set<string>(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'blockquote']);
const HINT_CHILDREN = new Set<string>(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'table']);
const isQuoteChild = (block: DocumentBlockTopLevel): block is DocumentQuoteChild => QUOTE_CHILDREN.has(block.type);
const isHintChild = (block: DocumentBlockTopLevel): block is DocumentHintChild => HINT_CHILDREN.has(block.type);

const quote = (nodes: DocumentQuoteChild[]): DocumentBlockQuote => ({ object: 'block', type: 'blockquote', data: {}, nodes });

function hint(style: DocumentHintStyle, children: RootContent[], ctx: Ctx): DocumentBlockTopLevel[] {
  const make = (nodes: DocumentHintChild[]): DocumentBlockHint => ({ object: 'block', type: 'hint', data: { style }, nodes });
  return wrapRuns(flow(children, 'hint', ctx), isHintChild, make, emptyParagraph());
}

/**
 * Wraps the blocks a container may hold in that container; a block it may not hold is lifted out between
 * two containers. An empty container holds one empty paragraph.
 */
function wrapRuns<C extends DocumentBlockTopLevel>(
  blocks: DocumentBlockTopLevel[],
  accepts: (block: DocumentBlockTopLevel) => block is C,
  wrap: (nodes: C[]) => DocumentBlockTopLevel,
  empty: C,
): DocumentBlockTopLevel[] {
  const out: DocumentBlockTopLevel[] = [];
  let run: C[] = [];
  for (const b of blocks) {
    if (accepts(b)) {
      run.push(b);
      continue;
    }
    if (run.length > 0) out.push(wrap(run));
    run = [];
    out.push(b);
  }
  if (run.length > 0) out.push(wrap(run));
  if (blocks.length === 0) out.push(wrap([empty]));
  return out;
}

function list(node: List, ctx: Ctx): DocumentBlockTopLevel {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const items = node.children.map((item) => listItem(item, tasks, ctx));
  if (tasks) return { object: 'block', type: 'list-tasks', data: {}, nodes: items };
  if (node.ordered) {
    const start = node.start ?? 1;
    return { object: 'block', type: 'list-ordered', data: start === 1 ? {} : { start }, nodes: items };
  }
  return { object: 'block', type: 'list-unordered', data: {}, nodes: items };
}

function listItem(item: ListItem, task: boolean, ctx: Ctx): DocumentBlockListItem {
  let nodes = flow(item.children, 'list-item', ctx).map(asListItemChild);
  // GFM has no empty task (`- [ ]` alone is the text "[ ]"): an empty task is written `- [ ] &#x20;`
  const [head] = nodes;
  if (task && head?.type === 'paragraph' && head.nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.text.trim() === ''))) nodes = nodes.slice(1);
  return {
    object: 'block',
    type: 'list-item',
    data: task ? { checked: item.checked === true } : {},
    nodes: nodes.length > 0 ? nodes : [emptyParagraph()],
  };
}

/** Everything a list item may hold passes; images blocks are not made below the top level (see paragraphOrImages). */
function asListItemChild(block: DocumentBlockTopLevel): DocumentListItemChild {
  if (block.type !== 'images') return block;
  return paragraph(
    phrasingNodes(block.nodes.map((image): DocumentInlineImage => ({ object: 'inline', type: 'inline-image', data: { ...image.data }, isVoid: true }))),
  );
}

// ── Leaf blocks ─────────────────────────────────────────────────────────────────────────────────────────

function paragraphOrImages(node: Paragraph, container: Container, ctx: Ctx): DocumentBlockTopLevel {
  const content = trimEndBreaks(pieces(node.children, 0, ctx));
  const images = content.filter((p): p is Inline => !isRun(p));
  const onlyImages =
    container === 'document' &&
    images.length > 0 &&
    content.every((p) => (isRun(p) ? p.text.trim() === '' : p.type === 'inline-image'));
  if (!onlyImages) return paragraph(phrasingNodes(content));
  return imagesBlock(images.flatMap((inline) => (inline.type === 'inline-image' ? [inline] : [])));
}

function imagesBlock(images: DocumentInlineImage[]): DocumentBlockTopLevel {
  return { object: 'block', type: 'images', data: {}, isVoid: false, nodes: images.map(imageBlock) };
}

function imageBlock(inline: DocumentInlineImage): DocumentBlockImage {
  const { caption, ...data } = inline.data;
  return {
    object: 'block',
    type: 'image',
    data,
    fragments: caption ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([textNode([{ text: caption, marks: 0 }])])] }] : [],
    isVoid: true,
  };
}

/**
 * An image as GitBook's markdown export writes it:
 * `<figure><img src="…" alt="…" width="…"><figcaption><p>Caption</p></figcaption></figure>`
 * (the width is not kept; the caption is read as plain text).
 */
const FIGURE = /^<figure>\s*<img\s([^>]*?)\/?>\s*(?:<figcaption>([\s\S]*?)<\/figcaption>\s*)?<\/figure>$/i;

function figure(html: string): DocumentInlineImage | null {
  const match = FIGURE.exec(html.trim());
  const src = match?.[1] === undefined ? undefined : attribute(match[1], 'src');
  if (!match?.[1] || !src) return null;
  return inlineImage(src, attribute(match[1], 'alt'), match[2] === undefined ? undefined : decodeEntities(match[2].replace(/<[^>]*>/g, ' ')));
}

function attribute(attributes: string, name: string): string | undefined {
  const value = new RegExp(`(?:^|\\s)${name}="([^"]*)"`, 'i').exec(attributes)?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    const code = name[0] !== '#' ? undefined : name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const TITLE = /(?:^|\s)title="((?:[^"\\]|\\.)*)"/;

function code(node: Code): DocumentBlockCode {
  const title = node.meta ? TITLE.exec(node.meta)?.[1]?.replace(/\\(.)/g, '$1') : undefined;
  return {
    object: 'block',
    type: 'code',
    data: { ...(node.lang ? { syntax: node.lang } : {}), ...(title ? { title } : {}) },
    nodes: node.value.split('\n').map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  };
}

function table(node: Table, ctx: Ctx): DocumentBlockTable {
  const [header, ...rows] = node.children;
  const columns = (header?.children ?? []).map((cell, i) => {
    const alignment = node.align?.[i];
    const column: DocumentTableDefinitionText = {
      id: `c${i + 1}`,
      title: plainText(phrasingNodes(pieces(cell.children, 0, ctx))).trim(),
      type: 'text',
      textAlignment: alignment ?? 'left',
    };
    return column;
  });
  const orderIndexes = generateNKeysBetween(null, null, rows.length);
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentBlockTable['fragments'] = [];
  rows.forEach((row, r) => {
    const id = `r${r + 1}`;
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      // GFM: missing cells are empty, cells beyond the header's are not part of the table
      const cell = row.children[c];
      const name = `${id}-${column.id}`;
      values[column.id] = name;
      fragments.push({ object: 'fragment', fragment: name, nodes: [paragraph(phrasingNodes(trimCell(pieces(cell?.children ?? [], 0, ctx))))] });
    });
    records[id] = { orderIndex: orderIndexes[r] ?? '', values };
  });
  return {
    object: 'block',
    type: 'table',
    data: {
      view: { type: 'grid', columns: columns.map((c) => c.id), hideHeader: false },
      records,
      definition: Object.fromEntries(columns.map((c) => [c.id, c])),
    },
    fragments,
    isVoid: true,
  };
}

// ── Inline content ──────────────────────────────────────────────────────────────────────────────────────

type Inline = DocumentInlineLink | DocumentInlineImage;
const isRun = (piece: Piece<Inline>): piece is Run => !('object' in piece);

/** A heading is one line: its line breaks (`<br>`) are spaces. */
function singleLine(content: Piece<Inline>[]): Piece<Inline>[] {
  return content.map((p) => {
    if (isRun(p)) return { text: p.text.replaceAll('\n', ' '), marks: p.marks };
    if (p.type === 'link') return { ...p, nodes: p.nodes.map((n) => (n.object === 'text' ? { ...n, leaves: n.leaves.map((l) => ({ ...l, text: l.text.replaceAll('\n', ' ') })) } : n)) };
    return p;
  });
}

/** Markdown cannot end a paragraph with a line break (a `<br>` there shows nothing): trailing ones go. */
function trimEndBreaks(content: Piece<Inline>[]): Piece<Inline>[] {
  const out = [...content];
  for (let i = out.length - 1; i >= 0; i--) {
    const p = out[i];
    if (!p || !isRun(p)) break;
    const text = p.text.replace(/\n+$/, '');
    out[i] = { text, marks: p.marks };
    if (text !== '') break;
  }
  return out;
}

/** A table cell cannot start or end with spaces (GFM trims them). */
function trimCell(content: Piece<Inline>[]): Piece<Inline>[] {
  const out = [...content];
  for (let i = 0; i < out.length; i++) {
    const p = out[i];
    if (!p || !isRun(p) || p.marks & CODE) break;
    const text = p.text.trimStart();
    out[i] = { text, marks: p.marks };
    if (text !== '') break;
  }
  for (let i = out.length - 1; i >= 0; i--) {
    const p = out[i];
    if (!p || !isRun(p) || p.marks & CODE) break;
    const text = p.text.trimEnd();
    out[i] = { text, marks: p.marks };
    if (text !== '') break;
  }
  return out;
}

/** Soft line breaks are spaces, as they render. */
const unwrap = (text: string) => text.replace(/[ \t]*\n[ \t]*/g, ' ');
const BR = /^<br\s*\/?>$/i;

function pieces(nodes: PhrasingContent[], marks: number, ctx: Ctx, inLink = false): Piece<Inline>[] {
  const out: Piece<Inline>[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push({ text: unwrap(node.value), marks });
        break;
      case 'strong':
        out.push(...pieces(node.children, marks | BOLD, ctx, inLink));
        break;
      case 'emphasis':
        out.push(...pieces(node.children, marks | ITALIC, ctx, inLink));
        break;
      case 'delete':
        out.push(...pieces(node.children, marks | STRIKETHROUGH, ctx, inLink));
        break;
      case 'inlineCode':
        out.push({ text: node.value.replaceAll('\n', ' '), marks: marks | CODE }); // CommonMark: line endings in code spans are spaces
        break;
      case 'break':
        out.push({ text: '\n', marks });
        break;
      case 'link':
        out.push(...link(node.url, node.children, marks, ctx, inLink));
        break;
      case 'linkReference': {
        const definition = ctx.definitions.get(node.identifier);
        if (definition) out.push(...link(definition.url, node.children, marks, ctx, inLink));
        else out.push(...raw(sourceOf(node, ctx), marks, ctx, inLink));
        break;
      }
      case 'image':
        out.push(inlineImage(node.url, node.alt, node.title));
        break;
      case 'imageReference': {
        const definition = ctx.definitions.get(node.identifier);
        if (definition) out.push(inlineImage(definition.url, node.alt, definition.title));
        else out.push(...raw(sourceOf(node, ctx), marks, ctx, inLink));
        break;
      }
      case 'html':
        if (BR.test(node.value.trim())) out.push({ text: '\n', marks });
        else out.push(...raw(node.value, marks, ctx, inLink));
        break;
      default:
        // footnote references and anything else inline GitBook has no node for: their source text
        out.push(...raw(sourceOf(node, ctx), marks, ctx, inLink));
    }
  }
  return out;
}

function raw(text: string, marks: number, ctx: Ctx, inLink: boolean): Piece<Inline>[] {
  return inLink ? [{ text: unwrap(text), marks }] : rawPieces([{ type: 'text', value: text }], marks, ctx);
}

function link(url: string, children: PhrasingContent[], marks: number, ctx: Ctx, inLink: boolean): Piece<Inline>[] {
  const content = pieces(children, marks, ctx, true);
  if (inLink) return content; // markdown has no link inside a link; kept for completeness
  const nodes = phrasingNodes(content.flatMap((p) => (isRun(p) || p.type === 'inline-image' ? [p] : [])));
  return [{ object: 'inline', type: 'link', data: { ref: refFromUrl(url) }, nodes }];
}

function inlineImage(url: string, alt: string | null | undefined, title: string | null | undefined): DocumentInlineImage {
  const caption = captionText(title);
  return {
    object: 'inline',
    type: 'inline-image',
    data: { ref: refFromUrl(url), ...(alt ? { alt } : {}), ...(caption ? { caption } : {}) },
    isVoid: true,
  };
}

/** The characters of texts and links (images excluded), as GitHub reads a heading to make its anchor. */
export function plainText(nodes: DocumentBlockParagraph['nodes']): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
      if (node.type === 'link') return plainText(node.nodes);
      return '';
    })
    .join('');
}
const headingText = plainText;
