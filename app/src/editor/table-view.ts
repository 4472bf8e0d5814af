// How a GitBook table looks in the editor: its text cells aligned as their column says, and the cells of the columns
// that are not text (numbers, checkboxes, ratings, links…) drawn in their place between the text cells, as the
// published site draws them. Those are not text the writer types in: they are widgets (not part of the document),
// their values are edited in the table's settings ("Row n", TableMenu.tsx); a click on one puts the cursor in its row.
import type { Node as PMNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, TextSelection, type Transaction } from '@tiptap/pm/state';
import { ReplaceAroundStep, ReplaceStep } from '@tiptap/pm/transform';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { Column, Data } from './table-data.ts';
import { describeValue, TYPE_NAMES } from './table-data.ts';
import { downloadSrc, fileUrls } from './uploads.ts';

/** The columns in the order of the definition (the editor's cells' order for the text ones). */
export const definitionOrder = (data: Data | null | undefined): Column[] =>
  Object.values((data?.definition ?? {}) as Record<string, Column>).filter((d) => d && typeof d.id === 'string');

/** Whether each row holds one cell per text column (no merged or missing cells): the other columns can be drawn. */
export function complete(table: PMNode): boolean {
  const text = definitionOrder(table.attrs.data).filter((d) => d.type === 'text').length;
  let ok = text > 0;
  table.forEach((row) => {
    if (row.childCount !== text) ok = false;
  });
  return ok;
}

const alignOf = (d: Column | undefined): string =>
  d?.textAlignment === 'center' || d?.textAlignment === 'right' ? d.textAlignment : 'left';

/** A cell of a column that is not text, drawn as the published site draws it (text only: never HTML). */
function valueCell(
  d: Column,
  value: unknown,
  row: number,
  view: EditorView,
  getPos: () => number | undefined,
  card?: 'title' | 'name',
) {
  const td = document.createElement('td');
  td.contentEditable = 'false';
  td.className = 'table-value-cell';
  td.dataset.column = d.id;
  if (card) {
    // a card's field: named by its column, its title shown above it unless the view hides the titles
    const title = String(d.title ?? '').trim();
    td.setAttribute('role', 'group');
    td.setAttribute('aria-label', title || TYPE_NAMES[d.type] || d.type);
    if (card === 'title' && title) td.dataset.title = title;
  }
  const empty = value === undefined || value === null || (Array.isArray(value) && !value.length);
  if (!empty) {
    if (d.type === 'checkbox') {
      const span = td.appendChild(document.createElement('span'));
      span.setAttribute('role', 'img');
      span.setAttribute('aria-label', value ? 'Yes' : 'No');
      span.textContent = value ? '☑' : '☐';
    } else if (d.type === 'rating' && typeof value === 'number') {
      const max = d.max ?? 5;
      const span = td.appendChild(document.createElement('span'));
      span.setAttribute('role', 'img');
      span.setAttribute('aria-label', `${value} of ${max}`);
      span.textContent = '★'.repeat(Math.max(0, Math.min(value, max))) + '☆'.repeat(Math.max(0, max - value));
    } else if (d.type === 'number') td.textContent = String(value);
    else td.textContent = describeValue(d, value);
  }
  // a click puts the cursor in the row, whose values the table's settings then show
  td.addEventListener('mousedown', (e) => {
    e.preventDefault();
    const pos = getPos();
    if (pos === undefined) return;
    const $pos = view.state.doc.resolve(pos);
    view.dispatch(view.state.tr.setSelection(TextSelection.near($pos, $pos.parentOffset === 0 ? 1 : -1)));
    view.focus();
  });
  td.title = `${d.title || d.type} (row ${row + 1}): set in the table's settings`;
  return td;
}

/** Whether a table's data shows it as cards (GitBook's cards view). */
export const isCards = (data: Data | null | undefined): boolean => data?.view?.type === 'cards';

/** The column ids a card draws apart from its fields: its link and its covers. */
const cardRoles = (data: Data): Set<unknown> =>
  new Set([data.view?.targetDefinition, data.view?.coverDefinition, data.view?.coverDefinitionDark]);

/** The picture of a card's cover (a files column's first file, or an image column's file), when its file is known. */
function coverSrc(value: unknown): string | undefined {
  let file: unknown;
  if (Array.isArray(value)) file = value[0];
  else if (value && typeof value === 'object') {
    const v = value as { kind?: string; file?: unknown; ref?: { kind?: string; file?: unknown } };
    const ref = v.kind ? v : v.ref;
    if (ref?.kind === 'file') file = ref.file;
  }
  const url = typeof file === 'string' ? fileUrls.get(file) : undefined;
  return url ? downloadSrc(url) : undefined;
}

/** A card's cover, drawn first in its card (decorative: the card's text says what it is); nothing without one. */
function coverCell(src: string | undefined) {
  const td = document.createElement('td');
  td.contentEditable = 'false';
  td.className = 'table-card-cover';
  td.setAttribute('role', 'none');
  if (src) {
    const img = td.appendChild(document.createElement('img'));
    img.alt = '';
    img.src = src;
  } else td.hidden = true;
  return td;
}

/** Where a card goes (its link column), said last in its card; nothing without one. */
function linkCell(d: Column | undefined, value: unknown) {
  const td = document.createElement('td');
  td.contentEditable = 'false';
  td.className = 'table-card-link';
  const to = d && value !== undefined && value !== null ? describeValue(d, value) : '';
  td.textContent = to ? `Links to ${to}` : ''; // user content: text, never HTML
  td.hidden = !to;
  return td;
}

/** The decorations of one table at `pos`. */
function tableDecorations(table: PMNode, pos: number, out: Decoration[]) {
  const data: Data = table.attrs.data ?? {};
  const columns = definitionOrder(data);
  const draw = complete(table);
  const cards = isCards(data);
  const roles = cards ? cardRoles(data) : new Set();
  const titles = cards && data.view?.hideColumnTitle !== true;
  table.forEach((row, rowOffset, r) => {
    const rowStart = pos + 1 + rowOffset + 1;
    let at = rowStart;
    let t = 0;
    const record = row.attrs.record ? data.records?.[row.attrs.record] : undefined;
    if (cards) {
      // a card: a list item named by its number and first text, its cover first and its link last
      const first = row.firstChild?.textContent.trim();
      const name = `Card ${r + 1}${first ? `: ${first.slice(0, 60)}` : ''}`;
      out.push(Decoration.node(rowStart - 1, rowStart - 1 + row.nodeSize, { role: 'listitem', 'aria-label': name }));
      if (draw) {
        const src = coverSrc(record?.values?.[data.view?.coverDefinition]);
        out.push(
          Decoration.widget(rowStart, () => coverCell(src), {
            side: -20_000,
            key: `cover-${r}-${src ?? ''}`,
            ignoreSelection: true,
          }),
        );
        const target = data.definition?.[data.view?.targetDefinition] as Column | undefined;
        const value = target ? record?.values?.[target.id] : undefined;
        out.push(
          Decoration.widget(rowStart + row.content.size, () => linkCell(target, value), {
            side: 20_000,
            key: `link-${r}-${JSON.stringify(value ?? null)}`,
            ignoreSelection: true,
          }),
        );
      }
    }
    columns.forEach((d, i) => {
      if (d.type === 'text') {
        const cell = row.maybeChild(t++);
        if (!cell) return;
        if (cards) {
          // a card's text field: its title above it (as the site draws it), the field named for screen readers
          const title = String(d.title ?? '').trim();
          const attrs: Record<string, string> = { role: 'group', 'aria-label': title || `Field ${t}` };
          if (titles && title) attrs['data-title'] = title;
          out.push(Decoration.node(at, at + cell.nodeSize, attrs));
          at += cell.nodeSize;
          return;
        }
        const align = alignOf(data.definition?.[cell.attrs.column ?? d.id]);
        if (align !== 'left') out.push(Decoration.node(at, at + cell.nodeSize, { class: `align-${align}` }));
        at += cell.nodeSize;
        return;
      }
      if (!draw || roles.has(d.id)) return;
      const value = record?.values?.[d.id];
      out.push(
        Decoration.widget(
          at,
          (view, getPos) => valueCell(d, value, r, view, getPos, cards ? (titles ? 'title' : 'name') : undefined),
          {
            side: i - 10_000,
            key: `${cards ? (titles ? 'ct' : 'cn') : 'g'}-${r}-${d.id}-${JSON.stringify(value ?? null)}-${d.type}-${d.max ?? ''}-${d.title ?? ''}`,
            ignoreSelection: true,
            stopEvent: () => true,
          },
        ),
      );
    });
  });
}

function decorationsOf(doc: PMNode): DecorationSet {
  const out: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'table') {
      tableDecorations(node, pos, out);
      return false;
    }
    return !node.isTextblock;
  });
  return DecorationSet.create(doc, out);
}

/** Whether `from`–`to` of `doc` is in a table, or holds one. */
function hasTable(doc: PMNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(Math.max(0, from), Math.min(to, doc.content.size), (node) => {
    if (node.type.name === 'table') found = true;
    return !found && !node.isTextblock;
  });
  return found;
}

/**
 * Whether a transaction may change what the tables' decorations draw: a step replacing text or blocks in a table, or
 * around one (in the document before the step or after it), or any other kind of step (attributes, marks).
 */
export function touchesTable(tr: Transaction): boolean {
  return tr.steps.some((step, i) => {
    if (!(step instanceof ReplaceStep || step instanceof ReplaceAroundStep)) return true;
    const before = tr.docs[i]!;
    const after = tr.docs[i + 1] ?? tr.doc;
    let touched = false;
    step.getMap().forEach((oldStart, oldEnd, newStart, newEnd) => {
      touched ||= hasTable(before, oldStart, oldEnd) || hasTable(after, newStart, newEnd);
    });
    return touched;
  });
}

const key = new PluginKey<DecorationSet>('gitbookTableCells');

/**
 * The plugin drawing the tables' alignment and their other columns' cells: recomputed when a change reaches a table,
 * else moved with the text (a keystroke outside tables does not walk the document).
 */
export const tableCellsPlugin = () =>
  new Plugin<DecorationSet>({
    key,
    state: {
      init: (_, state: EditorState) => decorationsOf(state.doc),
      apply: (tr, old) =>
        !tr.docChanged ? old : touchesTable(tr) ? decorationsOf(tr.doc) : old.map(tr.mapping, tr.doc),
    },
    props: {
      decorations: (state) => key.getState(state),
    },
  });
