import { type ReactNode, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { changesApi, type Comment } from '../../api/changes.ts';
import { type Node, textOf } from '../../render/node.ts';
import { type Anchor, anchorsOf, topOf } from './anchors.ts';
import { anchorOfSelection, leafAt, offsetIn, within } from './marks.ts';
import { Compose, DiscussionContext, Thread } from './Comments.tsx';

/** Text selected in a block: the block (or nested block) it is in, the text and where it starts in that block. */
interface Selected {
  anchor: Anchor;
  text: string;
  offset: number;
}

/** The comments of a change request on a top-level block (`node`), whatever part of it they are on. */
export const commentsOnBlock = (comments: readonly Comment[] | undefined, page: string, node: string) =>
  comments?.filter((c) => c.target.page?.id === page && c.target.node && topOf(c.target.node.id) === node) ?? [];

/**
 * The text selected in `container` (the block drawn, its leaf blocks marked: marks.ts), as the anchor it is on, the
 * text and where it starts in that anchor's text; else undefined.
 */
function selectionIn(container: Element, anchors: readonly Anchor[]): Selected | undefined {
  const s = window.getSelection();
  if (!s || s.isCollapsed || !s.rangeCount) return undefined;
  const r = s.getRangeAt(0);
  if (!container.contains(r.commonAncestorContainer)) return undefined;
  const raw = r.toString();
  const text = raw.trim();
  if (!text) return undefined;
  const top = anchors[0]!;
  const leaf = (node: globalThis.Node, offset: number) => anchors[leafAt(container, node, offset) ?? -1] ?? top;
  const anchor = anchorOfSelection(
    anchors,
    leaf(r.startContainer, r.startOffset),
    leaf(r.endContainer, r.endOffset),
    text,
  );
  // where the selection starts, counted from the anchor's first marker (its text as drawn), then found in its text
  const marker = anchors
    .map((a, i) => (within(a, anchor) ? container.querySelector(`span[data-leaf="${i}"]`) : null))
    .find(Boolean);
  let estimate = 0;
  if (marker) {
    const before = document.createRange();
    before.setStartAfter(marker);
    if (before.comparePoint(r.startContainer, r.startOffset) >= 0) {
      before.setEnd(r.startContainer, r.startOffset);
      estimate = before.toString().length + (raw.length - raw.trimStart().length);
    }
  }
  const offset = offsetIn(textOf(anchor.node), text, estimate);
  return { anchor, text: text.slice(0, 2000), offset };
}

/**
 * A top-level block of the change request's side of a page (`page`, its node id `node`), drawn by `children`, with
 * its comments: a count, their threads under the block (each saying the part and the text it is on), "Comment on
 * this block" (on the block or one of its nested blocks, chosen in the form) and, while text of the block is
 * selected, "Comment on the selection" (`POST …/comments` with `page`, `node` and Quire's `quote`).
 */
export function CommentableBlock(props: { page: string; node: string; block: Node; children: ReactNode }) {
  const { page, node, block } = props;
  const d = useContext(DiscussionContext);
  const [form, setForm] = useState<{ quote?: Selected }>();
  const [on, setOn] = useState(node);
  const [selected, setSelected] = useState<Selected>();
  const drawn = useRef<HTMLDivElement>(null);
  const formId = useId();
  const onId = useId();
  const anchors = useMemo(() => anchorsOf(block, node), [block, node]);
  useEffect(() => {
    const track = () => {
      const box = drawn.current;
      const now = box ? selectionIn(box, anchors) : undefined;
      setSelected((old) =>
        old?.text === now?.text && old?.offset === now?.offset && old?.anchor.id === now?.anchor.id ? old : now,
      );
    };
    document.addEventListener('selectionchange', track);
    return () => document.removeEventListener('selectionchange', track);
  }, [anchors]);
  if (!d) return <div className="cr-drawn">{props.children}</div>;
  const threads = commentsOnBlock(d.comments, page, node);
  const nameOf = (id: string) => anchors.find((a) => a.id === id)?.label;
  const close = () => {
    setForm(undefined);
    setOn(node);
  };
  const quote = form?.quote;
  return (
    <>
      <div className="cr-drawn" ref={drawn}>
        {props.children}
      </div>
      <div className="cr-block-comments">
        <div className="cr-actions">
          <button
            type="button"
            aria-expanded={Boolean(form && !quote)}
            aria-controls={formId}
            onClick={() => (form && !quote ? close() : setForm({}))}
          >
            Comment on this block
          </button>
          {selected && (
            <button
              type="button"
              // a click would take the selection away before it is read
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => setForm({ quote: selected })}
            >
              Comment on the selection
            </button>
          )}
          {threads.length > 0 && (
            <span className="cr-badge">
              {threads.length} comment{threads.length === 1 ? '' : 's'}
            </span>
          )}
        </div>
        {form && (
          <div id={formId} className="cr-block-form">
            {quote ? (
              <>
                <p className="muted">
                  On the text selected in {quote.anchor.depth ? `the ${quote.anchor.label}` : 'this block'}:
                </p>
                <blockquote className="cr-quote">{quote.text}</blockquote>
              </>
            ) : (
              anchors.length > 1 && (
                <p className="cr-on">
                  <label htmlFor={onId}>Comment on </label>
                  <select id={onId} value={on} onChange={(e) => setOn(e.target.value)}>
                    {anchors.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.depth ? `${'– '.repeat(a.depth)}${a.label}` : `The whole block (${a.label})`}
                      </option>
                    ))}
                  </select>
                </p>
              )
            )}
            <Compose
              key={quote ? `q:${quote.anchor.id}:${quote.offset}` : 'block'}
              label={quote ? 'Your comment on the selection' : 'Your comment on this block'}
              submitLabel={quote ? 'Comment on the selection' : 'Comment on the block'}
              focus
              onSubmit={(md) =>
                changesApi.comment(
                  d.space,
                  d.cr.id,
                  md,
                  quote
                    ? { page, node: quote.anchor.id, quote: { text: quote.text, offset: quote.offset } }
                    : { page, node: on },
                )
              }
              onDone={() => {
                close();
                window.getSelection()?.removeAllRanges();
                d.reload();
              }}
              onCancel={close}
            />
          </div>
        )}
        {threads.length > 0 && (
          <ul className="cr-comments" aria-label="Comments on this block">
            {threads.map((c) => (
              <Thread key={c.id} discussion={d} comment={c} part={nameOf(c.target.node!.id)} />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/**
 * The comments on blocks of a page that it no longer holds as they were (edited or removed since): under the page's
 * comparison, so that no thread is lost.
 */
export function EarlierBlockComments({ page, nodes }: { page: string; nodes: readonly string[] }) {
  const d = useContext(DiscussionContext);
  if (!d) return null;
  const drawn = new Set(nodes);
  const threads =
    d.comments?.filter((c) => c.target.page?.id === page && c.target.node && !drawn.has(topOf(c.target.node.id))) ?? [];
  if (!threads.length) return null;
  return (
    <section aria-label="Comments on blocks changed since">
      <h4>Comments on blocks changed since</h4>
      <ul className="cr-comments">
        {threads.map((c) => (
          <Thread key={c.id} discussion={d} comment={c} />
        ))}
      </ul>
    </section>
  );
}
