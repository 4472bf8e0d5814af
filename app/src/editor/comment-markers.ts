// The editor's part of comments (see comments.tsx): the markers of the blocks with open comments and the shortcut
// Ctrl/⌘-Alt-M, made with the editor.
import { type Editor, Extension } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** The open comments per top-level block: its index in the document and how many. */
export type Markers = ReadonlyMap<number, number>;

export const markersKey = new PluginKey<DecorationSet>('commentMarkers');

export interface MarkersStorage {
  /** What Ctrl/⌘-Alt-M does: the comments panel, once the editor's comments are shown. */
  open: (() => void) | undefined;
}
export const storageOf = (editor: Editor) =>
  (editor.storage as unknown as { commentMarkers: MarkersStorage }).commentMarkers;

/**
 * The editor's part of comments, made with the editor (a plugin added later would make ProseMirror rebuild every
 * plugin's view, live collaboration's included): the markers, given by a transaction that changes no text, and the
 * shortcut Ctrl/⌘-Alt-M (`event.code`: Alt-M types another letter on a Mac).
 */
export const CommentMarkers = Extension.create<unknown, MarkersStorage>({
  name: 'commentMarkers',
  addStorage: () => ({ open: undefined }),
  addProseMirrorPlugins() {
    const storage = this.storage;
    return [
      new Plugin<DecorationSet>({
        key: markersKey,
        state: {
          init: () => DecorationSet.empty,
          apply: (tr, set) => tr.getMeta(markersKey) ?? set.map(tr.mapping, tr.doc),
        },
        props: {
          decorations: (state) => markersKey.getState(state),
          handleKeyDown: (_view, e) => {
            if (!(e.altKey && (e.ctrlKey || e.metaKey) && e.code === 'KeyM') || !storage.open) return false;
            e.preventDefault();
            storage.open();
            return true;
          },
        },
      }),
    ];
  },
});

/** The decorations of the markers: the block's class and, before it, a button saying how many comments. */
export function markerDecorations(state: EditorState, markers: Markers, open: (index: number) => void): DecorationSet {
  const decorations: Decoration[] = [];
  let pos = 0;
  state.doc.forEach((block, _offset, index) => {
    const count = markers.get(index);
    if (count) {
      decorations.push(Decoration.node(pos, pos + block.nodeSize, { class: 'has-comments' }));
      decorations.push(
        Decoration.widget(
          pos,
          () => {
            const b = document.createElement('button');
            b.type = 'button';
            b.className = 'comment-marker';
            b.contentEditable = 'false';
            b.textContent = `${count} comment${count === 1 ? '' : 's'}`;
            // the visible text is part of the name (WCAG 2.5.3)
            b.setAttribute('aria-label', `Open ${b.textContent} on this block`);
            b.addEventListener('mousedown', (e) => e.preventDefault());
            b.addEventListener('click', () => open(index));
            return b;
          },
          { side: -1, key: `marker-${index}-${count}`, ignoreSelection: true, stopEvent: () => true },
        ),
      );
    }
    pos += block.nodeSize;
  });
  return DecorationSet.create(state.doc, decorations);
}
