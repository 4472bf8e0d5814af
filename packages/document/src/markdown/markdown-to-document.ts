import GithubSlugger from 'github-slugger';
import type {
  Definition,
  FootnoteDefinition,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  RootContent,
  Table,
} from 'mdast';
import { orderKeysFor } from '../order-keys.ts';
import { parse as parseYaml } from 'yaml';
import {
  HEADING_TYPES,
  type DocumentBlockHeading,
  type DocumentBlockHtml,
  type DocumentBlockImage,
  type DocumentBlockImages,
  type DocumentBlockListItem,
  type DocumentBlockQuote,
  type DocumentBlockTable,
  type DocumentBlockTopLevel,
  type DocumentInlineImage,
  type DocumentListItemChild,
  type DocumentQuoteChild,
  type DocumentTableDefinitionText,
  type DocumentTableRecord,
  type JSONDocument,
  type Length,
} from '@quire/contracts/document';
import { alignedBlock } from './aligned-html.ts';
import { htmlTable } from './cards.ts';
import { refFromUrl } from '../refs.ts';
import { contain, holds } from './containment.ts';
import { CODE, phrasingNodes, textNode, type Piece } from './leaves.ts';
import { code, lengthOf, liquidLeaf, tagBlock, tagLine } from './md-blocks.ts';
import {
  attribute,
  decodeEntities,
  emptyParagraph,
  isEmptyParagraph,
  paragraph,
  sourceOf,
  textParagraph,
  type Container,
  type Ctx,
} from './md-context.ts';
import { inlineImage, isRun, pieces, plainText, rawParagraph, type Inline } from './md-inlines.ts';
import { parseMarkdown } from './markdown-syntax.ts';

export { plainText } from './md-inlines.ts';

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
 * is dropped. GitBook's own syntax (tags, `<details>`, math, marks as HTML, footnotes, front matter…) is
 * read by md-blocks.ts and md-inlines.ts; see docs/markdown.md for the whole list. Markdown GitBook has no
 * block for is kept as its raw text in a plain paragraph (unknown tags and HTML, footnotes without
 * definition); reference-style link and footnote definitions are applied where they are used, then dropped.
 */
export function markdownToDocument(markdown: string): JSONDocument {
  const { tree, source } = parseMarkdown(markdown);
  const definitions = new Map<string, Definition>();
  const footnotes = new Map<string, FootnoteDefinition>();
  collectDefinitions(tree.children, definitions, footnotes);
  const ctx: Ctx = { source, definitions, footnotes, slugger: new GithubSlugger(), flow, depth: 0 };
  const [first] = tree.children;
  const frontMatter = first?.type === 'yaml' ? frontMatterOf(first.value) : undefined;
  const children = frontMatter ? tree.children.slice(1) : tree.children;
  // An empty front matter (`---` twice) says nothing: the document carries none, as its markdown will.
  const data = frontMatter && Object.keys(frontMatter).length > 0 ? { frontMatter } : {};
  return { object: 'document', data, nodes: flow(children, 'document', ctx) };
}

/** The YAML front matter as an object; null (kept as text) when it is not a YAML mapping. */
function frontMatterOf(yaml: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseYaml(yaml);
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function collectDefinitions(
  nodes: RootContent[],
  into: Map<string, Definition>,
  notes: Map<string, FootnoteDefinition>,
): void {
  const work = [...nodes];
  for (let node = work.pop(); node; node = work.pop()) {
    if (node.type === 'definition' && !into.has(node.identifier)) into.set(node.identifier, node);
    if (node.type === 'footnoteDefinition' && !notes.has(node.identifier)) notes.set(node.identifier, node);
    if ('children' in node && node.type !== 'paragraph' && node.type !== 'heading')
      work.push(...(node.children as RootContent[]));
  }
}

/** Containers nested deeper than this are kept as their markdown text (hostile input must not exhaust the stack). */
export const MAX_NESTING = 48;

/** The blocks of a sequence of mdast siblings. */
function flow(children: RootContent[], container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  if (ctx.depth >= MAX_NESTING) {
    const [first] = children;
    const last = children.at(-1);
    if (!first || !last) return [];
    const source = ctx.source.slice(first.position?.start.offset ?? 0, last.position?.end.offset ?? 0);
    return [rawParagraph(source, ctx)];
  }
  ctx.depth++;
  try {
    return children.flatMap((child) => block(child, container, ctx));
  } finally {
    ctx.depth--;
  }
}

function block(node: RootContent, container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  switch (node.type) {
    case 'paragraph': {
      const result = paragraphOrImages(node, container, ctx);
      return result.type === 'paragraph' && isEmptyParagraph(result) ? [] : [result]; // e.g. only `<br>`s: nothing to show
    }
    case 'heading': {
      const type = HEADING_TYPES[Math.min(node.depth, 3) - 1] ?? 'heading-3'; // h4–h6: GitBook has three levels
      const { children, id } = headingAnchor(node.children);
      const nodes = phrasingNodes(singleLine(pieces(children, 0, ctx)));
      const slug = ctx.slugger.slug(plainText(nodes));
      const heading: DocumentBlockHeading = {
        object: 'block',
        type,
        data: id === undefined ? {} : { id },
        meta: { id: id ?? slug },
        nodes,
      };
      return [heading];
    }
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'code':
      return [code(node)];
    case 'math':
      return [{ object: 'block', type: 'math', data: { formula: node.value }, isVoid: true }];
    case 'blockquote':
      return contain('blockquote', flow(node.children, 'blockquote', ctx), quote);
    case 'list':
      return list(node, ctx);
    case 'table':
      return [table(node, ctx)];
    case 'definition':
    case 'footnoteDefinition':
      return []; // applied where they are used
    case 'tagBlock':
      return tagBlock(node, container, ctx);
    case 'liquidTag': {
      const leaf = liquidLeaf(node.value);
      return [leaf && holds(container, leaf.type) ? leaf : tagLine(node.value)];
    }
    case 'html':
      return htmlBlock(node.value, container, ctx);
    default:
      // whatever GFM adds that GitBook has no block for (front matter not first, YAML that is no mapping): its text
      return [rawParagraph(sourceOf(node, ctx), ctx)];
  }
}

function htmlBlock(html: string, container: Container, ctx: Ctx): DocumentBlockTopLevel[] {
  const cards = htmlTable(html);
  if (cards && holds(container, 'table')) return [cards];
  const made = figure(html);
  if (!made) return [alignedOf(html, ctx) ?? htmlOf(html)];
  if (!holds(container, 'images')) return [paragraph(phrasingNodes([made.image]))];
  const { caption: _, ...data } = made.image.data;
  const image: DocumentBlockImage = {
    object: 'block',
    type: 'image',
    data: { ...data, ...made.size },
    // a figure keeps its caption, even empty (GitBook writes `<figcaption></figcaption>`): written back a figure
    fragments: [{ object: 'fragment', fragment: 'caption', nodes: [textParagraph(made.caption)] }],
    isVoid: true,
  };
  return [{ object: 'block', type: 'images', data: made.images, isVoid: false, nodes: [image] }];
}

/** An aligned paragraph or heading GitBook wrote as HTML (aligned-html.ts), a heading with its anchor. */
function alignedOf(html: string, ctx: Ctx): DocumentBlockTopLevel | null {
  const block = alignedBlock(html);
  if (block?.type === 'paragraph' || !block) return block;
  return { ...block, meta: { id: ctx.slugger.slug(plainText(block.nodes)) } };
}

/** HTML GitBook has no block for: kept as written, an `html` block (never text). */
const htmlOf = (html: string): DocumentBlockHtml => ({ object: 'block', type: 'html', data: { html }, isVoid: true });

/** GitBook's custom heading anchor, `## Title <a href="#slug" id="slug"></a>`: the heading's `data.id`. */
const ANCHOR_OPEN = /^<a\s+href="#([-a-z0-9.+_]+)"\s+id="([-a-z0-9.+_]+)"\s*>$/;

function headingAnchor(children: PhrasingContent[]): { children: PhrasingContent[]; id?: string } {
  const [open, close] = children.slice(-2);
  const m = open?.type === 'html' ? ANCHOR_OPEN.exec(open.value) : null;
  if (!m || m[1] !== m[2] || close?.type !== 'html' || close.value !== '</a>') return { children };
  const rest = children.slice(0, -2);
  const last = rest.at(-1);
  if (last?.type === 'text') rest[rest.length - 1] = { ...last, value: last.value.replace(/[ \t]+$/, '') };
  return { children: rest, id: m[1] };
}

const quote = (nodes: DocumentQuoteChild[]): DocumentBlockQuote => ({
  object: 'block',
  type: 'blockquote',
  data: {},
  nodes,
});

/** A list; blocks a list item may not hold are lifted out of the list, splitting it around them. */
function list(node: List, ctx: Ctx): DocumentBlockTopLevel[] {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const made = node.children.flatMap((item) => listItem(item, tasks, ctx));
  const out: DocumentBlockTopLevel[] = [];
  let items: DocumentBlockListItem[] = [];
  let start = node.start ?? 1;
  const flush = () => {
    if (items.length === 0) return;
    if (tasks) out.push({ object: 'block', type: 'list-tasks', data: {}, nodes: items });
    else if (node.ordered)
      out.push({ object: 'block', type: 'list-ordered', data: start === 1 ? {} : { start }, nodes: items });
    else out.push({ object: 'block', type: 'list-unordered', data: {}, nodes: items });
    start += items.length;
    items = [];
  };
  for (const b of made) {
    if (b.type === 'list-item') items.push(b);
    else {
      flush();
      out.push(b);
    }
  }
  flush();
  return out;
}

function listItem(item: ListItem, task: boolean, ctx: Ctx): (DocumentBlockListItem | DocumentBlockTopLevel)[] {
  const blocks = flow(item.children, 'list-item', ctx).flatMap(asListItemChild);
  const parts: (DocumentBlockListItem | DocumentBlockTopLevel)[] = [];
  let run: DocumentListItemChild[] = [];
  for (const b of blocks) {
    if (holds('list-item', b.type)) run.push(b as DocumentListItemChild);
    else {
      if (run.length > 0) parts.push(listItemOf(run, item, task));
      run = [];
      parts.push(b);
    }
  }
  if (run.length > 0 || parts.length === 0) parts.push(listItemOf(run, item, task));
  return parts;
}

function listItemOf(children: DocumentListItemChild[], item: ListItem, task: boolean): DocumentBlockListItem {
  let nodes = children;
  // GFM has no empty task (`- [ ]` alone is the text "[ ]"): an empty task is written `- [ ] &#x20;`
  const [head] = nodes;
  if (
    task &&
    head?.type === 'paragraph' &&
    head.nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.text.trim() === ''))
  )
    nodes = nodes.slice(1);
  return {
    object: 'block',
    type: 'list-item',
    data: task ? { checked: item.checked === true } : {},
    nodes: nodes.length > 0 ? nodes : [emptyParagraph()],
  };
}

/**
 * Everything a list item may hold passes; images blocks are not made below the top level (see
 * paragraphOrImages), nor conflicts (see tagBlock).
 */
function asListItemChild(block: DocumentBlockTopLevel): DocumentBlockTopLevel[] {
  if (block.type !== 'images') return [block];
  return [
    paragraph(
      phrasingNodes(
        block.nodes.map(
          (image): DocumentInlineImage => ({
            object: 'inline',
            type: 'inline-image',
            data: { ...image.data },
            isVoid: true,
          }),
        ),
      ),
    ),
  ];
}

// ── Leaf blocks ─────────────────────────────────────────────────────────────────────────────────────────

function paragraphOrImages(node: Paragraph, container: Container, ctx: Ctx): DocumentBlockTopLevel {
  const content = trimEndBreaks(pieces(node.children, 0, ctx));
  const images = content.filter((p): p is Inline => !isRun(p));
  const onlyImages =
    holds(container, 'images') &&
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
    fragments: caption
      ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([textNode([{ text: caption, marks: 0 }])])] }]
      : [],
    isVoid: true,
  };
}

/**
 * An image as GitBook's Git Sync writes it: `<figure><img src="…" alt="…" width="…"><figcaption><p>Caption</p>
 * </figcaption></figure>`, the image possibly a `<picture>` with its dark-mode source
 * (`<picture><source srcset="dark" media="(prefers-color-scheme: dark)"><img src="light" alt=""></picture>`), the
 * figure possibly in `<div align="center" data-full-width="true" data-with-frame="true">` (the images' options);
 * a `<picture>` alone too. The caption is read as plain text.
 */
const DIV = /^<div((?:\s+(?:align|data-full-width|data-with-frame)="[^"]*")+)\s*>([\s\S]*)<\/div>$/i;
const FIGURE = /^<figure>\s*([\s\S]*?)\s*(?:<figcaption>([\s\S]*?)<\/figcaption>\s*)?<\/figure>$/i;
const IMG = /^<img\s([^>]*?)\/?>$/i;
const PICTURE =
  /^<picture>\s*<source\s+srcset="([^"]*)"\s+media="\(prefers-color-scheme:\s*dark\)"\s*\/?>\s*<img\s([^>]*?)\/?>\s*<\/picture>$/i;

interface Figure {
  image: DocumentInlineImage;
  size: { width?: Length; height?: Length };
  caption: string;
  images: DocumentBlockImages['data'];
}

function figure(html: string): Figure | null {
  let inner = html.trim();
  let images: DocumentBlockImages['data'] = {};
  const div = DIV.exec(inner);
  if (div?.[1] !== undefined && div[2] !== undefined) {
    const align = attribute(div[1], 'align');
    if (align !== undefined && align !== 'center' && align !== 'left' && align !== 'right') return null;
    const full = attribute(div[1], 'data-full-width');
    const frame = attribute(div[1], 'data-with-frame');
    images = defined({ align, fullWidth: boolOf(full), withFrame: boolOf(frame) });
    if (full !== undefined && images.fullWidth === undefined) return null;
    if (frame !== undefined && images.withFrame === undefined) return null;
    inner = div[2].trim();
  }
  const fig = FIGURE.exec(inner);
  if (!fig && Object.keys(images).length > 0) return null;
  const made = pictureOrImg(fig ? (fig[1] ?? '') : inner);
  if (!made || (!fig && !PICTURE.test(inner))) return null;
  const caption =
    fig?.[2] === undefined
      ? ''
      : decodeEntities(fig[2].replace(/<[^>]*>/g, ' '))
          .replace(/\s+/g, ' ')
          .trim();
  return { ...made, caption, images };
}

function pictureOrImg(html: string): Pick<Figure, 'image' | 'size'> | null {
  const picture = PICTURE.exec(html);
  const attrs = picture ? picture[2] : IMG.exec(html)?.[1];
  const src = attrs === undefined ? undefined : attribute(attrs, 'src');
  if (attrs === undefined || !src) return null;
  const image = inlineImage(src, attribute(attrs, 'alt'), undefined);
  if (picture?.[1]) image.data = { ...image.data, refDark: refFromUrl(decodeEntities(picture[1])) };
  const width = lengthOf(attribute(attrs, 'width'));
  const height = lengthOf(attribute(attrs, 'height'));
  return { image, size: defined({ width, height }) };
}

const boolOf = (value: string | undefined) => (value === 'true' ? true : value === 'false' ? false : undefined);
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

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
  const orderIndexes = orderKeysFor(rows.length);
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentBlockTable['fragments'] = [];
  rows.forEach((row, r) => {
    const id = `r${r + 1}`;
    const values: DocumentTableRecord['values'] = {};
    columns.forEach((column, c) => {
      // GFM: missing cells are empty, cells beyond the header's are not part of the table
      const cell = row.children[c];
      const name = `${id}-${column.id}`;
      values[column.id] = name;
      fragments.push({
        object: 'fragment',
        fragment: name,
        nodes: [paragraph(phrasingNodes(trimCell(pieces(cell?.children ?? [], 0, ctx))))],
      });
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

/** A heading is one line: its line breaks (`<br>`) are spaces. */
function singleLine(content: Piece<Inline>[]): Piece<Inline>[] {
  return content.map((p) => {
    if (isRun(p)) return { ...p, text: p.text.replaceAll('\n', ' ') };
    if (p.type === 'link')
      return {
        ...p,
        nodes: p.nodes.map((n) =>
          n.object === 'text'
            ? { ...n, leaves: n.leaves.map((l) => ({ ...l, text: l.text.replaceAll('\n', ' ') })) }
            : n,
        ),
      };
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
    out[i] = { ...p, text };
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
    out[i] = { ...p, text };
    if (text !== '') break;
  }
  for (let i = out.length - 1; i >= 0; i--) {
    const p = out[i];
    if (!p || !isRun(p) || p.marks & CODE) break;
    const text = p.text.trimEnd();
    out[i] = { ...p, text };
    if (text !== '') break;
  }
  return out;
}
