// Tables in the editor: adding and removing rows and columns (keys and the table's settings), and the header row
// drawn as the published site draws it (the text columns' titles, hidden with GitBook's `view.hideHeader`).
// A GitBook table's columns live in its `data` (`definition`, `view.columns`, each record's `values`): a column added
// or removed here changes them in the same step, so the document stays what the API accepts.
import { type Editor, Extension } from '@tiptap/core';
import { TableView } from '@tiptap/extension-table';
import { closeHistory } from '@tiptap/pm/history';
import type { Node as PMNode } from '@tiptap/pm/model';
import type { EditorState, Transaction } from '@tiptap/pm/state';
import { addColumn, addRow, isInTable, removeColumn, removeRow, selectedRect, TableMap } from '@tiptap/pm/tables';
import type { EditorView } from '@tiptap/pm/view';
import { complete, definitionOrder, isCards, tableCellsPlugin } from './table-view.ts';

type Data = Record<string, any>;

/** The text columns of a table's data, in the order of its definition (the order of the editor's cells). */
export const textColumns = (data: Data | null | undefined): string[] =>
  Object.values((data?.definition ?? {}) as Record<string, any>)
    .filter((d) => d?.type === 'text')
    .map((d) => String(d.id));

/**
 * The titles the header row shows, one per column with its alignment, or undefined when the table shows no header: a
 * grid with `hideHeader`, cards with `hideColumnTitle`, or a table without GitBook data (pasted). With `all`, every
 * column in the definition's order (the editor then draws the other columns' cells too: table-view.ts), else the
 * text columns only.
 */
export function headerOf(data: Data | null | undefined, all = false): { title: string; align: string }[] | undefined {
  const view = data?.view;
  if (!view) return undefined;
  if (view.type === 'cards' ? view.hideColumnTitle === true : view.hideHeader === true) return undefined;
  return definitionOrder(data)
    .filter((d) => all || d.type === 'text')
    .map((d) => {
      const align = d.textAlignment === 'center' || d.textAlignment === 'right' ? d.textAlignment : 'left';
      return { title: String(d.title ?? ''), align: d.type === 'text' ? align : 'left' };
    });
}

/** TipTap's table view with the header row above the rows: not editable, redrawn when the table's data changes. */
export class GitBookTableView extends TableView {
  head: HTMLTableSectionElement;
  drawn: unknown;
  all = false;
  constructor(node: PMNode, cellMinWidth: number, view?: EditorView, attrs?: Record<string, any>) {
    super(node, cellMinWidth, view, attrs);
    this.head = document.createElement('thead');
    this.head.contentEditable = 'false';
    this.table.insertBefore(this.head, this.contentDOM);
    this.drawHead(node);
    window.addEventListener('resize', this.scrolls);
    this.scrolls();
  }
  override update(node: PMNode): boolean {
    if (!super.update(node)) return false;
    this.drawHead(node);
    this.scrolls();
    return true;
  }
  /**
   * A grid wider than its box (a phone) scrolls in it: the box is then a focusable, named region, so the keyboard
   * can scroll it too. Checked when the table changes and when the window is resized.
   */
  scrolls = () => {
    requestAnimationFrame(() => {
      const wide = this.dom.isConnected && this.dom.scrollWidth > this.dom.clientWidth + 1;
      if (wide === (this.dom.getAttribute('tabindex') === '0')) return;
      if (wide) {
        this.dom.setAttribute('tabindex', '0');
        this.dom.setAttribute('role', 'region');
        this.dom.setAttribute('aria-label', 'Table (scrolls sideways)');
      } else for (const a of ['tabindex', 'role', 'aria-label']) this.dom.removeAttribute(a);
    });
  };
  destroy() {
    window.removeEventListener('resize', this.scrolls);
  }
  /**
   * A cards view is drawn as the published site draws it: a list of cards (the rows, labelled "Card n" in
   * table-view.ts), a grid of two or three across, one on a phone. The table is then only their box.
   */
  drawView(data: Data | null | undefined) {
    const cards = isCards(data);
    this.dom.classList.toggle('table-cards', cards);
    this.dom.classList.toggle('table-cards-large', cards && data?.view?.cardSize === 'large');
    if (cards) {
      this.table.setAttribute('role', 'presentation');
      this.contentDOM.setAttribute('role', 'list');
      this.contentDOM.setAttribute('aria-label', 'Cards');
    } else {
      this.table.removeAttribute('role');
      this.contentDOM.removeAttribute('role');
      this.contentDOM.removeAttribute('aria-label');
    }
  }
  drawHead(node: PMNode) {
    const all = complete(node);
    if (this.drawn === node.attrs.data && this.all === all) return;
    this.drawn = node.attrs.data;
    this.all = all;
    this.drawView(node.attrs.data);
    // cards show each field's title in the card (table-view.ts), not in a header row
    const titles = isCards(node.attrs.data) ? undefined : headerOf(node.attrs.data, all);
    this.head.replaceChildren();
    this.head.hidden = !titles;
    if (!titles) return;
    const row = this.head.appendChild(document.createElement('tr'));
    for (const { title, align } of titles) {
      const th = row.appendChild(document.createElement('th'));
      th.scope = 'col';
      th.className = `align-${align}`;
      th.textContent = title; // user content: text, never HTML
    }
  }
}

/** A column id not in the definition yet. */
function newColumnId(definition: Record<string, unknown>): string {
  for (;;) {
    const id = Math.random().toString(36).slice(2, 10);
    if (id && !(id in definition)) return id;
  }
}

/** `list` with `item` inserted before `before` when it is there, else after `after` when it is there, else last. */
function insertNear(list: string[], item: string, before: string | undefined, after: string | undefined): string[] {
  const out = [...list];
  const b = before === undefined ? -1 : out.indexOf(before);
  const a = after === undefined ? -1 : out.indexOf(after);
  if (b >= 0) out.splice(b, 0, item);
  else if (a >= 0) out.splice(a + 1, 0, item);
  else out.push(item);
  return out;
}

type Where = 'before' | 'after';
export type TableAction =
  | 'addColumnBefore'
  | 'addColumnAfter'
  | 'addRowBefore'
  | 'addRowAfter'
  | 'deleteColumn'
  | 'deleteRow'
  | 'deleteTable';

/** What an action did, or why it could not (said to the writer). */
export interface ActionResult {
  done: boolean;
  message: string;
}

/** Sets the column of the cells of table column `col` (a table at `tablePos`) to `id`. */
function setColumnOfCells(tr: Transaction, tablePos: number, col: number, id: string) {
  const table = tr.doc.nodeAt(tablePos)!;
  const map = TableMap.get(table);
  for (let row = 0; row < map.height; row++) {
    const at = tablePos + 1 + map.map[row * map.width + col]!;
    const cell = tr.doc.nodeAt(at)!;
    tr.setNodeMarkup(at, undefined, { ...cell.attrs, column: id, fragment: null });
  }
}

/**
 * The text columns of a table `width` cells wide. A table without GitBook data (pasted) gets its columns now, named
 * as the document package names them when it saves such a table (`c1`, `c2`…).
 */
function columnsOf(data: Data, width: number): string[] | string {
  if (!Object.keys(data.definition ?? {}).length) {
    data.definition = {};
    for (let i = 1; i <= width; i++)
      data.definition[`c${i}`] = { id: `c${i}`, title: '', type: 'text', textAlignment: 'left' };
    data.view ??= { type: 'grid', columns: Object.keys(data.definition), hideHeader: true };
  }
  const columns = textColumns(data);
  return columns.length === width ? columns : 'This table has merged cells: its columns cannot be changed here.';
}

function addTableColumn(state: EditorState, where: Where): Transaction | string {
  const rect = selectedRect(state);
  const tablePos = rect.tableStart - 1;
  const data: Data = structuredClone(rect.table.attrs.data ?? {});
  const columns = columnsOf(data, rect.map.width);
  if (typeof columns === 'string') return columns;
  const col = where === 'before' ? rect.left : rect.right;
  const id = newColumnId(data.definition ?? {});
  const column = { id, title: '', type: 'text', textAlignment: 'left' };
  // the definition's order is the cells' order: the new column goes between its neighbours
  const definition: Record<string, unknown> = {};
  const entries = Object.entries((data.definition ?? {}) as Record<string, unknown>);
  if (col === columns.length || !entries.length) {
    for (const [k, v] of entries) {
      definition[k] = v;
      if (k === columns[col - 1]) definition[id] = column;
    }
    if (!(id in definition)) definition[id] = column;
  } else
    for (const [k, v] of entries) {
      if (k === columns[col]) definition[id] = column;
      definition[k] = v;
    }
  data.definition = definition;
  if (Array.isArray(data.view?.columns))
    data.view.columns = insertNear(data.view.columns, id, columns[col], columns[col - 1]);
  const tr = addColumn(state.tr, rect, col);
  setColumnOfCells(tr, tablePos, col, id);
  tr.setNodeMarkup(tablePos, undefined, { ...rect.table.attrs, data });
  return tr;
}

function deleteTableColumns(state: EditorState): Transaction | string {
  const rect = selectedRect(state);
  const tablePos = rect.tableStart - 1;
  const data: Data = structuredClone(rect.table.attrs.data ?? {});
  const columns = columnsOf(data, rect.map.width);
  if (typeof columns === 'string') return columns;
  if (rect.left === 0 && rect.right === rect.map.width)
    return 'A table keeps at least one column: delete the table instead.';
  const gone = columns.slice(rect.left, rect.right);
  const tr = state.tr;
  for (let col = rect.right - 1; col >= rect.left; col--) {
    const table = tr.doc.nodeAt(tablePos)!;
    removeColumn(tr, { ...rect, table, map: TableMap.get(table), tableStart: tablePos + 1 }, col);
  }
  for (const id of gone) {
    delete data.definition?.[id];
    delete data.view?.columnWidths?.[id];
    for (const record of Object.values((data.records ?? {}) as Record<string, Data>)) delete record.values?.[id];
  }
  if (Array.isArray(data.view?.columns)) data.view.columns = data.view.columns.filter((c: string) => !gone.includes(c));
  for (const key of ['targetDefinition', 'coverDefinition', 'coverDefinitionDark'])
    if (gone.includes(data.view?.[key])) delete data.view[key];
  const table = tr.doc.nodeAt(tablePos)!;
  tr.setNodeMarkup(tablePos, undefined, { ...table.attrs, data });
  return tr;
}

function addTableRow(state: EditorState, where: Where): Transaction | string {
  const rect = selectedRect(state);
  const tablePos = rect.tableStart - 1;
  const row = where === 'before' ? rect.top : rect.bottom;
  const tr = addRow(state.tr, rect, row);
  // the new cells belong to the columns of the cells above or below them
  const table = tr.doc.nodeAt(tablePos)!;
  const map = TableMap.get(table);
  const neighbour = row === 0 ? 1 : row - 1;
  for (let col = 0; col < map.width; col++) {
    const from = table.nodeAt(map.map[neighbour * map.width + col]!);
    const at = tablePos + 1 + map.map[row * map.width + col]!;
    const cell = tr.doc.nodeAt(at)!;
    if (from?.attrs.column && cell.attrs.column !== from.attrs.column)
      tr.setNodeMarkup(at, undefined, { ...cell.attrs, column: from.attrs.column, fragment: null });
  }
  return tr;
}

function deleteTableRows(state: EditorState): Transaction | string {
  const rect = selectedRect(state);
  if (rect.top === 0 && rect.bottom === rect.map.height)
    return 'A table keeps at least one row: delete the table instead.';
  const tablePos = rect.tableStart - 1;
  const tr = state.tr;
  for (let row = rect.bottom - 1; row >= rect.top; row--) {
    const table = tr.doc.nodeAt(tablePos)!;
    removeRow(tr, { ...rect, table, map: TableMap.get(table), tableStart: tablePos + 1 }, row);
  }
  return tr;
}

const MESSAGES: Record<TableAction, string> = {
  addColumnBefore: 'Column added on the left.',
  addColumnAfter: 'Column added on the right.',
  addRowBefore: 'Row added above.',
  addRowAfter: 'Row added below.',
  deleteColumn: 'Column deleted.',
  deleteRow: 'Row deleted.',
  deleteTable: 'Table deleted.',
};

/** What the actions are called, and say, in a cards view: a row is a card, a text column a field of every card. */
export const CARD_LABELS: Partial<Record<TableAction, [string, string]>> = {
  addRowBefore: ['Add card before', 'Card added before.'],
  addRowAfter: ['Add card after', 'Card added after.'],
  addColumnBefore: ['Add field before', 'Field added before.'],
  addColumnAfter: ['Add field after', 'Field added after.'],
  deleteRow: ['Delete card', 'Card deleted.'],
  deleteColumn: ['Delete field', 'Field deleted.'],
};

/** Runs a table action at the selection (one undo step). */
export function runTableAction(editor: Editor, action: TableAction): ActionResult {
  const state = editor.state;
  if (!isInTable(state)) return { done: false, message: 'Put the cursor in a table first.' };
  if (action === 'deleteTable') {
    const done = editor.commands.deleteTable();
    return { done, message: done ? MESSAGES.deleteTable : 'The table could not be deleted.' };
  }
  const made =
    action === 'addColumnBefore'
      ? addTableColumn(state, 'before')
      : action === 'addColumnAfter'
        ? addTableColumn(state, 'after')
        : action === 'addRowBefore'
          ? addTableRow(state, 'before')
          : action === 'addRowAfter'
            ? addTableRow(state, 'after')
            : action === 'deleteColumn'
              ? deleteTableColumns(state)
              : deleteTableRows(state);
  if (typeof made === 'string')
    return {
      done: false,
      message: made.replace(/\brow\b/, isCards(selectedRect(state).table.attrs.data) ? 'card' : 'row'),
    };
  const cards = isCards(selectedRect(state).table.attrs.data);
  editor.view.dispatch(closeHistory(made.scrollIntoView()));
  return { done: true, message: (cards && CARD_LABELS[action]?.[1]) || MESSAGES[action] };
}

/** The keys of the table actions (shown in the table's settings). */
export const TABLE_KEYS: Record<TableAction, string> = {
  addColumnBefore: 'Alt-Shift-ArrowLeft',
  addColumnAfter: 'Alt-Shift-ArrowRight',
  addRowBefore: 'Alt-Shift-ArrowUp',
  addRowAfter: 'Alt-Shift-ArrowDown',
  deleteColumn: 'Alt-Shift-Delete',
  deleteRow: 'Alt-Shift-Backspace',
  deleteTable: '',
};

/** The table actions' keys, in a table; what each did is emitted as the editor's `tableAction` event. */
export const TableKeys = Extension.create({
  name: 'tableKeys',
  // before TipTap's table keys: Tab in a table's last cell adds a row (a card) whose cells know their columns
  priority: 101,
  // the columns' alignment and the cells of the columns that are not text (table-view.ts)
  addProseMirrorPlugins: () => [tableCellsPlugin()],
  addKeyboardShortcuts() {
    const keys: Record<string, () => boolean> = {};
    for (const [action, key] of Object.entries(TABLE_KEYS) as [TableAction, string][])
      if (key)
        keys[key] = () => {
          if (!isInTable(this.editor.state)) return false;
          const result = runTableAction(this.editor, action);
          (this.editor as unknown as { emit(e: string, r: ActionResult): void }).emit('tableAction', result);
          return true;
        };
    keys.Tab = () => {
      if (!isInTable(this.editor.state)) return false;
      if (this.editor.commands.goToNextCell()) return true;
      const result = runTableAction(this.editor, 'addRowAfter');
      (this.editor as unknown as { emit(e: string, r: ActionResult): void }).emit('tableAction', result);
      return result.done && this.editor.commands.goToNextCell();
    };
    return keys;
  },
});
