import { useContext, useId, useState } from 'react';
import { changesApi } from '../../api/changes.ts';
import { Compose, DiscussionContext, Thread } from './Comments.tsx';

/**
 * The comments on one block of a page of the change request (`target.page` and `target.node`): a count, their
 * threads under the block, and "Comment on this block" (`POST …/comments` with `page` and `node`).
 */
export function BlockComments({ page, node }: { page: string; node: string }) {
  const d = useContext(DiscussionContext);
  const [open, setOpen] = useState(false);
  const formId = useId();
  if (!d) return null;
  const threads = d.comments?.filter((c) => c.target.page?.id === page && c.target.node?.id === node) ?? [];
  return (
    <div className="cr-block-comments">
      <div className="cr-actions">
        <button type="button" aria-expanded={open} aria-controls={formId} onClick={() => setOpen(!open)}>
          Comment on this block
        </button>
        {threads.length > 0 && (
          <span className="cr-badge">
            {threads.length} comment{threads.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {open && (
        <div id={formId}>
          <Compose
            label="Your comment on this block"
            submitLabel="Comment on the block"
            focus
            onSubmit={(md) => changesApi.comment(d.space, d.cr.id, md, { page, node })}
            onDone={() => {
              setOpen(false);
              d.reload();
            }}
            onCancel={() => setOpen(false)}
          />
        </div>
      )}
      {threads.length > 0 && (
        <ul className="cr-comments" aria-label="Comments on this block">
          {threads.map((c) => (
            <Thread key={c.id} discussion={d} comment={c} />
          ))}
        </ul>
      )}
    </div>
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
    d.comments?.filter((c) => c.target.page?.id === page && c.target.node && !drawn.has(c.target.node.id)) ?? [];
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
