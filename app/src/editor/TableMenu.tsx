// The table's settings under the block's: rows and columns (each action also has a key, shown here), the chosen
// column (move, alignment, title, type), the values of the cursor's row in the columns that are not text, and the
// view (grid or cards, with the cards' size, cover and link). What each does is said in the editor's live region.
import type { Editor } from '@tiptap/core';
import { useEffect, useId, useRef, useState } from 'react';
import { urlOf } from './links.ts';
import { type ActionResult, CARD_LABELS, runTableAction, TABLE_KEYS, type TableAction } from './table.ts';
import {
  ADDABLE_TYPES,
  type Alignment,
  addColumnOfType,
  type Column,
  cardColumns,
  columnsInOrder,
  deleteValueColumn,
  describeValue,
  editableType,
  moveColumn,
  setAlignment,
  setCards,
  setTitle,
  setType,
  setValue,
  setViewType,
  type TableHere,
  TYPE_NAMES,
  tableHere,
  typesFor,
  valueHere,
} from './table-data.ts';
import { isCards } from './table-view.ts';
import './table.css';

const ACTIONS: [TableAction, string][] = [
  ['addRowBefore', 'Add row above'],
  ['addRowAfter', 'Add row below'],
  ['addColumnBefore', 'Add column left'],
  ['addColumnAfter', 'Add column right'],
  ['deleteRow', 'Delete row'],
  ['deleteColumn', 'Delete column'],
  ['deleteTable', 'Delete table'],
];

/** A key as the writer reads it: Alt-Shift-ArrowLeft as Alt+Shift+←. */
const shown = (key: string) =>
  key
    .replace('ArrowLeft', '←')
    .replace('ArrowRight', '→')
    .replace('ArrowUp', '↑')
    .replace('ArrowDown', '↓')
    .replaceAll('-', '+');

/** The table at the cursor, read again after each change of the editor (the cursor moving between cells too). */
function useTableHere(editor: Editor | undefined): TableHere | undefined {
  const [here, setHere] = useState(() => (editor ? tableHere(editor.state) : undefined));
  useEffect(() => {
    if (!editor) return;
    const read = () => {
      const h = tableHere(editor.state);
      setHere((old) =>
        old && h && old.node === h.node && old.row === h.row && old.column === h.column && old.record === h.record
          ? old
          : h,
      );
    };
    read();
    editor.on('transaction', read);
    return () => {
      editor.off('transaction', read);
    };
  }, [editor]);
  return here;
}

const columnName = (d: Column) => `${d.title || 'Untitled'} (${TYPE_NAMES[d.type] ?? d.type})`;

/**
 * The table's settings. Tab moves between cells in a table, so Alt+F10 (the usual key of an editor's toolbar) moves the
 * focus from the text to these buttons, and Escape back to the text.
 */
export function TableMenu({ editor, onResult }: { editor: Editor | undefined; onResult(r: ActionResult): void }) {
  const box = useRef<HTMLFieldSetElement>(null);
  const here = useTableHere(editor);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F10' && e.altKey && editor?.view.hasFocus()) {
        e.preventDefault();
        box.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [editor]);
  // read-only (live, without the right to edit): nothing to change
  if (editor && !editor.isEditable) return null;
  const run = (r: ActionResult) => onResult(r);
  return (
    <fieldset
      ref={box}
      className="table-settings"
      aria-label="Rows, columns and view"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          editor?.commands.focus();
        }
      }}
    >
      <fieldset className="table-menu">
        <legend>
          {here && isCards(here.data) ? 'Cards and fields' : 'Rows and columns'}{' '}
          <span className="muted">(Alt+F10)</span>
        </legend>
        {ACTIONS.map(([action, grid]) => {
          const label = (here && isCards(here.data) && CARD_LABELS[action]?.[0]) || grid;
          const key = TABLE_KEYS[action];
          return (
            <button
              key={action}
              type="button"
              aria-keyshortcuts={key ? key.replaceAll('-', '+') : undefined}
              title={key ? `${label} (${shown(key)})` : label}
              // a click keeps the cursor in the table: the action applies where it is
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                if (!editor) return;
                const result = runTableAction(editor, action);
                onResult(result);
                if (result.done) editor.commands.focus();
              }}
            >
              {label}
            </button>
          );
        })}
      </fieldset>
      {editor && here && (
        <>
          <ColumnSettings editor={editor} here={here} onResult={run} />
          <RowValues editor={editor} here={here} onResult={run} />
          <ViewSettings editor={editor} here={here} onResult={run} />
        </>
      )}
    </fieldset>
  );
}

interface Props {
  editor: Editor;
  here: TableHere;
  onResult(r: ActionResult): void;
}

/** The chosen column (the cursor's, or one picked in the list): move, alignment, title, type; add a column. */
function ColumnSettings({ editor, here, onResult }: Props) {
  const id = useId();
  const order = columnsInOrder(here.data);
  const [picked, setPicked] = useState<string | undefined>(here.column);
  // the cursor moving to another column picks it
  useEffect(() => setPicked(here.column), [here.column]);
  const column = picked && order.includes(picked) ? picked : (here.column ?? order[0]);
  const d: Column | undefined = column ? here.data.definition?.[column] : undefined;
  const [newType, setNewType] = useState<string>('number');
  if (!column || !d) return null;
  const at = order.indexOf(column);
  const types = typesFor(here.data, column);
  const grid = here.data.view?.type !== 'cards';
  return (
    <fieldset className="table-menu">
      <legend>Column</legend>
      <span className="table-field">
        <label htmlFor={`${id}-col`}>Column</label>
        <select id={`${id}-col`} value={column} onChange={(e) => setPicked(e.target.value)}>
          {order.map((c) => (
            <option key={c} value={c}>
              {columnName(here.data.definition[c])}
            </option>
          ))}
        </select>
      </span>
      <button
        type="button"
        disabled={at === 0}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => onResult(moveColumn(editor, column, -1))}
      >
        Move left
      </button>
      <button
        type="button"
        disabled={at === order.length - 1}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => onResult(moveColumn(editor, column, 1))}
      >
        Move right
      </button>
      {d.type === 'text' && grid && (
        <span className="table-field">
          <label htmlFor={`${id}-align`}>Alignment</label>
          <select
            id={`${id}-align`}
            value={d.textAlignment === 'center' || d.textAlignment === 'right' ? d.textAlignment : 'left'}
            onChange={(e) => onResult(setAlignment(editor, column, e.target.value as Alignment))}
          >
            <option value="left">Left</option>
            <option value="center">Center</option>
            <option value="right">Right</option>
          </select>
        </span>
      )}
      {d.type !== 'text' && (
        <span className="table-field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            value={d.title ?? ''}
            onChange={(e) => onResult(setTitle(editor, column, e.target.value))}
          />
        </span>
      )}
      <span className="table-field">
        <label htmlFor={`${id}-type`}>Type</label>
        <select
          id={`${id}-type`}
          value={d.type}
          disabled={!types.length}
          aria-describedby={types.length ? undefined : `${id}-type-why`}
          onChange={(e) => onResult(setType(editor, column, e.target.value))}
        >
          {[d.type, ...types].map((t) => (
            <option key={t} value={t}>
              {TYPE_NAMES[t] ?? t}
            </option>
          ))}
        </select>
      </span>
      {!types.length && (
        <span id={`${id}-type-why`} className="muted">
          {d.type === 'text' ? 'Text cells stay text.' : 'Its values would not fit another type.'}
        </span>
      )}
      {d.type !== 'text' && (
        <button
          type="button"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onResult(deleteValueColumn(editor, column))}
        >
          Delete this column
        </button>
      )}
      <span className="table-field">
        <label htmlFor={`${id}-new`}>New column</label>
        <select id={`${id}-new`} value={newType} onChange={(e) => setNewType(e.target.value)}>
          {ADDABLE_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_NAMES[t]}
            </option>
          ))}
        </select>
      </span>
      <button
        type="button"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => onResult(addColumnOfType(editor, newType, TYPE_NAMES[newType] ?? ''))}
      >
        Add {TYPE_NAMES[newType]?.toLowerCase()} column
      </button>
    </fieldset>
  );
}

/** The values of the cursor's row in the columns that are not text. */
function RowValues({ editor, here, onResult }: Props) {
  const id = useId();
  const columns = columnsInOrder(here.data)
    .map((c) => here.data.definition[c] as Column)
    .filter((d) => d.type !== 'text');
  if (!columns.length || here.row < 0) return null;
  return (
    <fieldset className="table-menu">
      <legend>
        {isCards(here.data) ? 'Card' : 'Row'} {here.row + 1}
      </legend>
      {columns.map((d) => {
        const value = valueHere(here, d.id);
        const label = d.title || TYPE_NAMES[d.type] || d.type;
        const field = `${id}-${d.id}`;
        if (!editableType(d.type))
          return (
            <span key={d.id} className="table-value">
              {label}: <strong>{describeValue(d, value)}</strong>{' '}
              <span className="muted">(kept as it is; {TYPE_NAMES[d.type] ?? d.type} cells are not edited here)</span>
            </span>
          );
        if (d.type === 'checkbox')
          return (
            <label key={d.id} htmlFor={field}>
              <input
                id={field}
                type="checkbox"
                checked={value === true}
                onChange={(e) => onResult(setValue(editor, d.id, e.target.checked))}
              />{' '}
              {label}
            </label>
          );
        if (d.type === 'rating') {
          const max = d.max ?? 5;
          return (
            <span key={`${d.id}-${here.record}`} className="table-field">
              <label htmlFor={field}>{label}</label>
              <select
                id={field}
                value={typeof value === 'number' ? String(value) : ''}
                onChange={(e) =>
                  onResult(setValue(editor, d.id, e.target.value === '' ? undefined : Number(e.target.value)))
                }
              >
                <option value="">No rating</option>
                {[...Array(max + 1).keys()].map((n) => (
                  <option key={n} value={String(n)}>
                    {`${n} of ${max}`}
                  </option>
                ))}
              </select>
            </span>
          );
        }
        if (d.type === 'number')
          return (
            <NumberField
              key={`${d.id}-${here.row}`}
              id={field}
              label={label}
              value={typeof value === 'number' ? value : undefined}
              onSet={(n) => onResult(setValue(editor, d.id, n))}
            />
          );
        return (
          <LinkField
            key={`${d.id}-${here.row}`}
            id={field}
            label={label}
            value={value}
            onSet={(v) => onResult(setValue(editor, d.id, v))}
            onError={(message) => onResult({ done: false, message })}
          />
        );
      })}
    </fieldset>
  );
}

/** A number, written as typed whenever it is one (emptied, the cell is cleared). */
function NumberField({
  id,
  label,
  value,
  onSet,
}: {
  id: string;
  label: string;
  value: number | undefined;
  onSet(n: number | undefined): void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => {
    setText((t) => (t !== '' && Number(t) === value ? t : value === undefined ? '' : String(value)));
  }, [value]);
  return (
    <span className="table-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        // text, not type=number: "4." on the way to "4.5" is kept as typed (a number field reads it as empty)
        inputMode="decimal"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const t = e.target.value.trim();
          if (t === '') onSet(undefined);
          else if (/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) && Number.isFinite(Number(t))) onSet(Number(t));
        }}
      />
    </span>
  );
}

/**
 * A link cell (GitBook's content-ref): a web address, set with Enter or on leaving the field. A link to a page or a
 * file is shown and kept until another address replaces it.
 */
function LinkField({
  id,
  label,
  value,
  onSet,
  onError,
}: {
  id: string;
  label: string;
  value: unknown;
  onSet(v: unknown): void;
  onError(message: string): void;
}) {
  const ref = value as { kind?: string; url?: string } | undefined;
  const url = ref?.kind === 'url' ? String(ref.url ?? '') : '';
  const [text, setText] = useState(url);
  useEffect(() => setText(url), [url]);
  const commit = () => {
    const t = text.trim();
    if (t === url) return;
    if (t === '') return onSet(undefined);
    const made = urlOf(t);
    if ('error' in made) onError(made.error);
    else onSet({ kind: 'url', url: made.url });
  };
  return (
    <span className="table-field">
      <label htmlFor={id}>{label}</label>
      {ref && ref.kind !== 'url' && (
        <span className="muted">(now {describeValue({ id, type: 'content-ref' }, ref)}) </span>
      )}
      <input
        id={id}
        type="url"
        placeholder="https://…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
    </span>
  );
}

/** Grid or cards, and the cards' settings (GitBook's `view`). */
function ViewSettings({ editor, here, onResult }: Props) {
  const id = useId();
  const view = here.data.view ?? {};
  const cards = view.type === 'cards';
  const covers = cardColumns(here.data, 'cover');
  const targets = cardColumns(here.data, 'target');
  const pick = (
    key: 'coverDefinition' | 'coverDefinitionDark' | 'targetDefinition',
    label: string,
    choices: Column[],
    none: string,
  ) => (
    <span className="table-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select
        id={`${id}-${key}`}
        value={typeof view[key] === 'string' ? view[key] : ''}
        onChange={(e) => onResult(setCards(editor, key, e.target.value || undefined))}
      >
        <option value="">{none}</option>
        {choices.map((d) => (
          <option key={d.id} value={d.id}>
            {columnName(d)}
          </option>
        ))}
      </select>
    </span>
  );
  return (
    <fieldset className="table-menu">
      <legend>View</legend>
      <span className="table-field">
        <label htmlFor={`${id}-view`}>Show as</label>
        <select
          id={`${id}-view`}
          value={cards ? 'cards' : 'grid'}
          onChange={(e) => onResult(setViewType(editor, e.target.value as 'grid' | 'cards'))}
        >
          <option value="grid">Grid</option>
          <option value="cards">Cards</option>
        </select>
      </span>
      {cards && (
        <>
          <span className="table-field">
            <label htmlFor={`${id}-size`}>Card size</label>
            <select
              id={`${id}-size`}
              value={view.cardSize === 'large' ? 'large' : 'medium'}
              onChange={(e) => onResult(setCards(editor, 'cardSize', e.target.value))}
            >
              <option value="medium">Medium</option>
              <option value="large">Large</option>
            </select>
          </span>
          {pick('coverDefinition', 'Cover', covers, 'No cover')}
          {pick('coverDefinitionDark', 'Dark cover', covers, 'Same as cover')}
          {pick('targetDefinition', 'Card link', targets, 'No link')}
          <label htmlFor={`${id}-titles`}>
            <input
              id={`${id}-titles`}
              type="checkbox"
              checked={view.hideColumnTitle !== true}
              onChange={(e) => onResult(setCards(editor, 'hideColumnTitle', !e.target.checked))}
            />{' '}
            Column titles
          </label>
        </>
      )}
    </fieldset>
  );
}
