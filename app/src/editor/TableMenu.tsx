// The table's actions in its settings: add and remove rows and columns (each also has a key, shown here).
import type { Editor } from '@tiptap/core';
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

export function TableMenu({ editor, onResult }: { editor: Editor | undefined; onResult(r: ActionResult): void }) {
  return (
    <fieldset className="table-menu">
      <legend>Rows and columns</legend>
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
