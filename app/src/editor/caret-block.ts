// The top-level block holding the caret (or the selection's ends) carries the class `caret-block`. editor.css lets
// the browser skip the layout and painting of the other blocks while they are off screen (`content-visibility:
// auto`); the caret's block is always drawn (`visible`). Without this, Chromium drops the keys typed into a block
// just made (Enter, a markdown shortcut) until the next frame has found it on screen.
import { Extension } from '@tiptap/core';
import { type EditorState, Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

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
    return [new Plugin({ key: new PluginKey('caretBlock'), props: { decorations: caretBlocks } })];
  },
});
