import { html, type Html } from '../html.ts';
import type { DocNode, Ref, RenderContext } from './context.ts';
import { hrefOf, imageOf, imageTag, inlines } from './inlines.ts';

/** A link of a cell (files, content-ref) to where its reference goes; others' origins get `rel`; text in a link. */
const cellLink = (target: { href: string; title?: string | undefined }, ctx: RenderContext) =>
  ctx.inLink
    ? html`${target.title ?? target.href}`
    : /^(https?:)?\/\//.test(target.href)
      ? html`<a href="${target.href}" rel="noopener nofollow">${target.title ?? target.href}</a>`
      : html`<a href="${target.href}">${target.title ?? target.href}</a>`;

interface Column {
  title?: string;
  type?: string;
  textAlignment?: string;
  options?: { value?: string; label?: string }[];
  max?: number;
}

type Row = { orderIndex?: string; values?: Record<string, unknown> };

/** A table block: its records as cards in the cards view, else a grid (see `grid`). */
export function table(node: DocNode, ctx: RenderContext): Html {
  return (node.data?.view as { type?: unknown } | undefined)?.type === 'cards' ? cards(node, ctx) : grid(node, ctx);
}

/** What both views read of a table: its columns, the records in `orderIndex` order, the fragments of text cells. */
function tableOf(node: DocNode) {
  const data = node.data ?? {};
  const definition = (data.definition ?? {}) as Record<string, Column>;
  const records = Object.values((data.records ?? {}) as Record<string, Row>);
  records.sort((a, b) =>
    (a.orderIndex ?? '') < (b.orderIndex ?? '') ? -1 : (a.orderIndex ?? '') > (b.orderIndex ?? '') ? 1 : 0,
  );
  const viewColumns = (data.view as { columns?: unknown } | undefined)?.columns;
  const columns = (Array.isArray(viewColumns) ? (viewColumns as string[]) : Object.keys(definition)).filter((id) =>
    Object.hasOwn(definition, id),
  );
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment ?? '', f]));
  return { definition, records, columns, fragments };
}

/** The grid view: the view's columns, the records in `orderIndex` order, each cell by its column's type. */
function grid(node: DocNode, ctx: RenderContext): Html {
  const view = (node.data?.view ?? {}) as { hideHeader?: boolean; columnWidths?: Record<string, unknown> };
  const { definition, records, columns, fragments } = tableOf(node);
  const align = (c: Column) => (c.textAlignment === 'center' || c.textAlignment === 'right' ? c.textAlignment : 'left');
  const alignClass = (id: string) => `align-${align(definition[id]!)}`;
  const th = (id: string) => html`<th scope="col" class="${alignClass(id)}">${definition[id]!.title ?? ''}</th>`;
  const td = (id: string, r: Row) =>
    html`<td class="${alignClass(id)}">${cell(definition[id]!, r.values?.[id], fragments, ctx)}</td>`;
  const head = view.hideHeader ? html`` : html`<thead><tr>${columns.map((id) => th(id))}</tr></thead>`;
  const rows = records.map((r) => html`<tr>${columns.map((id) => td(id, r))}</tr>`);
  return html`<div class="table-wrap"><table>${colgroup(columns, view.columnWidths)}${head}<tbody>${rows}</tbody></table></div>`;
}

/**
 * The cards view (GitBook's cards block): a list of cards, each a record — its cover (with the dark-mode cover as a
 * `<source>` the browser picks by `prefers-color-scheme`), then the view's columns that have a value, each under its
 * title unless `hideColumnTitle` (or the title is empty); the target and cover columns are the card's link and cover. A card with a target is one link, its whole body: links
 * inside it are their text. A cover is a file of the revision; an image of another origin is never loaded.
 */
function cards(node: DocNode, ctx: RenderContext): Html {
  const view = (node.data?.view ?? {}) as {
    cardSize?: unknown;
    targetDefinition?: unknown;
    coverDefinition?: unknown;
    coverDefinitionDark?: unknown;
    hideColumnTitle?: unknown;
  };
  const { definition, records, columns, fragments } = tableOf(node);
  const valueOf = (r: Row, id: unknown) => (typeof id === 'string' ? r.values?.[id] : undefined);
  const size = view.cardSize === 'large' ? 'large' : 'medium';
  const items = records.map((r) => {
    const target = hrefOf(valueOf(r, view.targetDefinition) as Ref | undefined, ctx);
    const inner: RenderContext = target ? { ...ctx, inLink: true } : ctx;
    const fields = columns.flatMap((id) => {
      if (id === view.targetDefinition || id === view.coverDefinition || id === view.coverDefinitionDark) return [];
      const value = cell(definition[id]!, r.values?.[id], fragments, inner);
      if (value.value === '') return [];
      const title = definition[id]!.title ?? '';
      return [
        view.hideColumnTitle === true || title.trim() === ''
          ? html`<div class="card-field">${value}</div>`
          : html`<div class="card-field"><div class="card-field-title">${title}</div>${value}</div>`,
      ];
    });
    const body = html`${cover(valueOf(r, view.coverDefinition), valueOf(r, view.coverDefinitionDark), ctx)}<div class="card-body">${fields}</div>`;
    if (!target) return html`<li><div class="card">${body}</div></li>`;
    return /^(https?:)?\/\//.test(target.href)
      ? html`<li><a class="card" href="${target.href}" rel="noopener nofollow">${body}</a></li>`
      : html`<li><a class="card" href="${target.href}">${body}</a></li>`;
  });
  return html`<ul class="cards cards-${size}">${items}</ul>`;
}

/** The image of a cover cell: a files column's first file, or an image column's reference (`{ref}` or a ref). */
function coverRef(value: unknown): Ref | undefined {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? { kind: 'file', file: value[0] } : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Ref & { ref?: Ref };
  return v.kind ? v : v.ref;
}

/** A card's cover: decorative (alt empty, the card's text says what it is), the dark one for a dark scheme. */
function cover(light: unknown, dark: unknown, ctx: RenderContext): Html {
  const img = imageOf(coverRef(light), ctx);
  if (!img) return html``;
  const size = img.width && img.height ? html` width="${img.width}" height="${img.height}"` : html``;
  const tag = html`<img class="card-cover" src="${img.src}" alt=""${size} loading="lazy" decoding="async">`;
  const night = imageOf(coverRef(dark), ctx);
  return night
    ? html`<picture><source srcset="${night.src}" media="(prefers-color-scheme: dark)">${tag}</picture>`
    : tag;
}

/** The columns' widths GitBook keeps (`columnWidths`, pixels), when some column has one. */
function colgroup(columns: string[], widths: Record<string, unknown> | undefined): Html {
  const width = (id: string) => {
    const w = widths?.[id];
    return typeof w === 'number' && Number.isFinite(w) && w > 0 ? w : null;
  };
  if (!columns.some((id) => width(id) !== null)) return html``;
  const col = (id: string) => {
    const w = width(id);
    return w === null ? html`<col>` : html`<col style="width:${String(w)}px">`;
  };
  return html`<colgroup>${columns.map(col)}</colgroup>`;
}

function cell(column: Column, value: unknown, fragments: Map<string, DocNode>, ctx: RenderContext): Html {
  if (value === undefined || value === null) return html``;
  switch (column.type ?? 'text') {
    case 'text': {
      const f = typeof value === 'string' ? fragments.get(value) : undefined;
      return f
        ? html`${(f.nodes ?? []).map((p, i) => html`${i ? html`<br>` : html``}${inlines(p.nodes ?? [], ctx)}`)}`
        : html``;
    }
    case 'checkbox':
      return html`<span aria-label="${value ? 'Yes' : 'No'}" role="img">${value ? '☑' : '☐'}</span>`;
    case 'number':
    case 'rating':
      return html`${typeof value === 'number' ? String(value) : ''}`;
    case 'select': {
      const chosen = Array.isArray(value) ? value : [value];
      return html`${chosen.map((v) => column.options?.find((o) => o.value === v)?.label ?? String(v)).join(', ')}`;
    }
    case 'image': {
      // a file or URL reference, or `{ref, alt, objectFit}`
      const v = value as Ref & { ref?: Ref; alt?: unknown };
      const ref = v.kind ? v : v.ref;
      return imageTag(ref, typeof v.alt === 'string' ? v.alt : '', ctx, 'cell-image');
    }
    case 'files': {
      const refs = Array.isArray(value)
        ? value.map((file): Ref => ({ kind: 'file', file: String(file) }))
        : [value as Ref];
      const links = refs.flatMap((ref) => {
        const target = hrefOf(ref, ctx);
        return target ? [cellLink(target, ctx)] : [];
      });
      return html`${links.map((l, i) => html`${i ? html`, ` : html``}${l}`)}`;
    }
    case 'content-ref': {
      const target = hrefOf(value as Ref, ctx);
      return target ? cellLink(target, ctx) : html``;
    }
    default:
      return html`${typeof value === 'string' || typeof value === 'number' ? String(value) : ''}`;
  }
}
