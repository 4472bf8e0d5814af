// Comments in the editor (issue 40): while a page of a change request is edited, the writer comments on the
// top-level block holding the caret ("Comment", Ctrl/⌘-Alt-M), with the text selected in it as the quote; blocks
// with open comments carry a marker (a button opening their threads). The comments are the change request's, made
// and read through /v1 as on the review screen, and name a block as the review does (`nodeIdsOf`), so a comment
// made here is under its block in the review and the other way round.
import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { editorToDocument } from '@quire/document/editor';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { changesApi } from '../api/changes.ts';
import { markerDecorations, markersKey, storageOf } from './comment-markers.ts';
import { useLoad } from '../api/use.ts';
import type { Node } from '../render/node.ts';
import { anchorsOf, labelOf, textAnchorOf, topOf } from '../screens/changes/anchors.ts';
import { nodeIdsOf } from '../screens/changes/blocks.ts';
import { Compose, type Discussion, Thread } from '../screens/changes/Comments.tsx';
import '../screens/changes/changes.css';

/** The top-level blocks of the editor's document as GitBook's blocks (keys are left out of their ids). */
const blocksOf = (editor: Editor): Node[] => (editorToDocument(editor.getJSON() as never).nodes ?? []) as Node[];

/** Where the top-level block `index` starts in the editor's document. */
function startOf(state: EditorState, index: number): number {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += state.doc.child(i).nodeSize;
  return pos;
}

/**
 * The block a comment goes on: the top-level block's index and id (`top`), the id and name of the block itself
 * (a nested one when the caret is in one the review can name), and the text selected in it (if any) and where.
 */
interface At {
  index: number;
  top: string;
  id: string;
  label: string;
  /** The top-level block's name, for a nested block. */
  within?: string | undefined;
  quote?: { text: string; offset: number } | undefined;
}

/** The block of the caret (the selection's start): the paragraph in a hint or a list item, else its top-level block. */
function caretAt(editor: Editor): At | undefined {
  const { state } = editor;
  const { from, to, $from } = state.selection;
  if (state.doc.childCount === 0) return undefined;
  const index = Math.min($from.index(0), state.doc.childCount - 1);
  const blocks = blocksOf(editor);
  const ids = nodeIdsOf(blocks);
  const top = blocks[index];
  const start = startOf(state, index);
  const end = start + state.doc.child(index).nodeSize;
  // a paragraph nested in the block: found by its text and how many of the same text come before it there
  let nested: ReturnType<typeof textAnchorOf>;
  if (top && $from.depth > 1 && $from.parent.isTextblock) {
    const text = $from.parent.textContent;
    const here = $from.before();
    let rank = 0;
    state.doc.nodesBetween(start, here, (n, pos) => {
      if (pos < here && n.isTextblock && n.textContent === text) rank++;
    });
    nested = textAnchorOf(top, ids[index]!, text, rank);
  }
  const blockStart = nested ? $from.start() : start;
  const blockEnd = nested ? $from.end() : end;
  const raw = to > from ? state.doc.textBetween(from, Math.min(to, blockEnd), ' ', ' ') : '';
  const text = raw.trim();
  const quote = text
    ? {
        text: text.slice(0, 2000),
        offset: state.doc.textBetween(blockStart, from, '', '').length + (raw.length - raw.trimStart().length),
      }
    : undefined;
  const topLabel = top ? labelOf(top) : 'Block';
  return nested
    ? { index, top: ids[index]!, id: nested.id, label: nested.label, within: topLabel, quote }
    : { index, top: ids[index]!, id: ids[index]!, label: topLabel, quote };
}

/** The names of the nested blocks of the top-level block of `at`, by id. */
function partsOf(editor: Editor, at: At): Map<string, string> {
  const block = blocksOf(editor)[at.index];
  return new Map(block ? anchorsOf(block, at.top).map((a) => [a.id, a.label]) : []);
}

export interface EditorCommentsProps {
  space: string;
  /** The change request edited (its number); without one there is nothing to comment in yet. */
  changeRequest: string | undefined;
  page: string;
  editor: Editor | undefined;
}

/**
 * The "Comment" action of the editor's bar, its keyboard shortcut, the markers of the blocks with open comments and
 * the panel of one block's threads.
 */
export function EditorComments({ space, changeRequest, page, editor }: EditorCommentsProps) {
  const cr = useLoad(
    () => (changeRequest ? changesApi.get(space, changeRequest) : Promise.resolve(undefined)),
    `${space}:${changeRequest ?? ''}`,
  );
  const comments = useLoad(
    () => (cr.data ? changesApi.comments(space, cr.data.id) : Promise.resolve([])),
    `${cr.data?.id ?? ''}`,
  );
  const [at, setAt] = useState<At>();
  const [ids, setIds] = useState<string[]>([]);
  const [notice, setNotice] = useState('');
  const openRef = useRef<(index?: number) => void>(() => {});

  /** The comments of this page per top-level block id (open ones only count for the markers). */
  const onPage = useMemo(
    () => (comments.data ?? []).filter((c) => c.target.page?.id === page && c.target.node),
    [comments.data, page],
  );

  // the blocks' ids, read again a moment after the text stops changing (not on each key)
  useEffect(() => {
    if (!editor) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      const now = nodeIdsOf(blocksOf(editor));
      setIds((old) => (old.length === now.length && old.every((id, i) => id === now[i]) ? old : now));
    };
    read();
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 800);
    };
    editor.on('update', later);
    return () => {
      clearTimeout(timer);
      editor.off('update', later);
    };
  }, [editor]);

  const open = useCallback(
    (wanted?: number) => {
      if (!editor) return;
      if (!changeRequest) {
        setNotice('Comments go in a change request: make a change first, then comment.');
        return;
      }
      setNotice('');
      const here = caretAt(editor);
      if (!here) return;
      if (wanted !== undefined && wanted !== here.index) {
        const blocks = blocksOf(editor);
        const all = nodeIdsOf(blocks);
        setAt({ index: wanted, top: all[wanted]!, id: all[wanted]!, label: labelOf(blocks[wanted]!) });
      } else setAt(here);
    },
    [editor, changeRequest],
  );
  openRef.current = open;

  // the shortcut of the editor's plugin opens the panel here
  useEffect(() => {
    if (!editor) return;
    const storage = storageOf(editor);
    storage.open = () => openRef.current();
    return () => {
      storage.open = undefined;
    };
  }, [editor]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const markers = new Map<number, number>();
    const index = new Map(ids.map((id, i) => [id, i]));
    for (const c of onPage) {
      const i = index.get(topOf(c.target.node!.id));
      if (i !== undefined && c.status === 'open') markers.set(i, (markers.get(i) ?? 0) + 1);
    }
    const set = markerDecorations(editor.state, markers, (i) => openRef.current(i));
    editor.view.dispatch(editor.state.tr.setMeta(markersKey, set).setMeta('addToHistory', false));
  }, [editor, ids, onPage]);

  const close = () => {
    setAt(undefined);
    editor?.commands.focus();
  };
  const discussion: Discussion | undefined = cr.data
    ? { space, cr: cr.data, comments: comments.data, error: comments.error, reload: comments.reload }
    : undefined;
  const threads = at ? onPage.filter((c) => topOf(c.target.node!.id) === at.top) : [];
  /** The names of the parts of the top-level block, for the threads on one of them. */
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again with the blocks' ids, not on each key
  const parts = useMemo(() => (at && editor ? partsOf(editor, at) : undefined), [at, editor, ids]);
  return (
    <>
      <button
        type="button"
        aria-keyshortcuts="Control+Alt+M Meta+Alt+M"
        title="Comment on the block of the cursor (Ctrl/⌘-Alt-M)"
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => open()}
      >
        Comment
      </button>
      {notice && !at && (
        <p className="muted comments-notice" role="status">
          {notice}
        </p>
      )}
      {at && discussion && (
        <section
          className="editor-comments"
          aria-label="Comments on the block"
          onKeyDown={(e) => e.key === 'Escape' && close()}
        >
          <h2>
            Comments on the {at.label}
            {at.within && <span className="muted"> (in the {at.within})</span>}
          </h2>
          {comments.error && <p role="alert">{comments.error.message}</p>}
          {threads.length > 0 ? (
            <ul className="cr-comments" aria-label="Comments on this block">
              {threads.map((c) => (
                <Thread key={c.id} discussion={discussion} comment={c} part={parts?.get(c.target.node!.id)} />
              ))}
            </ul>
          ) : (
            <p className="muted">No comment on this {at.within ? 'part of the ' : ''}block yet.</p>
          )}
          {at.quote && (
            <>
              <p className="muted">On the text selected:</p>
              <blockquote className="cr-quote">{at.quote.text}</blockquote>
            </>
          )}
          <Compose
            key={`${at.id}:${at.quote?.offset ?? ''}`}
            label={at.quote ? 'Your comment on the selection' : 'Your comment on this block'}
            submitLabel={at.quote ? 'Comment on the selection' : 'Comment on the block'}
            focus
            onSubmit={(md) =>
              changesApi.comment(space, discussion.cr.id, md, {
                page,
                node: at.id,
                ...(at.quote ? { quote: at.quote } : {}),
              })
            }
            onDone={() => {
              setAt((old) => old && { ...old, quote: undefined });
              comments.reload();
            }}
          />
          <button type="button" onClick={close}>
            Close the comments
          </button>
        </section>
      )}
    </>
  );
}
