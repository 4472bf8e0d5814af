// Links in the editor: the link at the selection, a web address checked before it becomes a link, setting and
// removing a link's target, and Ctrl/⌘-K on a selection or in a link (which opens the link dialog, not the app's
// quick-find palette).
import { type Editor, Extension, getMarkRange } from '@tiptap/core';
import { Plugin } from '@tiptap/pm/state';
import { pageTitles } from './uploads.ts';

/** A link's target (GitBook's `ref`): a URL or a page here; others (a file, an anchor…) are kept as they are. */
export type LinkRef = { kind: string; url?: string; page?: string; [field: string]: unknown };

export interface LinkAt {
  from: number;
  to: number;
  attrs: Record<string, any> | undefined;
}

/** The link around the selection (its whole text), or the selected text when it is no link; undefined with neither. */
export function linkAt(editor: Editor): LinkAt | undefined {
  const { state } = editor;
  const { from, to, empty, $from } = state.selection;
  const type = state.schema.marks.link!;
  // the link of the cursor, or of the selection's first character
  const probe = empty ? $from : state.doc.resolve(from + 1);
  const mark = type.isInSet(empty ? $from.marks() : probe.marks());
  const range = mark && getMarkRange(probe, type, mark.attrs);
  if (mark && range && range.from <= from && range.to >= to)
    return { from: range.from, to: range.to, attrs: mark.attrs };
  return empty ? undefined : { from, to, attrs: undefined };
}

/**
 * A web address as typed, made a link's URL: `example.com/x` is `https://example.com/x`; http(s) and mailto only (a
 * `javascript:` link is refused). An error sentence when it is not one.
 */
export function urlOf(typed: string): { url: string } | { error: string } {
  const s = typed.trim();
  if (!s) return { error: 'Type a web address, or pick a page.' };
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(s)) return { url: s };
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s.replace(/^\/\//, '')}`;
  try {
    const u = new URL(withScheme);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.')) return { url: withScheme };
  } catch {
    // not an address: said below
  }
  return { error: `"${s}" is not a web address (https://…, or mailto:…).` };
}

/** What a link points to, as the writer reads it. */
export function describeRef(ref: LinkRef | undefined): string {
  if (!ref) return '';
  if (ref.kind === 'url') return String(ref.url ?? '');
  if (ref.kind === 'page') return `the page ${pageTitles.get(String(ref.page)) ?? ref.page}`;
  return `a ${String(ref.kind ?? 'target')}`;
}

/** Links the text `from`–`to` (or the link there) to `ref`, keeping a link's key and other fields (one undo step). */
export function setLink(editor: Editor, at: LinkAt, ref: LinkRef): boolean {
  const attrs = { ...(at.attrs ?? {}), data: { ...(at.attrs?.data ?? {}), ref } };
  return editor
    .chain()
    .focus()
    .setTextSelection({ from: at.from, to: at.to })
    .unsetMark('link')
    .setMark('link', attrs)
    .run();
}

/** Removes the link from its text (the text stays). */
export function removeLink(editor: Editor, at: LinkAt): boolean {
  return editor.chain().focus().setTextSelection({ from: at.from, to: at.to }).unsetMark('link').run();
}

/**
 * Ctrl/⌘-K with text selected or the cursor in a link: the editor's `linkDialog` event (the screen opens its dialog).
 * The key goes no further, so the app's quick-find palette does not open too; elsewhere it opens as usual.
 */
export const LinkKeys = Extension.create({
  name: 'linkKeys',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        props: {
          handleKeyDown(_view, event) {
            if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'k') return false;
            const at = linkAt(editor);
            if (!at) return false;
            event.stopPropagation();
            (editor as unknown as { emit(e: string, a: LinkAt): void }).emit('linkDialog', at);
            return true;
          },
        },
      }),
    ];
  },
});
