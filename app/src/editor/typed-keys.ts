// A character typed with the caret in a text (no selection) is inserted by the editor itself, as ProseMirror does
// for a selection: through the text input handlers (markdown shortcuts), then `insertText`. Left to the browser,
// Chromium's own insertion laid out the page and worked out the caret's place before inserting, and ProseMirror
// then read the changed DOM back: in a 2,000-block page that was most of a keystroke's frame (docs/app.md, Figures).
// Composition (IME, dead keys), keys with Ctrl or ⌘, Enter and selections are left as ProseMirror handles them.
import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/** Inserts `text` at the selection as typed text: the text input handlers first (input rules), else `insertText`. */
export function insertTyped(view: EditorView, text: string): void {
  const { from, to } = view.state.selection;
  const deflt = () => view.state.tr.insertText(text, from, to).scrollIntoView();
  if (!view.someProp('handleTextInput', (f) => f(view, from, to, text, deflt))) view.dispatch(deflt());
}

export const TypedKeys = Extension.create({
  name: 'typedKeys',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('typedKeys'),
        props: {
          handleKeyPress(view, event) {
            const text = String.fromCharCode(event.charCode);
            const { selection } = view.state;
            if (view.composing || !event.charCode || event.ctrlKey || event.metaKey || /[\r\n]/.test(text))
              return false;
            if (!(selection instanceof TextSelection) || !selection.empty || !view.editable) return false;
            insertTyped(view, text);
            return true;
          },
        },
      }),
    ];
  },
});
