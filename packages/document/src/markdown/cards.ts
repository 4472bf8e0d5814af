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
import { escapeHtml, paragraph } from './md-context.ts';
import type { Inline } from './md-inlines.ts';
import { contentRefFromUrl, refFromUrl, urlFromContentRef, urlFromRef } from '../refs.ts';

/**
 * GitBook's cards: a table in the `cards` view, which its Git Sync writes as one HTML table
 *
 *     <table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th>
 *     <th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Title</strong></td>
 *     <td><a href="gitbook-page:p1">p1</a></td><td><a href="gitbook-file:f1">f1</a></td></tr></tbody></table>
 *
 * A column is rich text unless its `data-type` says `content-ref`, `files`, `number` or `checkbox`;
 * `data-hidden` columns are not shown, `data-card-target` and `data-card-cover` name the card's link and cover,
 * `data-card-size="large"` and `data-column-title-hidden` on the table set the view's options. Text cells hold
 * bold, italic, struck, code and linked text.
 */

const CARDS = /^<table\s[^>]*data-view="cards"[^>]*>[\s\S]*<\/table>$/i;

export function cardsTable(html: string): DocumentBlockTable | null {
  if (!CARDS.test(html.trim())) return null;
  const $ = load(html, null, false);
  const table = $('table').first();
  const headers = table.find('thead th').toArray();
  if (headers.length === 0) return null;
  const definitions = headers.map((th, i) => definitionOf($, th, i));
  const attr = (el: Element, name: string) => $(el).attr(name) !== undefined;
  const id = (test: (th: Element) => boolean) => definitions[headers.findIndex(test)]?.id;
  const rows = table.find('tbody tr').toArray();
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
  const target = id((th) => attr(th, 'data-card-target'));
  const cover = id((th) => attr(th, 'data-card-cover'));
  const el = table.get(0);
  return {
    object: 'block',
    type: 'table',
    data: {
      view: {
        type: 'cards',
        cardSize: table.attr('data-card-size') === 'large' ? 'large' : 'medium',
        columns: definitions.filter((_, i) => !headers[i] || !attr(headers[i], 'data-hidden')).map((d) => d.id),
        ...(target ? { targetDefinition: target } : {}),
        ...(cover ? { coverDefinition: cover } : {}),
        ...(el && attr(el, 'data-column-title-hidden') ? { hideColumnTitle: true } : {}),
      },
      records,
      definition: Object.fromEntries(definitions.map((d) => [d.id, d])),
    },
    fragments,
    isVoid: true,
  };
}

function definitionOf($: CheerioAPI, th: Element, i: number): DocumentTableDefinition {
  const id = `c${i + 1}`;
  const title = $(th).text().trim();
  const type = $(th).attr('data-type');
  if (type === 'content-ref' || type === 'files' || type === 'number' || type === 'checkbox')
    return { id, title, type };
  return { id, title, type: 'text', textAlignment: 'left' };
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

/** A table in the cards view as GitBook's HTML (see above); null for a grid table. */
export function cardsHtml(node: DocumentBlockTable): string | null {
  const view = node.data.view;
  if (view.type !== 'cards') return null;
  const shown = new Set(view.columns);
  const definitions = [...view.columns, ...Object.keys(node.data.definition).filter((id) => !shown.has(id))].flatMap(
    (id) => {
      const d = node.data.definition[id];
      return d ? [d] : [];
    },
  );
  const th = (d: DocumentTableDefinition) => {
    const attrs = [
      ...(shown.has(d.id) ? [] : [' data-hidden']),
      ...(view.targetDefinition === d.id ? [' data-card-target'] : []),
      ...(view.coverDefinition === d.id ? [' data-card-cover'] : []),
      ...(d.type === 'text' ? [] : [` data-type="${escapeHtml(d.type)}"`]),
    ];
    return `<th${attrs.join('')}>${escapeHtml(d.title)}</th>`;
  };
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f.nodes]));
  const rows = Object.values(node.data.records).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
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
  if (value === undefined || value === null) return '';
  const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  if (d.type === 'text' && typeof value === 'string')
    return (fragments.get(value) ?? []).map((p) => phrasingHtml(p.nodes)).join('<br>');
  if (Array.isArray(value)) return value.map((file) => link(urlFromRef({ kind: 'file', file }))).join('');
  if (typeof value === 'object' && 'kind' in value) return link(urlFromContentRef(value));
  if (typeof value === 'object') return link(urlFromRef(value.ref));
  return escapeHtml(String(value));
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
        return `<a href="${escapeHtml(urlFromContentRef(node.data.ref))}">${phrasingHtml(node.nodes)}</a>`;
      return '';
    })
    .join('');
}

function runsHtml(runs: Run[]): string {
  return runs
    .map((run) => {
      const text = escapeHtml(run.text).replaceAll('\n', '<br>');
      const tags = TAGS.filter(([bit]) => run.marks & bit).map(([, tag]) => tag);
      return `${tags.map((t) => `<${t}>`).join('')}${text}${[...tags]
        .reverse()
        .map((t) => `</${t}>`)
        .join('')}`;
    })
    .join('');
}
