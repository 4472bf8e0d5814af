// The table's actions in its settings: add and remove rows and columns (each also has a key, shown here).
import type { Editor } from '@tiptap/core';
import { useEffect, useRef } from 'react';
import { type ActionResult, runTableAction, TABLE_KEYS, type TableAction } from './table.ts';

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

/**
 * The table's actions. Tab moves between cells in a table, so Alt+F10 (the usual key of an editor's toolbar) moves the
 * focus from the text to these buttons, and Escape back to the text.
 */
export function TableMenu({ editor, onResult }: { editor: Editor | undefined; onResult(r: ActionResult): void }) {
  const box = useRef<HTMLFieldSetElement>(null);
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
  return (
    <fieldset
      ref={box}
      className="table-menu"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          editor?.commands.focus();
        }
      }}
    >
      <legend>
        Rows and columns <span className="muted">(Alt+F10)</span>
      </legend>
      {ACTIONS.map(([action, label]) => {
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
  );
}
