// A GitBook table's columns, values and view, edited in its `data` (GitBook's DocumentBlockTable): the columns that
// are not text (numbers, checkboxes, ratings, links…), a column's alignment, title and type, moving a column, and the
// view (grid or cards, the cards' size, cover and link). The text cells are the editor's own table cells (table.ts);
// every other value lives in the table's `data.records`, changed here in one undoable step.
//
// What the stored page keeps decides what is editable: pages are stored as GitBook's markdown, whose table HTML keeps
// number, checkbox, rating, link (content-ref), file and image columns, but neither a select column's options nor
// its choices, nor a users column's cells (GitBook writes them empty). So select and users values are shown, kept,
// and not edited here; files and images are kept as they are (uploading into a cell is not there yet).
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import type { Node as PMNode } from '@tiptap/pm/model';
import { type EditorState, TextSelection } from '@tiptap/pm/state';
import { describeRef, type LinkRef } from './links.ts';
import type { ActionResult } from './table.ts';

export type Data = Record<string, any>;
export interface Column {
  id: string;
  title?: string;
  type: string;
  textAlignment?: string;
  max?: number;
  multiple?: boolean;
  options?: { value: string; label: string; color?: string }[];
}

/** The table holding the cursor: where it is, its data, and the record (row) and column of the cursor's cell. */
export interface TableHere {
  pos: number;
  /** the table's depth at the cursor */
  depth: number;
  node: PMNode;
  data: Data;
  /** the row's index among the table's rows */
  row: number;
  /** the row's record ID (null for a row added since the page was opened: it gets one when a value is set) */
  record: string | null;
  /** the cursor's column (a text column) */
  column: string | undefined;
}

/** Names of the column types, as the writer reads them. */
export const TYPE_NAMES: Record<string, string> = {
  text: 'Text',
  number: 'Number',
  checkbox: 'Checkbox',
  rating: 'Rating',
  'content-ref': 'Link',
  select: 'Select',
  users: 'Users',
  files: 'Files',
  image: 'Image',
};

/** Column types a column can be added as here (text columns are added from a cell: Alt+Shift+← and →). */
export const ADDABLE_TYPES = ['number', 'checkbox', 'rating', 'content-ref'] as const;

/** All the columns of a table: those the view shows, in its order, then the hidden ones (as GitBook writes them). */
export function columnsInOrder(data: Data | null | undefined): string[] {
  const definition = (data?.definition ?? {}) as Record<string, Column>;
  const shown: string[] = Array.isArray(data?.view?.columns)
    ? (data.view.columns as string[]).filter((id) => Object.hasOwn(definition, id))
    : [];
  return [...new Set([...shown, ...Object.keys(definition)])];
}

/** The text columns in the order of the definition: the order of the editor's cells. */
const textOrder = (data: Data): string[] =>
  Object.values((data.definition ?? {}) as Record<string, Column>)
    .filter((d) => d?.type === 'text')
    .map((d) => String(d.id));

export function tableHere(state: EditorState): TableHere | undefined {
  const $from = state.selection.$from;
  for (let d = $from.depth; d > 0; d--) {
    const node = $from.node(d);
    if (node.type.name !== 'table') continue;
    const data: Data = node.attrs.data ?? {};
    let row = -1;
    let record: string | null = null;
    let column: string | undefined;
    if (d + 1 <= $from.depth && $from.node(d + 1).type.name === 'tableRow') {
      row = $from.index(d);
      record = $from.node(d + 1).attrs.record ?? null;
      if (d + 2 <= $from.depth) {
        const index = $from.index(d + 1);
        column = $from.node(d + 2).attrs.column ?? textOrder(data)[index];
      }
    }
    return { pos: $from.before(d), depth: d, node, data, row, record, column };
  }
  return undefined;
}

/** A new ID, not among `taken`. */
function freshId(taken: Record<string, unknown>): string {
  for (;;) {
    const id = Math.random().toString(36).slice(2, 10);
    if (id && !Object.hasOwn(taken, id)) return id;
  }
}

/**
 * Changes the data of the table at the cursor with `change` (given a copy; it returns an error sentence to refuse),
 * one undo step; the message says what was done.
 */
export function changeTable(
  editor: Editor,
  change: (data: Data, here: TableHere) => string | undefined,
  message: string,
): ActionResult {
  const here = tableHere(editor.state);
  if (!here) return { done: false, message: 'Put the cursor in a table first.' };
  const data = structuredClone(here.data);
  const error = change(data, here);
  if (error) return { done: false, message: error };
  const tr = editor.state.tr.setNodeMarkup(here.pos, undefined, { ...here.node.attrs, data });
  editor.view.dispatch(closeHistory(tr));
  return { done: true, message };
}

// ── Columns ──────────────────────────────────────────────────────────────────────────────────────────────

export type Alignment = 'left' | 'center' | 'right';

/** A text column's alignment (GitBook has it for text columns only). */
export const setAlignment = (editor: Editor, id: string, align: Alignment): ActionResult =>
  changeTable(
    editor,
    (data) => {
      const d = data.definition?.[id];
      if (d?.type !== 'text') return 'Only a text column has an alignment.';
      d.textAlignment = align;
      return undefined;
    },
    `Column aligned ${align}.`,
  );

export const setTitle = (editor: Editor, id: string, title: string): ActionResult =>
  changeTable(
    editor,
    (data) => {
      if (!data.definition?.[id]) return 'That column is not there any more.';
      data.definition[id].title = title;
      return undefined;
    },
    'Column title changed.',
  );

/** The values a column has (set ones only). */
const valuesOf = (data: Data, id: string): unknown[] =>
  Object.values((data.records ?? {}) as Record<string, Data>)
    .map((r) => r.values?.[id])
    .filter((v) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0));

/**
 * The types column `id` can change to without losing a value: a number column to a rating when every value is a
 * whole number from 0 to 5, a rating to a number, and a column without values to any type added here. A text column
 * keeps its type (its cells are rich text; as numbers they would be lost).
 */
export function typesFor(data: Data, id: string): string[] {
  const d: Column | undefined = data.definition?.[id];
  if (!d || d.type === 'text') return [];
  const values = valuesOf(data, id);
  if (!values.length) return ADDABLE_TYPES.filter((t) => t !== d.type);
  if (d.type === 'rating') return ['number'];
  if (d.type === 'number' && values.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5))
    return ['rating'];
  return [];
}

/** A column of `type` as GitBook defines it (a rating out of 5). */
const definitionOf = (id: string, title: string, type: string): Column =>
  type === 'rating'
    ? { id, title, type, max: 5 }
    : type === 'text'
      ? { id, title, type, textAlignment: 'left' }
      : { id, title, type };

export const setType = (editor: Editor, id: string, type: string): ActionResult =>
  changeTable(
    editor,
    (data) => {
      if (!typesFor(data, id).includes(type)) return `This column cannot become ${TYPE_NAMES[type] ?? type} here.`;
      const old: Column = data.definition[id];
      data.definition[id] = definitionOf(id, old.title ?? '', type);
      return undefined;
    },
    `Column type: ${TYPE_NAMES[type] ?? type}.`,
  );

/** Adds an empty column of `type` (not text) after the others; the view shows it. */
export const addColumnOfType = (editor: Editor, type: string, title: string): ActionResult =>
  changeTable(
    editor,
    (data) => {
      if (!(ADDABLE_TYPES as readonly string[]).includes(type)) return 'Text columns are added from a cell.';
      data.definition ??= {};
      const id = freshId(data.definition);
      data.definition[id] = definitionOf(id, title, type);
      if (Array.isArray(data.view?.columns)) data.view.columns.push(id);
      return undefined;
    },
    `${TYPE_NAMES[type]} column added.`,
  );

/** Deletes a column that is not text (a text column is deleted from one of its cells, with its cells). */
export const deleteValueColumn = (editor: Editor, id: string): ActionResult =>
  changeTable(
    editor,
    (data) => {
      const d = data.definition?.[id];
      if (!d) return 'That column is not there any more.';
      if (d.type === 'text') return 'A text column is deleted from one of its cells (Alt+Shift+Delete).';
      delete data.definition[id];
      delete data.view?.columnWidths?.[id];
      for (const record of Object.values((data.records ?? {}) as Record<string, Data>)) delete record.values?.[id];
      if (Array.isArray(data.view?.columns)) data.view.columns = data.view.columns.filter((c: string) => c !== id);
      for (const key of ['targetDefinition', 'coverDefinition', 'coverDefinitionDark'])
        if (data.view?.[key] === id) delete data.view[key];
      return undefined;
    },
    'Column deleted.',
  );

/**
 * Moves column `id` one place left (-1) or right (1) among the table's columns: the view's order, the definition's
 * (which GitBook's markdown writes in the view's order) and, when text columns change places, the editor's cells.
 * One undo step; the cursor stays in its cell.
 */
export function moveColumn(editor: Editor, id: string, by: -1 | 1): ActionResult {
  const state = editor.state;
  const here = tableHere(state);
  if (!here) return { done: false, message: 'Put the cursor in a table first.' };
  const data = structuredClone(here.data);
  const order = columnsInOrder(data);
  const at = order.indexOf(id);
  const to = at + by;
  if (at < 0) return { done: false, message: 'That column is not there any more.' };
  if (to < 0 || to >= order.length)
    return { done: false, message: by < 0 ? 'This is the first column.' : 'This is the last column.' };
  [order[at], order[to]] = [order[to]!, order[at]!];
  const oldText = textOrder(data);
  if (Array.isArray(data.view?.columns)) {
    const shown = new Set<string>(data.view.columns);
    data.view.columns = order.filter((c) => shown.has(c));
  }
  data.definition = Object.fromEntries(order.map((c) => [c, data.definition[c]]));
  const newText = textOrder(data);
  // the rows with their cells in the new order (each cell keeps its content and fragment)
  const rows: PMNode[] = [];
  let broken = false;
  here.node.forEach((row) => {
    if (row.childCount !== oldText.length) broken = true;
    const byColumn = new Map<string, PMNode>();
    row.forEach((cell, _, i) => {
      const column: string = cell.attrs.column ?? oldText[i];
      byColumn.set(column, cell.attrs.column ? cell : cell.type.create({ ...cell.attrs, column }, cell.content));
    });
    const cells = newText.map((c) => byColumn.get(c)!);
    if (cells.some((c) => !c)) broken = true;
    else rows.push(row.type.create(row.attrs, cells));
  });
  if (broken) return { done: false, message: 'This table has merged cells: its columns cannot be moved here.' };
  const table = here.node.type.create({ ...here.node.attrs, data }, rows);
  // the cursor's place in its cell, to put it back in the same cell once moved
  const $from = state.selection.$from;
  const inCell = here.depth + 2 <= $from.depth ? $from.pos - $from.start(here.depth + 2) : 0;
  const tr = state.tr.replaceWith(here.pos, here.pos + here.node.nodeSize, table);
  if (here.row >= 0 && here.column) {
    let pos = here.pos + 1;
    for (let r = 0; r < here.row; r++) pos += table.child(r).nodeSize;
    pos += 1; // into the row
    const row = table.child(here.row);
    const index = newText.indexOf(here.column);
    for (let c = 0; c < index; c++) pos += row.child(c).nodeSize;
    const cell = row.child(index);
    const target = Math.min(pos + 1 + inCell, pos + cell.nodeSize - 1);
    tr.setSelection(TextSelection.near(tr.doc.resolve(target)));
  }
  editor.view.dispatch(closeHistory(tr.scrollIntoView()));
  const title = String(data.definition[id]?.title ?? '') || 'Column';
  return { done: true, message: `${title} moved ${by < 0 ? 'left' : 'right'}.` };
}

// ── Values of the columns that are not text ───────────────────────────────────────────────────────────────

/** Whether a column's values are edited here (see the top of this file for the others). */
export const editableType = (type: string): boolean =>
  type === 'number' || type === 'checkbox' || type === 'rating' || type === 'content-ref';

/** A value as the writer reads it (a cell of a type not edited here, or a link). */
export function describeValue(d: Column, value: unknown): string {
  if (value === undefined || value === null || (Array.isArray(value) && !value.length)) return 'empty';
  switch (d.type) {
    case 'checkbox':
      return value ? 'Yes' : 'No';
    case 'rating':
      return `${value} of ${d.max ?? 5}`;
    case 'select': {
      const chosen = Array.isArray(value) ? value : [value];
      return chosen.map((v) => d.options?.find((o) => o.value === v)?.label ?? String(v)).join(', ');
    }
    case 'files':
      return Array.isArray(value)
        ? `${value.length} file${value.length > 1 ? 's' : ''}`
        : describeRef(value as LinkRef);
    case 'image': {
      const v = value as { kind?: string; ref?: LinkRef; url?: string };
      const ref = (v.kind ? v : v.ref) as LinkRef | undefined;
      return ref?.kind === 'file' ? 'an uploaded image' : describeRef(ref);
    }
    case 'content-ref':
      return describeRef(value as LinkRef);
    case 'users':
      return Array.isArray(value) ? `${value.length} user${value.length > 1 ? 's' : ''}` : String(value);
    default:
      return typeof value === 'object' ? 'set' : String(value);
  }
}

/**
 * Sets (or, with undefined, clears) the value of column `id` in the cursor's row. A row added since the page was
 * opened gets its record now (GitBook's rows are records).
 */
export function setValue(editor: Editor, id: string, value: unknown): ActionResult {
  const here = tableHere(editor.state);
  if (!here || here.row < 0) return { done: false, message: 'Put the cursor in a row of the table first.' };
  const data = structuredClone(here.data);
  const d: Column | undefined = data.definition?.[id];
  if (!d || !editableType(d.type)) return { done: false, message: 'This column is not edited here.' };
  if (value !== undefined) {
    if ((d.type === 'number' || d.type === 'rating') && !(typeof value === 'number' && Number.isFinite(value)))
      return { done: false, message: 'Type a number.' };
    if (
      d.type === 'rating' &&
      !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= (d.max ?? 5))
    )
      return { done: false, message: `A rating is a whole number from 0 to ${d.max ?? 5}.` };
  }
  data.records ??= {};
  const tr = editor.state.tr;
  let record = here.record;
  if (!record || !data.records[record]) {
    record ??= freshId(data.records);
    // its place among the rows is given when the page is saved (editor-json's tableFromEditor)
    data.records[record] = { orderIndex: '', values: {} };
    const rowPos = here.pos + 1 + [...Array(here.row).keys()].reduce((s, r) => s + here.node.child(r).nodeSize, 0);
    tr.setNodeMarkup(rowPos, undefined, { ...here.node.child(here.row).attrs, record });
  }
  const values = (data.records[record].values ??= {});
  if (value === undefined) delete values[id];
  else values[id] = value;
  tr.setNodeMarkup(here.pos, undefined, { ...here.node.attrs, data });
  editor.view.dispatch(closeHistory(tr));
  const title = d.title || TYPE_NAMES[d.type];
  return { done: true, message: value === undefined ? `${title} cleared.` : `${title} set.` };
}

/** The value of column `id` in the cursor's row. */
export const valueHere = (here: TableHere, id: string): unknown =>
  here.record ? here.data.records?.[here.record]?.values?.[id] : undefined;

// ── The view ─────────────────────────────────────────────────────────────────────────────────────────────

/** Shows the table as a grid or as cards, keeping its columns; each view gets the fields GitBook requires. */
export const setViewType = (editor: Editor, type: 'grid' | 'cards'): ActionResult =>
  changeTable(
    editor,
    (data) => {
      const old = data.view ?? {};
      if (old.type === type) return undefined;
      const columns = Array.isArray(old.columns) ? old.columns : columnsInOrder(data);
      data.view =
        type === 'grid'
          ? { type, columns, hideHeader: old.hideColumnTitle === true }
          : {
              type,
              columns,
              cardSize: 'medium',
              ...(old.hideHeader === true ? { hideColumnTitle: true } : {}),
              ...coverAndTarget(data),
            };
      return undefined;
    },
    type === 'grid' ? 'Shown as a grid.' : 'Shown as cards.',
  );

/** A new cards view's cover and link: the first image (or files) column and the first link column, when there are. */
function coverAndTarget(data: Data): Data {
  const defs = columnsInOrder(data).map((id) => data.definition[id] as Column);
  const cover = defs.find((d) => d.type === 'image') ?? defs.find((d) => d.type === 'files');
  const target = defs.find((d) => d.type === 'content-ref');
  return { ...(cover ? { coverDefinition: cover.id } : {}), ...(target ? { targetDefinition: target.id } : {}) };
}

/** The columns a card's cover (image or files) or link (content-ref) can come from. */
export const cardColumns = (data: Data, use: 'cover' | 'target'): Column[] =>
  columnsInOrder(data)
    .map((id) => data.definition[id] as Column)
    .filter((d) => (use === 'target' ? d.type === 'content-ref' : d.type === 'image' || d.type === 'files'));

/** A setting of the cards view: size, cover, dark cover, link, column titles. */
export const setCards = (
  editor: Editor,
  key: 'cardSize' | 'coverDefinition' | 'coverDefinitionDark' | 'targetDefinition' | 'hideColumnTitle',
  value: string | boolean | undefined,
): ActionResult =>
  changeTable(
    editor,
    (data) => {
      if (data.view?.type !== 'cards') return 'The table is not shown as cards.';
      if (value === undefined || value === false) delete data.view[key];
      else data.view[key] = value;
      return undefined;
    },
    'Cards changed.',
  );
