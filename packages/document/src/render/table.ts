import { html, type Html } from '../html.ts';
import type { DocNode, Ref, RenderContext } from './context.ts';
import { hrefOf, imageTag, inlines } from './inlines.ts';

/** A link of a cell (files, content-ref) to where its reference goes; others' origins get `rel`. */
const cellLink = (target: { href: string; title?: string | undefined }) =>
  /^(https?:)?\/\//.test(target.href)
    ? html`<a href="${target.href}" rel="noopener nofollow">${target.title ?? target.href}</a>`
    : html`<a href="${target.href}">${target.title ?? target.href}</a>`;

interface Column {
  title?: string;
  type?: string;
  textAlignment?: string;
  options?: { value?: string; label?: string }[];
  max?: number;
}

/** A table block: the view's columns, the records in `orderIndex` order, each cell by its column's type. */
export function table(node: DocNode, ctx: RenderContext): Html {
  const data = node.data ?? {};
  const view = (data.view ?? {}) as {
    columns?: string[];
    hideHeader?: boolean;
    columnWidths?: Record<string, unknown>;
  };
  const definition = (data.definition ?? {}) as Record<string, Column>;
  const records = Object.values(
    (data.records ?? {}) as Record<string, { orderIndex?: string; values?: Record<string, unknown> }>,
  );
  records.sort((a, b) =>
    (a.orderIndex ?? '') < (b.orderIndex ?? '') ? -1 : (a.orderIndex ?? '') > (b.orderIndex ?? '') ? 1 : 0,
  );
  const columns = (view.columns ?? Object.keys(definition)).filter((id) => Object.hasOwn(definition, id));
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment ?? '', f]));
  const align = (c: Column) => (c.textAlignment === 'center' || c.textAlignment === 'right' ? c.textAlignment : 'left');
  const alignClass = (id: string) => `align-${align(definition[id]!)}`;
  const th = (id: string) => html`<th scope="col" class="${alignClass(id)}">${definition[id]!.title ?? ''}</th>`;
  const td = (id: string, r: { values?: Record<string, unknown> }) =>
    html`<td class="${alignClass(id)}">${cell(definition[id]!, r.values?.[id], fragments, ctx)}</td>`;
  const head = view.hideHeader ? html`` : html`<thead><tr>${columns.map((id) => th(id))}</tr></thead>`;
  const rows = records.map((r) => html`<tr>${columns.map((id) => td(id, r))}</tr>`);
  return html`<div class="table-wrap"><table>${colgroup(columns, view.columnWidths)}${head}<tbody>${rows}</tbody></table></div>`;
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
        return target ? [cellLink(target)] : [];
      });
      return html`${links.map((l, i) => html`${i ? html`, ` : html``}${l}`)}`;
    }
    case 'content-ref': {
      const target = hrefOf(value as Ref, ctx);
      return target ? cellLink(target) : html``;
    }
    default:
      return html`${typeof value === 'string' || typeof value === 'number' ? String(value) : ''}`;
  }
}
