import type {
  BlockContent,
  Code,
  Image,
  ListItem,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { dump as stringifyYaml } from 'js-yaml';
import type {
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockExpandable,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListOrdered,
  DocumentBlockListTasks,
  DocumentBlockListUnordered,
  DocumentBlockOpenAPIOperation,
  DocumentBlockOpenAPISchemas,
  DocumentBlockOpenAPIWebhook,
  DocumentBlockParagraph,
  DocumentBlockTable,
  JSONDocument,
} from '@quire/contracts/document';
import { alignedHtml } from './aligned-html.ts';
import { tableHtml } from './cards.ts';
import { captionText, normalizeRuns, runsToMdast } from './leaves.ts';
import { lengthText } from './md-blocks.ts';
import { gitbookHtmlAttribute, gitbookHtmlText } from './md-context.ts';
import { isTagLine, stringifyMarkdown } from './markdown-syntax.ts';
import { markdownToDocument } from './markdown-to-document.ts';
import { escapeRawTags, hasRawTags } from './raw-tags.ts';
import { endTag, writeTag } from './tag-attributes.ts';
import type { TagBlock } from './tag-blocks.ts';
import { leavesText } from '../document-outline.ts';
import { phrasing, type WriteCtx } from './write-inlines.ts';
import { urlFromContentRef, urlFromRef } from '../refs.ts';

/**
 * GitBook JSON document → markdown, in the one canonical style of `markdown-syntax.ts` (the inverse of
 * `markdownToDocument`; docs/markdown.md lists every block and its markdown). What markdown cannot say is
 * left out: empty paragraphs (except where a container would be empty), heading anchors (recomputed from the
 * text), the table header's visibility, a line break in a heading (a space). Text in a table cell is one
 * line: `\n` is written `<br>`.
 *
 * Text kept raw when it was read (unknown tags and HTML, unbalanced tags) is written back as it is, unless it
 * would then mean something else: the writer checks its candidate against the fully escaped text by reading
 * both back, and escapes when they differ. `source`: the markdown `document` was read from, when it was (see
 * normalizeMarkdown), which spares reading that text again.
 */
export function documentToMarkdown(document: JSONDocument, source?: string, padTables = false): string {
  const verbatim = write(document, true, padTables);
  if (!verbatim.raw) return verbatim.markdown;
  const escaped = write(document, false, padTables);
  const meaning = JSON.stringify(markdownToDocument(escaped.markdown));
  if (readBack(verbatim.markdown, document, source) === meaning) return verbatim.markdown;
  const some = stringifyMarkdown(escapeRawTags(verbatimTree(document, true).tree, 'pairable'), padTables);
  return JSON.stringify(markdownToDocument(some)) === meaning ? some : escaped.markdown;
}

/**
 * A page's stored markdown as GitBook's Git Sync writes it: the same, its tables padded to their widest cell
 * (stored unpadded, see markdown-syntax.ts). Pages without a table are returned as they are, unread.
 */
export function gitbookMarkdown(markdown: string): string {
  if (!/^\s*\|.*\|\s*$/m.test(markdown)) return markdown;
  return documentToMarkdown(markdownToDocument(markdown), undefined, true);
}

/**
 * What `markdown` reads as (JSON): when it is the `source` the document was just read from (normalising text
 * already in the stored form), that is the document itself, and the read is saved.
 */
function readBack(markdown: string, document: JSONDocument, source: string | undefined): string {
  return JSON.stringify(markdown === source ? document : markdownToDocument(markdown));
}

function verbatimTree(document: JSONDocument, rawHtml: boolean): { tree: Root; raw: boolean } {
  const ctx: WriteCtx = {
    footnotes: [],
    rawHtml,
    raw: false,
    closeEmbeds: hasCaptionedEmbed(document.nodes),
    blocks: (nodes, c) => blocks(nodes as readonly DocumentBlock[], c),
  };
  const children: RootContent[] = blocks(document.nodes, ctx);
  const frontMatter = document.data.frontMatter;
  if (frontMatter && Object.keys(frontMatter).length > 0)
    children.unshift({ type: 'yaml', value: stringifyYaml(frontMatter).trimEnd() });
  children.push(...ctx.footnotes);
  return { tree: { type: 'root', children }, raw: ctx.raw };
}

/** The markdown with raw text verbatim (`raw`: whether there was any) or escaped. */
function write(document: JSONDocument, verbatim: boolean, padTables: boolean): { markdown: string; raw: boolean } {
  const { tree, raw } = verbatimTree(document, verbatim);
  const markdown = stringifyMarkdown(verbatim ? tree : escapeRawTags(tree, 'all'), padTables);
  return { markdown, raw: verbatim && (raw || hasRawTags(tree)) };
}

function blocks(nodes: readonly DocumentBlock[], ctx: WriteCtx): BlockContent[] {
  return nodes.flatMap((node) => block(node, ctx));
}

function block(node: DocumentBlock, ctx: WriteCtx): BlockContent[] {
  switch (node.type) {
    case 'paragraph':
      return paragraph(node, ctx);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const aligned = node.data?.id ? null : alignedHtml(node);
      if (aligned) return [{ type: 'html', value: aligned }];
      const depth = node.type === 'heading-1' ? 1 : node.type === 'heading-2' ? 2 : 3;
      const children = phrasing(node.nodes, 'break', ctx);
      // a custom anchor as GitBook writes it: `## Title <a href="#slug" id="slug"></a>`
      const id = node.data?.id;
      if (id) children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${id}" id="${id}"></a>` });
      return [{ type: 'heading', depth, children }];
    }
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'html':
      // kept as written; read back to check it still means itself (documentToMarkdown)
      ctx.raw = true;
      return [{ type: 'html', value: node.data.html }];
    case 'code':
      return [code(node)];
    case 'math':
      return [{ type: 'math', value: node.data.formula }];
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(node.nodes, ctx) }];
    case 'hint':
      return [liquid('hint', { style: node.data.style, icon: node.data.icon }, blocks(node.nodes, ctx))];
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [list(node, ctx)];
    case 'images':
      return images(node);
    case 'table': {
      const cards = tableHtml(node);
      return [cards === null ? table(node, ctx) : { type: 'html', value: cards }];
    }
    default:
      return gitbookBlock(node, ctx);
  }
}

/** GitBook's blocks written with tags or HTML. */
function gitbookBlock(node: DocumentBlock, ctx: WriteCtx): BlockContent[] {
  switch (node.type) {
    case 'tabs':
    case 'stepper':
    case 'columns':
    case 'expandable':
    case 'if':
    case 'conflict':
      return [container(node, ctx)];
    case 'prompt': {
      const d = node.data;
      const attributes = {
        description: d.description,
        icon: d.icon,
        openInAIProviders: booleanText(d.openInAIProviders),
        defaultExpanded: d.defaultExpanded,
      };
      return [liquid('prompt', attributes, node.nodes.map(code))];
    }
    case 'updates':
      return [
        liquid(
          'updates',
          { format: node.data.format },
          node.nodes.map((u) => liquid('update', { date: u.data.date }, blocks(u.nodes, ctx))),
        ),
      ];
    default:
      return reference(node, ctx);
  }
}

/** A block GitBook writes in markdown around its content: tabs, steps, columns, an expandable, a condition. */
type ContainerBlock = Extract<
  DocumentBlock,
  { type: 'tabs' | 'stepper' | 'columns' | 'expandable' | 'if' | 'conflict' }
>;

/** A boolean attribute's text, absent when the value is. */
const booleanText = (value: boolean | undefined) => (value === undefined ? undefined : String(value));

/** Whether some embed of the document (at any depth) has a caption. */
function hasCaptionedEmbed(nodes: readonly unknown[]): boolean {
  const work = [...nodes] as { type?: string; data?: { caption?: unknown }; nodes?: unknown[] }[];
  for (let node = work.pop(); node; node = work.pop()) {
    if (node.type === 'embed' && typeof node.data?.caption === 'string' && node.data.caption.trim()) return true;
    if (Array.isArray(node.nodes)) work.push(...(node.nodes as typeof work));
  }
  return false;
}

/** A block that points at something else (a URL, a file, a spec, an integration), written as a tag. */
function reference(node: DocumentBlock, ctx: WriteCtx): BlockContent[] {
  switch (node.type) {
    case 'embed': {
      const attributes = { url: node.data.url, fullWidth: booleanText(node.data.fullWidth) };
      const caption = node.data.caption?.trim().replace(/\s+/g, ' ');
      // with its caption between its tags, as GitBook writes it
      if (!caption && !ctx.closeEmbeds) return [tag('embed', attributes)];
      return [
        liquid(
          'embed',
          attributes,
          caption ? [{ type: 'paragraph', children: [{ type: 'text', value: caption }] }] : [],
        ),
      ];
    }
    case 'content-ref': {
      const url = urlFromContentRef(node.data.ref);
      const title: PhrasingContent = { type: 'link', url, title: null, children: [{ type: 'text', value: url }] };
      return [liquid('content-ref', { url }, [{ type: 'paragraph', children: [title] }])];
    }
    case 'file': {
      const attributes = { src: urlFromRef(node.data.ref) };
      // always with its closing tag, as GitBook writes it: a file alone could pair with a later `{% endfile %}`
      const caption = node.data.caption?.trim().replace(/\s+/g, ' ');
      return [
        liquid(
          'file',
          attributes,
          caption ? [{ type: 'paragraph', children: [{ type: 'text', value: caption }] }] : [],
        ),
      ];
    }
    case 'drawing':
      return [tag('drawing', { src: node.data.ref ? urlFromRef(node.data.ref) : undefined })];
    case 'reusable-content':
      return [tag('include', { space: node.data.ref.space }, [node.data.ref.reusableContent])];
    case 'swagger': {
      const d = node.data;
      const src = urlFromRef(d.ref);
      const attributes = {
        src,
        path: d.path,
        method: d.method,
        expanded: booleanText(d.expanded),
        fullWidth: booleanText(d.fullWidth),
      };
      // GitBook's link to the spec: its URL, or its file's name (a relative path by then, see repo-export.ts)
      return [liquid(d.tag === 'openapi' ? 'openapi' : 'swagger', attributes, [specLink(src, src)])];
    }
    case 'openapi-operation':
    case 'openapi-webhook':
    case 'openapi-schemas':
      return [openapi(node)];
    case 'integration':
      return [tag('integration', { data: JSON.stringify(node.data) })];
    default:
      return []; // list items, tab items, steps, columns, sides, images and code lines are written by their parents
  }
}

/** A container block: its tags around its children's blocks. */
function container(node: ContainerBlock, ctx: WriteCtx): BlockContent {
  switch (node.type) {
    case 'tabs':
      return liquid(
        'tabs',
        {},
        node.nodes.map((item) =>
          liquid('tab', { title: item.data.title, icon: item.data.icon }, blocks(item.nodes, ctx)),
        ),
      );
    case 'stepper':
      return liquid(
        'stepper',
        {},
        node.nodes.map((s) => liquid('step', { icon: s.data.icon }, blocks(s.nodes, ctx))),
      );
    case 'columns':
      return liquid(
        'columns',
        {},
        node.nodes.map((c) => {
          const width = c.data.width === undefined ? undefined : lengthText(c.data.width);
          return liquid('column', { width, valign: c.data.verticalAlignment }, blocks(c.nodes, ctx));
        }),
      );
    case 'expandable':
      return expandable(node, ctx);
    case 'if':
      return {
        ...liquid('if', {}, blocks(node.nodes, ctx)),
        open: `{% if ${node.data.expression.replace(/\s+/g, ' ').trim()} %}`,
      };
    case 'conflict':
      return liquid(
        'conflict',
        {},
        node.nodes.map((side) => liquid('conflict-side', { title: side.data.title }, blocks(side.nodes, ctx))),
      );
  }
}

/** A tag's attributes, in the order written (one left undefined is not written). */
type TagAttributes = Record<string, string | undefined>;

/** A tag alone on its line. */
const tag = (name: string, attributes: TagAttributes, positional: string[] = []): BlockContent => ({
  type: 'liquidTag',
  value: writeTag(name, Object.entries(attributes), positional),
});

/** GitBook's link to the spec between an OpenAPI block's tags; the spec's source URL is not in the document. */
const specLink = (text: string, url: string): BlockContent => ({
  type: 'paragraph',
  children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: text }], data: { resource: true } }],
});

/** An OpenAPI block as GitBook's Git Sync writes it: its tags around the link to its spec. */
function openapi(
  node: DocumentBlockOpenAPIOperation | DocumentBlockOpenAPIWebhook | DocumentBlockOpenAPISchemas,
): BlockContent {
  const spec = node.data.ref.spec;
  const link = specLink(`OpenAPI ${spec}`, urlFromContentRef(node.data.ref));
  switch (node.type) {
    case 'openapi-operation':
      return liquid(node.type, { spec, path: node.data.path, method: node.data.method }, [link]);
    case 'openapi-webhook':
      return liquid(node.type, { spec, name: node.data.name, method: node.data.method }, [link]);
    case 'openapi-schemas': {
      const d = node.data;
      const attributes = { spec, schemas: d.schemas.join(','), grouped: booleanText(d.grouped), title: d.title };
      return liquid('openapi-schemas', attributes, [link]);
    }
  }
}

/** A block GitBook writes between `{% name attrs %}` and `{% endname %}`. */
function liquid(name: string, attributes: TagAttributes, children: BlockContent[]): TagBlock {
  const open = writeTag(name, Object.entries(attributes));
  return { type: 'tagBlock', syntax: 'liquid', name, open, close: endTag(name), children };
}

function paragraph(node: DocumentBlockParagraph, ctx: WriteCtx): BlockContent[] {
  const aligned = alignedHtml(node);
  if (aligned) return [{ type: 'html', value: aligned }];
  const raw = rawText(node);
  if (raw !== null && raw.startsWith('{%') && isTagLine(raw)) return [{ type: 'liquidTag', value: raw, raw: true }];
  if (raw !== null && ctx.rawHtml && /^<[A-Za-z/!?]/.test(raw)) {
    ctx.raw = true;
    return [{ type: 'html', value: raw }];
  }
  const children = phrasing(node.nodes, 'break', ctx);
  while (children.at(-1)?.type === 'break') children.pop(); // markdown has no line break at the end of a paragraph
  return children.length > 0 ? [{ type: 'paragraph', children }] : [];
}

/** The text of a paragraph that is one unformatted text, which may be raw markdown kept when it was read. */
function rawText(node: DocumentBlockParagraph): string | null {
  const [only, ...rest] = node.nodes;
  if (rest.length > 0 || only?.object !== 'text' || only.leaves.length !== 1) return null;
  const [leaf] = only.leaves;
  return leaf && leaf.marks.length === 0 ? leaf.text : null;
}

function code(node: DocumentBlockCode): BlockContent {
  const fence: Code = {
    type: 'code',
    lang: node.data.syntax || null,
    meta: null,
    value: node.nodes
      .map((line) => line.nodes.map((n) => (n.object === 'text' ? leavesText(n) : '')).join(''))
      .join('\n'),
  };
  const d = node.data;
  const b = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
  const options = {
    title: d.title || undefined,
    overflow: d.overflow,
    lineNumbers: b(d.lineNumbers),
    fullWidth: b(d.fullWidth),
    expandable: b(d.expandable),
    collapsedLineCount: d.collapsedLineCount === undefined ? undefined : String(d.collapsedLineCount),
  };
  return Object.values(options).some((v) => v !== undefined) ? liquid('code', options, [fence]) : fence;
}

function expandable(node: DocumentBlockExpandable, ctx: WriteCtx): TagBlock {
  const title = node.fragments.find((f) => f.type === 'expandable-title');
  const body = node.fragments.find((f) => f.type === 'expandable-body');
  const text = (title?.nodes ?? [])
    .map((p) => p.nodes.map((n) => (n.object === 'text' ? leavesText(n) : '')).join(''))
    .join(' ');
  const summary: BlockContent = {
    type: 'html',
    value: `<summary>${gitbookHtmlText(text.replace(/\s+/g, ' ').trim())}</summary>`,
  };
  const open = node.data.defaultExpanded ? '<details open>' : '<details>';
  return {
    type: 'tagBlock',
    syntax: 'html',
    name: 'details',
    open,
    close: '</details>',
    children: [summary, ...blocks(body?.nodes ?? [], ctx)],
  };
}

function list(
  node: DocumentBlockListOrdered | DocumentBlockListUnordered | DocumentBlockListTasks,
  ctx: WriteCtx,
): BlockContent {
  const tasks = node.type === 'list-tasks';
  const items = node.nodes.map((item): ListItem => {
    const children = blocks(item.nodes, ctx);
    // a task's checkbox is written before its first paragraph: keep an empty one to carry it
    if (tasks && children[0]?.type !== 'paragraph') children.unshift({ type: 'paragraph', children: [] });
    // a tight item only when it is one block, or a paragraph and its sub-list: any other block would be
    // read as a lazy continuation of the one before
    const [first, second] = children;
    const tight =
      children.length === 1 || (children.length === 2 && first?.type === 'paragraph' && second?.type === 'list');
    return { type: 'listItem', spread: !tight, checked: tasks ? item.data?.checked === true : null, children };
  });
  return node.type === 'list-ordered'
    ? { type: 'list', ordered: true, start: node.data.start ?? 1, spread: false, children: items }
    : { type: 'list', ordered: false, spread: false, children: items };
}

/**
 * Images as GitBook's Git Sync writes them: a `<figure>` for an image read from one (it has a caption fragment,
 * even empty), with a size, a dark-mode variant or options on the block (one HTML block each), markdown images
 * (one per line) otherwise; a group of images only some of which have a caption keeps the captions as the
 * images' titles, so that the group stays one block.
 */
function images(node: DocumentBlockImages): BlockContent[] {
  const options = Object.values(node.data ?? {}).some((v) => v !== undefined);
  const figures =
    options ||
    node.nodes.some((image) => image.data.width !== undefined || image.data.height !== undefined) ||
    node.nodes.some((image) => image.data.refDark !== undefined) ||
    (node.nodes.length === 1 && node.nodes.some((image) => image.fragments.length > 0));
  if (figures) return node.nodes.map((image) => ({ type: 'html', value: figure(image, node.data) }));
  const children = node.nodes.flatMap((image, i): PhrasingContent[] =>
    i > 0 ? [{ type: 'text', value: '\n' }, picture(image)] : [picture(image)],
  );
  return [{ type: 'paragraph', children }];
}

const captionOf = (image: DocumentBlockImage) =>
  captionText(
    image.fragments
      .flatMap((f) => f.nodes)
      .map((p) => p.nodes.map((n) => (n.object === 'text' ? leavesText(n) : '')).join(''))
      .join(' '),
  );

function picture(image: DocumentBlockImage): Image {
  return { type: 'image', url: urlFromRef(image.data.ref), alt: image.data.alt ?? '', title: captionOf(image) || null };
}

/** One image as GitBook writes it: `<figure>`, its `<picture>` when it has a dark variant, in a `<div>` for options. */
function figure(image: DocumentBlockImage, options: DocumentBlockImages['data']): string {
  const d = image.data;
  const attributes = [
    `src="${gitbookHtmlAttribute(urlFromRef(d.ref))}"`,
    `alt="${gitbookHtmlAttribute(d.alt ?? '')}"`,
    ...(d.width === undefined ? [] : [`width="${gitbookHtmlAttribute(lengthText(d.width))}"`]),
    ...(d.height === undefined ? [] : [`height="${gitbookHtmlAttribute(lengthText(d.height))}"`]),
  ];
  const img = `<img ${attributes.join(' ')}>`;
  const shown = d.refDark
    ? `<picture><source srcset="${gitbookHtmlAttribute(urlFromRef(d.refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>`
    : img;
  const caption = captionOf(image);
  const html = `<figure>${shown}<figcaption>${caption ? `<p>${gitbookHtmlText(caption)}</p>` : ''}</figcaption></figure>`;
  const div = [
    options?.align === undefined ? '' : ` align="${options.align}"`,
    options?.fullWidth === undefined ? '' : ` data-full-width="${options.fullWidth}"`,
    options?.withFrame === undefined ? '' : ` data-with-frame="${options.withFrame}"`,
  ].join('');
  return div ? `<div${div}>${html}</div>` : html;
}

function table(node: DocumentBlockTable, ctx: WriteCtx): BlockContent {
  const columns = node.data.view.columns.flatMap((id) => {
    const column = node.data.definition[id];
    return column ? [column] : [];
  });
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f]));
  const records = Object.entries(node.data.records).sort(([idA, a], [idB, b]) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0,
  );
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map(
      (column): TableCell => ({
        type: 'tableCell',
        children: runsToMdast(normalizeRuns([{ text: column.title.trim(), marks: 0 }]), 'br'),
      }),
    ),
  };
  const rows = records.map(
    ([, record]): TableRow => ({
      type: 'tableRow',
      children: columns.map((column): TableCell => {
        const value = record.values[column.id];
        if (column.type !== 'text') return { type: 'tableCell', children: cellValue(value) };
        const paragraphs = (typeof value === 'string' ? fragments.get(value) : undefined)?.nodes ?? [];
        const children = paragraphs
          .map((p) => phrasing(p.nodes, 'br', ctx))
          .filter((content) => content.length > 0)
          .flatMap((content, i): PhrasingContent[] =>
            i > 0 ? [{ type: 'html', value: '<br>' }, ...content] : content,
          );
        return { type: 'tableCell', children: trimCell(children) };
      }),
    }),
  );
  return {
    type: 'table',
    align: columns.map((column) =>
      column.type === 'text' && column.textAlignment !== 'left' ? column.textAlignment : null,
    ),
    children: [header, ...rows],
  };
}

/** A cell of a column that is not rich text, as its plain value (markdown tables only hold text). */
function cellValue(
  value: DocumentBlockTable['data']['records'][string]['values'][string] | undefined,
): PhrasingContent[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'object' && !Array.isArray(value) && 'kind' in value) {
    const url = urlFromContentRef(value);
    return [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }];
  }
  const text = Array.isArray(value)
    ? value.join(', ')
    : typeof value === 'object'
      ? urlFromRef(value.ref)
      : String(value);
  return text === '' ? [] : [{ type: 'text', value: text }];
}

/** GFM trims the spaces around a cell's content. */
function trimCell(children: PhrasingContent[]): PhrasingContent[] {
  const out = [...children];
  const first = out[0];
  if (first?.type === 'text') out[0] = { type: 'text', value: first.value.trimStart() };
  const last = out.at(-1);
  if (last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value.trimEnd() };
  return out.filter((node) => node.type !== 'text' || node.value !== '');
}
