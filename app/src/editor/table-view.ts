// How a GitBook table looks in the editor: its text cells aligned as their column says, and the cells of the columns
// that are not text (numbers, checkboxes, ratings, links…) drawn in their place between the text cells, as the
// published site draws them. Those are not text the writer types in: they are widgets (not part of the document),
// their values are edited in the table's settings ("Row n", TableMenu.tsx); a click on one puts the cursor in its row.
import type { Node as PMNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { Column, Data } from './table-data.ts';
import { describeValue } from './table-data.ts';

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
function valueCell(d: Column, value: unknown, row: number, view: EditorView, getPos: () => number | undefined) {
  const td = document.createElement('td');
  td.contentEditable = 'false';
  td.className = 'table-value-cell';
  td.dataset.column = d.id;
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

/** The decorations of one table at `pos`. */
function tableDecorations(table: PMNode, pos: number, out: Decoration[]) {
  const data: Data = table.attrs.data ?? {};
  const columns = definitionOrder(data);
  const draw = complete(table);
  table.forEach((row, rowOffset, r) => {
    const rowStart = pos + 1 + rowOffset + 1;
    let at = rowStart;
    let t = 0;
    const record = row.attrs.record ? data.records?.[row.attrs.record] : undefined;
    columns.forEach((d, i) => {
      if (d.type === 'text') {
        const cell = row.maybeChild(t++);
        if (!cell) return;
        const align = alignOf(data.definition?.[cell.attrs.column ?? d.id]);
        if (align !== 'left') out.push(Decoration.node(at, at + cell.nodeSize, { class: `align-${align}` }));
        at += cell.nodeSize;
        return;
      }
      if (!draw) return;
      const value = record?.values?.[d.id];
      out.push(
        Decoration.widget(at, (view, getPos) => valueCell(d, value, r, view, getPos), {
          side: i - 10_000,
          key: `${r}-${d.id}-${JSON.stringify(value ?? null)}-${d.type}-${d.max ?? ''}-${d.title ?? ''}`,
          ignoreSelection: true,
          stopEvent: () => true,
        }),
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

const key = new PluginKey<DecorationSet>('gitbookTableCells');

/** The plugin drawing the tables' alignment and their other columns' cells (recomputed when the document changes). */
export const tableCellsPlugin = () =>
  new Plugin<DecorationSet>({
    key,
    state: {
      init: (_, state: EditorState) => decorationsOf(state.doc),
      apply: (tr, old) => (tr.docChanged ? decorationsOf(tr.doc) : old),
    },
    props: {
      decorations: (state) => key.getState(state),
    },
  });
