import { load, type CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { orderKeysFor } from '../order-keys.ts';
import type {
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTableRecordValue,
} from '@quire/contracts/document';
import {
  BOLD,
  CODE,
  ITALIC,
  STRIKETHROUGH,
  normalizeRuns,
  phrasingNodes,
  runsOfLeaves,
  type Piece,
  type Run,
} from './leaves.ts';
import { gitbookEntities, gitbookHtmlAttribute, gitbookHtmlText, paragraph } from './md-context.ts';
import type { Inline } from './md-inlines.ts';
import { contentRefFromUrl, refFromUrl, urlFromContentRef, urlFromRef } from '../refs.ts';

/**
 * GitBook's tables written as HTML. Its Git Sync writes a table as one line of HTML when markdown cannot hold it:
 * cards (a table in the `cards` view)
 *
 *     <table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th>
 *     <th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Title</strong></td>
 *     <td><a href="gitbook-page:p1">p1</a></td><td><a href="gitbook-file:f1">f1</a></td></tr></tbody></table>
 *
 * and grids with column widths, a hidden header, hidden columns or columns that are not text
 *
 *     <table data-header-hidden><thead><tr><th width="160">Version</th><th align="center">Change</th>
 *     <th data-type="number">Size</th></tr></thead><tbody><tr><td>2.0</td><td align="center">New engine</td>
 *     <td>3</td></tr></tbody></table>
 *
 * A column is rich text unless its `data-type` says `content-ref`, `files`, `image`, `number`, `checkbox`, `rating`
 * (`data-max`), `select` or `users` (`data-multiple`; GitBook writes their cells empty); `width` is the grid's column width, `align` a text column's alignment; `data-hidden` columns are
 * not shown, `data-card-target`, `data-card-cover` and `data-card-cover-dark` name the card's link and covers,
 * `data-card-size="large"` and `data-column-title-hidden` on the table set the cards' options, `data-header-hidden`
 * and `data-full-width="true"` the grid's. Text cells hold bold, italic, struck, code and linked text. A grid is
 * read only when writing it back gives the same HTML (`tableHtml`), so nothing GitBook wrote is lost; any other
 * table stays an `html` block.
 */

const TABLE = /^<table(?:\s[^>]*)?>[\s\S]*<\/table>$/i;

export function htmlTable(html: string): DocumentBlockTable | null {
  const source = html.trim();
  if (!TABLE.test(source)) return null;
  const $ = load(source, null, false);
  const table = $('table').first();
  const el = table.get(0);
  const view = table.attr('data-view');
  if (!el || (view !== undefined && view !== 'cards')) return null;
  const read = readTable($, table.find('thead th').toArray(), table.find('tbody tr').toArray(), view === 'cards');
  if (!read) return null;
  if (view === 'cards') return cardsOf($, el, read);
  const grid = gridOf($, el, read);
  return tableHtml(grid) === gitbookEntities(source) ? grid : null;
}

interface ReadTable {
  headers: Element[];
  definitions: DocumentTableDefinition[];
  records: Record<string, DocumentTableRecord>;
  fragments: DocumentBlockTable['fragments'];
  /** The columns shown (not `data-hidden`), in their order. */
  columns: string[];
}

/** The columns and rows of an HTML table; null when a column is of a type its HTML cannot carry. */
function readTable($: CheerioAPI, headers: Element[], rows: Element[], cards: boolean): ReadTable | null {
  if (headers.length === 0) return null;
  const read = headers.map((th, i) => definitionOf($, th, i, cards));
  if (read.some((d) => d === null)) return null;
  const definitions = read as DocumentTableDefinition[];
  const orderIndexes = orderKeysFor(rows.length);
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentBlockTable['fragments'] = [];
  rows.forEach((tr, r) => {
    const cells = $(tr).children('td').toArray();
    const values: Record<string, DocumentTableRecordValue> = {};
    definitions.forEach((definition, c) => {
      const cell = cells[c];
      const value = cell ? cellValue($, cell, definition, `r${r + 1}-${definition.id}`, fragments) : undefined;
      if (value !== undefined) values[definition.id] = value;
    });
    records[`r${r + 1}`] = { orderIndex: orderIndexes[r] ?? '', values };
  });
  const columns = definitions.filter((_, i) => $(headers[i]!).attr('data-hidden') === undefined).map((d) => d.id);
  return { headers, definitions, records, fragments, columns };
}

const has = ($: CheerioAPI, el: Element, name: string) => $(el).attr(name) !== undefined;

function gridOf($: CheerioAPI, table: Element, read: ReadTable): DocumentBlockTable {
  const widths = read.headers.flatMap((th, i): [string, number][] => {
    const width = $(th).attr('width');
    return width !== undefined && /^\d+(\.\d+)?$/.test(width) ? [[read.definitions[i]!.id, Number(width)]] : [];
  });
  return {
    object: 'block',
    type: 'table',
    data: {
      view: {
        type: 'grid',
        columns: read.columns,
        ...(widths.length ? { columnWidths: Object.fromEntries(widths) } : {}),
        hideHeader: has($, table, 'data-header-hidden'),
      },
      records: read.records,
      definition: Object.fromEntries(read.definitions.map((d) => [d.id, d])),
      ...($(table).attr('data-full-width') === 'true' ? { fullWidth: true } : {}),
    },
    fragments: read.fragments,
    isVoid: true,
  };
}

function cardsOf($: CheerioAPI, table: Element, read: ReadTable): DocumentBlockTable {
  const id = (name: string) => read.definitions[read.headers.findIndex((th) => has($, th, name))]?.id;
  const target = id('data-card-target');
  const cover = id('data-card-cover');
  const coverDark = id('data-card-cover-dark');
  return {
    object: 'block',
    type: 'table',
    data: {
      view: {
        type: 'cards',
        cardSize: $(table).attr('data-card-size') === 'large' ? 'large' : 'medium',
        columns: read.columns,
        ...(target ? { targetDefinition: target } : {}),
        ...(cover ? { coverDefinition: cover } : {}),
        ...(coverDark ? { coverDefinitionDark: coverDark } : {}),
        ...(has($, table, 'data-column-title-hidden') ? { hideColumnTitle: true } : {}),
      },
      records: read.records,
      definition: Object.fromEntries(read.definitions.map((d) => [d.id, d])),
    },
    fragments: read.fragments,
    isVoid: true,
  };
}

function definitionOf($: CheerioAPI, th: Element, i: number, cards: boolean): DocumentTableDefinition | null {
  const id = `c${i + 1}`;
  const title = $(th).text().trim();
  const type = $(th).attr('data-type');
  if (type === 'content-ref' || type === 'files' || type === 'number' || type === 'checkbox' || type === 'image')
    return { id, title, type };
  // GitBook writes neither a select column's options nor its cells, nor a users column's cells (`<td></td>`)
  const multiple = $(th).attr('data-multiple') !== undefined;
  if (type === 'select') return { id, title, type, multiple, options: [] };
  if (type === 'users') return { id, title, type, multiple };
  if (cards) return { id, title, type: 'text', textAlignment: 'left' };
  if (type === 'rating') {
    const max = Number($(th).attr('data-max') ?? '5');
    return Number.isInteger(max) && max > 0 ? { id, title, type, max } : null;
  }
  if (type !== undefined && type !== 'text') return null;
  const align = $(th).attr('align');
  const textAlignment = align === 'center' || align === 'right' ? align : 'left';
  return { id, title, type: 'text', textAlignment };
}

function cellValue(
  $: CheerioAPI,
  cell: Element,
  definition: DocumentTableDefinition,
  fragment: string,
  fragments: DocumentBlockTable['fragments'],
): DocumentTableRecordValue | undefined {
  const href = $(cell).find('a').first().attr('href');
  const text = $(cell).text().trim();
  switch (definition.type) {
    case 'content-ref':
      return href === undefined ? undefined : contentRefFromUrl(href);
    case 'files': {
      const ref = href === undefined ? undefined : refFromUrl(href);
      return ref === undefined ? undefined : ref.kind === 'file' ? [ref.file] : ref;
    }
    case 'number':
      return text === '' || !Number.isFinite(Number(text)) ? undefined : Number(text);
    case 'checkbox':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'rating':
      return text === '' || !Number.isInteger(Number(text)) ? undefined : Number(text);
    case 'image': {
      const ref = href === undefined ? undefined : refFromUrl(href);
      return ref === undefined ? undefined : ref.kind === 'file' ? { kind: 'file', file: ref.file } : ref;
    }
    case 'select':
    case 'users':
      return undefined; // written empty (see definitionOf): a cell with text is not GitBook's, the table stays HTML
    default:
      fragments.push({ object: 'fragment', fragment, nodes: [paragraph(phrasingNodes(runsOf(cell.children, 0)))] });
      return fragment;
  }
}

const MARK_OF: Record<string, number> = {
  strong: BOLD,
  b: BOLD,
  em: ITALIC,
  i: ITALIC,
  code: CODE,
  s: STRIKETHROUGH,
  del: STRIKETHROUGH,
};

/** The text of a cell's HTML with its marks and links (nested at most a few levels: a cell is small). */
function runsOf(nodes: AnyNode[], marks: number, depth = 0): Piece<Inline>[] {
  const out: Piece<Inline>[] = [];
  for (const node of nodes) {
    if (node.type === 'text') out.push({ text: node.data.replace(/\s+/g, ' '), marks });
    else if (node.type === 'tag' && depth < 16) {
      if (node.name === 'br') out.push({ text: '\n', marks });
      else if (node.name === 'a' && node.attribs.href !== undefined && !(marks & 256)) {
        const inner = runsOf(node.children, marks | 256, depth + 1).flatMap((p): Run[] =>
          'object' in p ? [] : [{ ...p, marks: p.marks & ~256 }],
        );
        out.push({
          object: 'inline',
          type: 'link',
          data: { ref: contentRefFromUrl(node.attribs.href) },
          nodes: phrasingNodes<never>(inner),
        });
      } else out.push(...runsOf(node.children, marks | (MARK_OF[node.name] ?? 0), depth + 1));
    }
  }
  return out;
}

// ── Writing ─────────────────────────────────────────────────────────────────────────────────────────────

/** A table as GitBook's HTML (see above): cards always, a grid when markdown cannot hold it; else null. */
export function tableHtml(node: DocumentBlockTable): string | null {
  return node.data.view.type === 'cards' ? cardsHtml(node) : gridHtml(node);
}

/** The columns of a table: those shown, in their order, then the hidden ones. */
function columnsOf(node: DocumentBlockTable): DocumentTableDefinition[] {
  const shown = new Set(node.data.view.columns);
  return [...node.data.view.columns, ...Object.keys(node.data.definition).filter((id) => !shown.has(id))].flatMap(
    (id) => {
      const d = node.data.definition[id];
      return d ? [d] : [];
    },
  );
}

const sortedRows = (node: DocumentBlockTable) =>
  Object.values(node.data.records).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );

/** Column types a grid written as HTML keeps (select, users and image ones only as `htmlKeeps` says). */
const GRID_TYPES = new Set([
  'text',
  'number',
  'checkbox',
  'files',
  'content-ref',
  'rating',
  'select',
  'users',
  'image',
]);

/**
 * Whether GitBook's HTML keeps a column whole: a select column with no options and no cell set, a users column with
 * no cell set (GitBook writes their cells empty), an image column whose cells are references (a file or a URL, no
 * `objectFit` or `alt`). Otherwise the grid is written as a pipe table of plain values, as before.
 */
function htmlKeeps(node: DocumentBlockTable, d: DocumentTableDefinition): boolean {
  const values = Object.values(node.data.records).map((r) => r.values[d.id]);
  const set = values.filter((v) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0));
  if (d.type === 'select') return d.options.length === 0 && set.length === 0;
  if (d.type === 'users') return set.length === 0;
  if (d.type === 'image') return set.every((v) => typeof v === 'object' && !Array.isArray(v) && 'kind' in v!);
  return GRID_TYPES.has(d.type);
}

/** `data-multiple` of a select or users column, as GitBook writes it (after `data-type`). */
const multipleAttr = (d: DocumentTableDefinition) =>
  (d.type === 'select' || d.type === 'users') && d.multiple ? ' data-multiple' : '';

/**
 * A grid as GitBook writes it when markdown cannot hold it: column widths, a hidden header, hidden columns, a
 * column that is not text, full width. Null for a grid markdown holds (a pipe table), or one with a column type
 * HTML does not carry (select, users, image: written as a pipe table of plain values).
 */
function gridHtml(node: DocumentBlockTable): string | null {
  const view = node.data.view;
  if (view.type !== 'grid') return null;
  const definitions = columnsOf(node);
  const shown = new Set(view.columns);
  const widths = view.columnWidths ?? {};
  const needsHtml =
    view.hideHeader ||
    node.data.fullWidth === true ||
    definitions.some((d) => !shown.has(d.id) || d.type !== 'text' || widths[d.id] !== undefined);
  if (!needsHtml || definitions.some((d) => !htmlKeeps(node, d)) || !node.fragments.every(htmlHolds)) return null;
  const align = (d: DocumentTableDefinition) =>
    d.type === 'text' && d.textAlignment !== 'left' ? ` align="${d.textAlignment}"` : '';
  const th = (d: DocumentTableDefinition) => {
    const width = widths[d.id];
    const attrs = [
      ...(width === undefined ? [] : [` width="${width}"`]),
      align(d),
      ...(shown.has(d.id) ? [] : [' data-hidden']),
      ...(d.type === 'text' ? [] : [` data-type="${gitbookHtmlAttribute(d.type)}"`]),
      ...(d.type === 'rating' ? [` data-max="${d.max}"`] : []),
      multipleAttr(d),
    ];
    return `<th${attrs.join('')}>${gitbookHtmlText(d.title)}</th>`;
  };
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f.nodes]));
  const td = (d: DocumentTableDefinition, value: DocumentTableRecordValue | undefined) =>
    `<td${align(d)}>${cellHtml(d, value, fragments)}</td>`;
  const options = `${node.data.fullWidth === true ? ' data-full-width="true"' : ''}${view.hideHeader ? ' data-header-hidden' : ''}`;
  return (
    `<table${options}><thead><tr>${definitions.map(th).join('')}</tr></thead>` +
    `<tbody>${sortedRows(node)
      .map((row) => `<tr>${definitions.map((d) => td(d, row.values[d.id])).join('')}</tr>`)
      .join('')}</tbody></table>`
  );
}

/** Whether a cell's HTML (`phrasingHtml`) holds all of it: text with bold, italic, struck and code, and links. */
function htmlHolds(fragment: DocumentBlockTable['fragments'][number]): boolean {
  const known = BOLD | ITALIC | STRIKETHROUGH | CODE;
  const texts = (nodes: DocumentBlockParagraph['nodes']): boolean =>
    nodes.every((n) =>
      n.object === 'text'
        ? runsOfLeaves(n.leaves).every((r) => r.color === undefined && !(r.marks & ~known))
        : n.type === 'link' && texts(n.nodes as DocumentBlockParagraph['nodes']),
    );
  return fragment.nodes.every((p) => texts(p.nodes));
}

/** A table in the cards view as GitBook's HTML (see above); null for a grid table. */
export function cardsHtml(node: DocumentBlockTable): string | null {
  const view = node.data.view;
  if (view.type !== 'cards') return null;
  const shown = new Set(view.columns);
  const definitions = columnsOf(node);
  const th = (d: DocumentTableDefinition) => {
    const attrs = [
      ...(shown.has(d.id) ? [] : [' data-hidden']),
      ...(view.targetDefinition === d.id ? [' data-card-target'] : []),
      ...(view.coverDefinition === d.id ? [' data-card-cover'] : []),
      ...(view.coverDefinitionDark === d.id ? [' data-card-cover-dark'] : []),
      ...(d.type === 'text' ? [] : [` data-type="${gitbookHtmlAttribute(d.type)}"`]),
      multipleAttr(d),
    ];
    return `<th${attrs.join('')}>${gitbookHtmlText(d.title)}</th>`;
  };
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f.nodes]));
  const rows = sortedRows(node);
  const td = (d: DocumentTableDefinition, value: DocumentTableRecordValue | undefined) =>
    `<td>${cellHtml(d, value, fragments)}</td>`;
  const options = `${view.cardSize === 'large' ? ' data-card-size="large"' : ''}${view.hideColumnTitle ? ' data-column-title-hidden' : ''}`;
  return (
    `<table data-view="cards"${options}><thead><tr>${definitions.map(th).join('')}</tr></thead>` +
    `<tbody>${rows.map((row) => `<tr>${definitions.map((d) => td(d, row.values[d.id])).join('')}</tr>`).join('')}</tbody></table>`
  );
}

function cellHtml(
  d: DocumentTableDefinition,
  value: DocumentTableRecordValue | undefined,
  fragments: Map<string, DocumentBlockParagraph[]>,
): string {
  // GitBook writes a select or users column's cells empty (its options and users are not in the repository)
  if (value === undefined || value === null || d.type === 'select' || d.type === 'users') return '';
  const link = (url: string) => `<a href="${gitbookHtmlAttribute(url)}">${gitbookHtmlText(url)}</a>`;
  if (d.type === 'text' && typeof value === 'string')
    return (fragments.get(value) ?? []).map((p) => phrasingHtml(p.nodes)).join('<br>');
  if (Array.isArray(value)) return value.map((file) => link(urlFromRef({ kind: 'file', file }))).join('');
  if (typeof value === 'object' && 'kind' in value) return link(urlFromContentRef(value));
  if (typeof value === 'object') return link(urlFromRef(value.ref));
  return gitbookHtmlText(String(value));
}

const TAGS: [number, string][] = [
  [BOLD, 'strong'],
  [ITALIC, 'em'],
  [STRIKETHROUGH, 's'],
  [CODE, 'code'],
];

function phrasingHtml(nodes: DocumentBlockParagraph['nodes']): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return runsHtml(normalizeRuns(runsOfLeaves(node.leaves)));
      if (node.type === 'link')
        return `<a href="${gitbookHtmlAttribute(urlFromContentRef(node.data.ref))}">${phrasingHtml(node.nodes)}</a>`;
      return '';
    })
    .join('');
}

function runsHtml(runs: Run[]): string {
  return runs
    .map((run) => {
      const text = gitbookHtmlText(run.text).replaceAll('\n', '<br>');
      const tags = TAGS.filter(([bit]) => run.marks & bit).map(([, tag]) => tag);
      return `${tags.map((t) => `<${t}>`).join('')}${text}${[...tags]
        .reverse()
        .map((t) => `</${t}>`)
        .join('')}`;
    })
    .join('');
}
