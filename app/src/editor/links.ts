// Links in the editor: the link at the selection, a web address checked before it becomes a link, setting and
// removing a link's target, and Ctrl/⌘-K on a selection or in a link (which opens the link dialog, not the app's
// quick-find palette).
import { type Editor, Extension, getMarkRange } from '@tiptap/core';
import { Plugin } from '@tiptap/pm/state';
import { fileNames, pageTitles, spaceTitles } from './uploads.ts';

/** A link's target (GitBook's `ref`): a URL, a page, a file, an anchor or a space here; others are kept as they are. */
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
  if (ref.kind === 'file' && !ref.space) return `the file ${fileNames.get(String(ref.file)) ?? ref.file}`;
  if (ref.kind === 'anchor' && !ref.space)
    return `the heading #${ref.anchor}${ref.page ? ` of the page ${pageTitles.get(String(ref.page)) ?? ref.page}` : ''}`;
  if (ref.kind === 'space') return `the space ${spaceTitles.get(String(ref.space)) ?? ref.space}`;
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

/** A heading a link can go to: its anchor (as the published page names it) and its text. */
export interface HeadingAnchor {
  anchor: string;
  title: string;
}

/**
 * A heading's text as GitHub (and the published site, `github-slugger`) makes it an anchor: lower case, punctuation
 * dropped, spaces made dashes. `Get started!` → `get-started`.
 */
export const slugOf = (text: string): string =>
  text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

type DocLike = {
  type?: string;
  object?: string;
  meta?: any;
  data?: any;
  nodes?: DocLike[];
  leaves?: { text?: string }[];
};
const textOf = (n: DocLike): string =>
  n.object === 'text' ? (n.leaves ?? []).map((l) => l.text ?? '').join('') : (n.nodes ?? []).map(textOf).join('');

/**
 * The headings of a GitBook document (the page's, or another page's read through /v1), in order, with the anchors
 * the published page gives them: the heading's `data.id` or `meta.id` when it has one, else its text made a slug;
 * a repeated anchor gets `-1`, `-2`…, as on the site. Headings without text are left out.
 */
export function headingsOf(document: DocLike | undefined): HeadingAnchor[] {
  const seen = new Map<string, number>();
  const out: HeadingAnchor[] = [];
  const visit = (node: DocLike) => {
    if (/^heading-[123]$/.test(node.type ?? '')) {
      const title = textOf(node).trim();
      const own = typeof node.data?.id === 'string' && node.data.id ? node.data.id : node.meta?.id;
      // github-slugger's counting: `a`, `a-1`, `a-2`…, each anchor given taken
      const first = slugOf(typeof own === 'string' && own ? own : title) || 'section';
      let anchor = first;
      while (seen.has(anchor)) {
        const n = seen.get(first)! + 1;
        seen.set(first, n);
        anchor = `${first}-${n}`;
      }
      seen.set(anchor, 0);
      if (title) out.push({ anchor, title });
      return;
    }
    for (const child of node.nodes ?? []) visit(child);
  };
  visit(document ?? {});
  return out;
}
