import { type FormEvent, useId, useState } from 'react';
import { type ChangeRequest, type Comment, changesApi } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';

/** The comments of a change request, oldest first, with their replies; post, reply, resolve and reopen. */
export function Comments({ space, cr, onChange }: { space: string; cr: ChangeRequest; onChange(): void }) {
  const comments = useLoad(() => changesApi.comments(space, cr.id), cr.id);
  const reload = () => {
    comments.reload();
    onChange();
  };
  return (
    <section aria-labelledby="cr-comments-h">
      <h2 id="cr-comments-h">Comments</h2>
      {comments.error && <p role="alert">{comments.error.message}</p>}
      {comments.data?.length === 0 && <p className="muted">No comment yet.</p>}
      <ul className="cr-comments">
        {comments.data?.map((c) => (
          <CommentItem key={c.id} space={space} cr={cr} comment={c} onChange={reload} />
        ))}
      </ul>
      <Compose
        label="New comment"
        submitLabel="Comment"
        onSubmit={(md) => changesApi.comment(space, cr.id, md)}
        onDone={reload}
      />
    </section>
  );
}

const bodyText = (b: Comment['body']) => ('markdown' in b ? (b.markdown as string) : '');

function CommentItem(props: { space: string; cr: ChangeRequest; comment: Comment; onChange(): void }) {
  const { space, cr, comment: c } = props;
  const replies = useLoad(
    () => (c.replies > 0 ? changesApi.replies(space, cr.id, c.id) : Promise.resolve([])),
    `${c.id}:${c.replies}`,
  );
  const action = useAction();
  const resolved = c.status === 'resolved';
  const toggle = async () => {
    if (await action.run(() => changesApi.resolve(space, cr.id, c.id, !resolved))) props.onChange();
  };
  return (
    <li className={`cr-comment${resolved ? ' resolved' : ''}`}>
      <article aria-label={`Comment by ${c.postedBy.displayName}`}>
        <p className="muted">
          <strong>{c.postedBy.displayName}</strong> {new Date(c.postedAt).toLocaleString()}
          {c.target.page && ` · on “${c.target.page.title}”`}
          {resolved && ` · resolved${c.resolvedBy ? ` by ${c.resolvedBy.displayName}` : ''}`}
        </p>
        <p className="cr-text">{bodyText(c.body)}</p>
        {replies.data && replies.data.length > 0 && (
          <ul className="cr-replies" aria-label="Replies">
            {replies.data.map((r) => (
              <li key={r.id}>
                <p className="muted">
                  <strong>{r.postedBy.displayName}</strong> {new Date(r.postedAt).toLocaleString()}
                </p>
                <p className="cr-text">{bodyText(r.body)}</p>
              </li>
            ))}
          </ul>
        )}
        <div className="cr-actions">
          {c.permissions.reply && !resolved && (
            <Compose
              label={`Reply to ${c.postedBy.displayName}`}
              submitLabel="Reply"
              onSubmit={(md) => changesApi.reply(space, cr.id, c.id, md)}
              onDone={() => {
                replies.reload();
                props.onChange();
              }}
            />
          )}
          {c.permissions.reply && (
            <button type="button" disabled={action.busy} onClick={toggle}>
              {resolved ? 'Reopen' : 'Resolve'} the comment of {c.postedBy.displayName}
            </button>
          )}
        </div>
        {action.error && <p role="alert">{action.error}</p>}
      </article>
    </li>
  );
}

function Compose(props: {
  label: string;
  submitLabel: string;
  onSubmit(markdown: string): Promise<unknown>;
  onDone(): void;
}) {
  const [text, setText] = useState('');
  const action = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if (await action.run(() => props.onSubmit(text))) {
      setText('');
      props.onDone();
    }
  };
  return (
    <form onSubmit={submit} className="cr-form">
      <label htmlFor={id}>{props.label}</label>
      <textarea id={id} value={text} maxLength={10_000} rows={2} required onChange={(e) => setText(e.target.value)} />
      <button type="submit" disabled={action.busy || !text.trim()}>
        {props.submitLabel}
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
