// A long page (more than LONG top-level blocks) carries the class `long-document`: editor.css then lets the browser
// skip the layout and painting of its blocks while they are off screen (`content-visibility: auto`). A shorter page
// is drawn whole (its cost is small, and a full-page screenshot shows all of it). The top-level block holding the
// caret (or the selection's ends) carries the class `caret-block` and is always drawn (`visible`): Chromium drops
// the keys typed into a block it skips, such as one just made by Enter or a markdown shortcut.
import { Extension } from '@tiptap/core';
import { type EditorState, Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** Top-level blocks past which a page counts as long. */
export const LONG = 200;

/** The decorations: the top-level blocks at the selection's two ends (one when they are the same block). */
export function caretBlocks(state: EditorState): DecorationSet {
  const starts = new Set<number>();
  const decorations: Decoration[] = [];
  for (const pos of [state.selection.from, state.selection.to]) {
    const $pos = state.doc.resolve(pos);
    // inside a block: its top-level ancestor; between blocks (a selected block, a gap cursor): the block after it
    // (or before it, at the end)
    const node = $pos.depth > 0 ? $pos.node(1) : ($pos.nodeAfter ?? $pos.nodeBefore);
    if (!node) continue;
    const start = $pos.depth > 0 ? $pos.before(1) : $pos.nodeAfter ? pos : pos - node.nodeSize;
    if (starts.has(start)) continue;
    starts.add(start);
    decorations.push(Decoration.node(start, start + node.nodeSize, { class: 'caret-block' }));
  }
  return DecorationSet.create(state.doc, decorations);
}

export const CaretBlock = Extension.create({
  name: 'caretBlock',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('caretBlock'),
        props: {
          decorations: caretBlocks,
          attributes: (state): Record<string, string> =>
            state.doc.childCount > LONG ? { class: 'long-document' } : {},
        },
      }),
    ];
  },
});
