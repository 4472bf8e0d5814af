import type {
  DocumentBlock,
  DocumentBlockColumns,
  DocumentBlockContentRef,
  DocumentBlockExpandable,
  DocumentBlockOpenAPIOperation,
  DocumentBlockOpenAPISchemas,
  DocumentBlockOpenAPIWebhook,
  DocumentBlockParagraph,
  DocumentBlockStepper,
  DocumentBlockTable,
  DocumentBlockTabs,
  DocumentContentRef,
  DocumentTableDefinition,
  DocumentTableRecordValue,
} from '@quire/contracts';
import type { Content, TableCell } from 'pdfmake/interfaces';
import {
  box,
  BOX_INSET,
  CELL,
  linkRun,
  MUTED_BAR,
  narrower,
  placeholder,
  widthOf,
  type Inline,
  type PdfContentContext,
} from './pdf-layout.ts';

/**
 * GitBook's container and reference blocks in a PDF, where nothing is interactive: every tab, step, column and
 * expandable is printed in full, one after another; references are links; what the PDF cannot run (an OpenAPI
 * operation, a reusable content, an integration) is a line naming it.
 */

/** Texts and inlines of a paragraph. */
export type Phrasing = DocumentBlockParagraph['nodes'];

/** How the blocks and texts inside a container are printed (pdf-content.ts). */
export interface Render {
  blocks(nodes: readonly DocumentBlock[], ctx: PdfContentContext): Content[];
  inlines(nodes: Phrasing, ctx: PdfContentContext): Inline[];
}

/** Tabs: each tab under its title, in a box. */
export function tabs(node: DocumentBlockTabs, ctx: PdfContentContext, r: Render): Content[] {
  const inner = narrower(ctx, BOX_INSET);
  const content = node.nodes.flatMap((tab): Content[] => [
    { text: tab.data.title || 'Tab', style: 'sectionTitle' },
    ...r.blocks(tab.nodes, inner),
  ]);
  return [box(content, ctx, { bar: MUTED_BAR })];
}

/** An expandable, expanded: its title, then its body, in a box. */
export function expandable(node: DocumentBlockExpandable, ctx: PdfContentContext, r: Render): Content[] {
  const inner = narrower(ctx, BOX_INSET);
  const title = node.fragments.find((f) => f.type === 'expandable-title')?.nodes ?? [];
  const body = node.fragments.find((f) => f.type === 'expandable-body')?.nodes ?? [];
  const heading = title.flatMap((p) => r.inlines(p.nodes, inner));
  return [
    box(
      [
        { text: [{ text: '▾ ' }, ...(heading.length ? heading : [{ text: 'Details' }])], style: 'sectionTitle' },
        ...r.blocks(body, inner),
      ],
      ctx,
      { bar: MUTED_BAR },
    ),
  ];
}

const STEP = { size: 18, gap: 8, fill: '#374151' };

/** A stepper: each step numbered, its blocks beside the number. */
export function stepper(node: DocumentBlockStepper, ctx: PdfContentContext, r: Render): Content[] {
  const inner = narrower(ctx, STEP.size + STEP.gap);
  return node.nodes.map(
    (step, i): Content => ({
      columns: [
        {
          width: STEP.size,
          table: { widths: [STEP.size - 2], body: [[{ text: String(i + 1), style: 'stepNumber' }]] },
          layout: {
            hLineWidth: () => 0,
            vLineWidth: () => 0,
            fillColor: () => STEP.fill,
            paddingLeft: () => 1,
            paddingRight: () => 1,
            paddingTop: () => 2,
            paddingBottom: () => 2,
          },
        },
        { width: widthOf(inner), stack: r.blocks(step.nodes, inner) },
      ],
      columnGap: STEP.gap,
      margin: [0, 0, 0, 4],
    }),
  );
}

/** Columns, stacked: the first column's blocks, then the next's (a page is too narrow for side by side). */
export function columns(node: DocumentBlockColumns, ctx: PdfContentContext, r: Render): Content[] {
  return node.nodes.flatMap((column) => r.blocks(column.nodes, ctx));
}

/** A reference as a run of text: its label (or what it points to), a link when it goes somewhere. */
export function referenceRun(ref: DocumentContentRef, ctx: PdfContentContext, fallback?: string): Inline {
  return { text: ctx.label(ref, ctx.pageId) ?? fallback ?? describeRef(ref), ...linkRun(ctx.link(ref, ctx.pageId)) };
}

/** What a reference points to, in words, when nothing better is known. */
export function describeRef(ref: DocumentContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'file':
      return 'a file';
    case 'page':
      return 'a page';
    case 'anchor':
      return `#${ref.anchor}`;
    case 'user':
      return 'a user';
    case 'collection':
      return 'a collection';
    case 'space':
      return 'a space';
    case 'reusable-content':
      return 'a reusable content';
    case 'tag':
      return 'a tag';
    case 'openapi':
      return `the OpenAPI specification ${ref.spec}`;
  }
}

/** A content-ref: an arrow and the page (or file, URL…) it points to, linked. */
export function contentRef(node: DocumentBlockContentRef, ctx: PdfContentContext): Content[] {
  return [{ text: [{ text: '→ ' }, referenceRun(node.data.ref, ctx)], style: 'paragraph' }];
}

/** A labelled line: `Label: ` then runs. */
export const labelled = (label: string, runs: Inline[]): Content => ({
  text: [{ text: `${label}: `, bold: true }, ...runs],
  style: 'paragraph',
});

/** The part of its specification an OpenAPI block shows: an operation, schemas or a webhook. */
const openAPIPart = (
  node: DocumentBlockOpenAPIOperation | DocumentBlockOpenAPISchemas | DocumentBlockOpenAPIWebhook,
): string =>
  node.type === 'openapi-operation'
    ? `operation ${node.data.method.toUpperCase()} ${node.data.path}`
    : node.type === 'openapi-webhook'
      ? `webhook ${node.data.method.toUpperCase()} ${node.data.name}`
      : `schemas ${node.data.schemas.join(', ')}`;

/** The blocks a PDF cannot run, each a line naming it. */
export function notRunnable(node: DocumentBlock, ctx: PdfContentContext): Content[] | undefined {
  switch (node.type) {
    case 'reusable-content':
      return [placeholder(`Reusable content ${node.data.ref.reusableContent}: not included in this export`)];
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return [placeholder(`API ${openAPIPart(node)} of the OpenAPI specification ${node.data.ref.spec}`)];
    case 'swagger':
      return [
        {
          text: [
            { text: `[API operation ${node.data.method.toUpperCase()} ${node.data.path} of ` },
            referenceRun(node.data.ref, ctx),
            { text: ']' },
          ],
          style: 'placeholder',
        },
      ];
    case 'integration': {
      const from = node.data.url
        ? [{ text: ' from ' }, { text: node.data.url, ...linkRun({ url: node.data.url }) }]
        : [];
      return [
        {
          text: [
            { text: `[Block ${node.data.block} of the integration ${node.data.integration}` },
            ...from,
            { text: ']' },
          ],
          style: 'placeholder',
        },
      ];
    }
    default:
      return undefined;
  }
}

// ── Tables ──────────────────────────────────────────────────────────────────────────────────────────────

const byOrder = (table: DocumentBlockTable) =>
  Object.entries(table.data.records).sort(([a, x], [b, y]) =>
    x.orderIndex < y.orderIndex ? -1 : x.orderIndex > y.orderIndex ? 1 : a < b ? -1 : 1,
  );

/** A cell of a table as printed, by the type of its column. */
export function cellContent(
  table: DocumentBlockTable,
  column: DocumentTableDefinition,
  value: DocumentTableRecordValue | undefined,
  ctx: PdfContentContext,
  r: Render,
): Content[] {
  if (value === undefined || value === null) return [];
  switch (column.type) {
    case 'text': {
      const fragment = typeof value === 'string' ? table.fragments.find((f) => f.fragment === value) : undefined;
      return (fragment?.nodes ?? []).map((p) => ({ text: r.inlines(p.nodes, ctx) }));
    }
    case 'number':
      return [{ text: String(value) }];
    case 'checkbox':
      return [{ text: value === true ? '☑' : '☐' }];
    case 'rating': {
      const n = Math.max(0, Math.min(column.max, Math.round(Number(value) || 0)));
      return [{ text: `${'★'.repeat(n)}${'☆'.repeat(Math.max(0, column.max - n))}` }];
    }
    case 'select': {
      const values = Array.isArray(value) ? value : [String(value)];
      return [{ text: values.map((v) => column.options.find((o) => o.value === v)?.label ?? v).join(', ') }];
    }
    case 'users':
    case 'files':
      return usersOrFilesCell(column.type === 'users' ? 'user' : 'file', value, ctx);
    case 'content-ref':
      return typeof value === 'object' && !Array.isArray(value) && 'kind' in value
        ? [{ text: [referenceRun(value as DocumentContentRef, ctx)] }]
        : [];
    case 'image':
      return imageCell(value, ctx);
  }
}

/** A cell of users or files: a reference to each, comma separated. */
function usersOrFilesCell(
  kind: 'user' | 'file',
  value: NonNullable<DocumentTableRecordValue>,
  ctx: PdfContentContext,
): Content[] {
  const ids = Array.isArray(value) ? value : [];
  return ids.length
    ? [
        {
          text: ids.flatMap((id, i) => [
            ...(i ? [{ text: ', ' }] : []),
            referenceRun(kind === 'user' ? { kind, user: id } : { kind, file: id }, ctx),
          ]),
        },
      ]
    : [];
}

/** A cell of an image (its reference, or `{ ref, alt }`): a PDF table holds no image, so a reference to it. */
function imageCell(value: NonNullable<DocumentTableRecordValue>, ctx: PdfContentContext): Content[] {
  const ref =
    typeof value === 'object' && !Array.isArray(value)
      ? 'ref' in value
        ? value.ref
        : 'kind' in value
          ? value
          : undefined
      : undefined;
  const alt = typeof value === 'object' && !Array.isArray(value) && 'alt' in value ? value.alt : undefined;
  return ref
    ? [
        {
          text: [{ text: '[Image: ' }, referenceRun(ref as DocumentContentRef, ctx, alt || 'image'), { text: ']' }],
          style: 'missingImage',
        },
      ]
    : [];
}

/** A table: a grid, the header row repeated on each page; a table of cards as one box per card. */
export function table(node: DocumentBlockTable, ctx: PdfContentContext, r: Render): Content[] {
  return node.data.view.type === 'cards' ? cards(node, ctx, r) : grid(node, ctx, r);
}

function cards(node: DocumentBlockTable, ctx: PdfContentContext, r: Render): Content[] {
  const view = node.data.view;
  if (view.type !== 'cards') return [];
  const inner = narrower(ctx, BOX_INSET);
  const shown = view.columns.filter(
    (id) =>
      id !== view.targetDefinition &&
      id !== view.coverDefinition &&
      id !== view.coverDefinitionDark &&
      node.data.definition[id],
  );
  return byOrder(node).map(([, record]) => {
    const content = shown.flatMap((id) => cellContent(node, node.data.definition[id]!, record.values[id], inner, r));
    const target = view.targetDefinition ? record.values[view.targetDefinition] : undefined;
    if (target && typeof target === 'object' && !Array.isArray(target) && 'kind' in target) {
      content.push({ text: [{ text: '→ ' }, referenceRun(target as DocumentContentRef, inner)] });
    }
    return box(content, ctx, { bar: MUTED_BAR });
  });
}

function grid(node: DocumentBlockTable, ctx: PdfContentContext, r: Render): Content[] {
  const { view, definition } = node.data;
  const ids = view.columns.filter((id) => definition[id]);
  if (!ids.length) return [];
  const alignment = (id: string) => {
    const d = definition[id]!;
    return d.type === 'text' ? d.textAlignment : d.type === 'number' ? 'right' : 'left';
  };
  const columnWidth = (widthOf(ctx) - ids.length * 2 * CELL.padding - (ids.length + 1) * CELL.line) / ids.length;
  const cellCtx = { ...ctx, width: columnWidth };
  const header: TableCell[] = ids.map((id) => ({
    text: definition[id]!.title || ' ',
    style: 'tableHeader',
    alignment: alignment(id),
  }));
  const body: TableCell[][] = byOrder(node).map(([, record]) =>
    ids.map((id): TableCell => {
      const cell = cellContent(node, definition[id]!, record.values[id], cellCtx, r);
      return { stack: cell.length ? cell : [' '], alignment: alignment(id) };
    }),
  );
  const withHeader = view.type === 'grid' && !view.hideHeader;
  if (!body.length && !withHeader) return [];
  return [
    {
      table: {
        headerRows: withHeader ? 1 : 0,
        widths: ids.map(() => Math.max(8, columnWidth)),
        body: withHeader ? [header, ...body] : body,
      },
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
      fontSize: ids.length > 5 ? 8 : 9.5,
      margin: [0, 2, 0, 10],
    },
  ];
}
