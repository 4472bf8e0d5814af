import { createContext, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type ChangeRequest, type Comment, changesApi, type Reply } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Reactions } from './Reactions.tsx';

/**
 * The comments of a change request, loaded once by the review and shared by its "Comments" section and the blocks
 * of "What changed" (a comment on a block is drawn under the block). `reload` after any change to them.
 */
export interface Discussion {
  space: string;
  cr: ChangeRequest;
  comments: Comment[] | undefined;
  error: Error | undefined;
  reload(): void;
}

export const DiscussionContext = createContext<Discussion | undefined>(undefined);

/** The comments on the change request as a whole, oldest first, with their replies; and those on its blocks. */
export function Comments({ discussion: d }: { discussion: Discussion }) {
  const general = d.comments?.filter((c) => !c.target.node) ?? [];
  const onBlocks = d.comments?.filter((c) => c.target.node) ?? [];
  return (
    <section aria-labelledby="cr-comments-h">
      <h2 id="cr-comments-h">Comments</h2>
      {d.error && <p role="alert">{d.error.message}</p>}
      {d.comments?.length === 0 && <p className="muted">No comment yet.</p>}
      <ul className="cr-comments">
        {general.map((c) => (
          <Thread key={c.id} discussion={d} comment={c} />
        ))}
      </ul>
      {onBlocks.length > 0 && (
        <>
          <h3>On blocks</h3>
          <p className="muted">Their threads are under their blocks, in “What changed”.</p>
          <ul className="cr-comments" aria-label="Comments on blocks">
            {onBlocks.map((c) => (
              <li key={c.id} className={`cr-comment${c.status === 'resolved' ? ' resolved' : ''}`}>
                <p className="muted">
                  <strong>{c.postedBy.displayName}</strong> on a block of “{c.target.page?.title ?? 'a page'}”
                  {c.replies > 0 && ` · ${c.replies} repl${c.replies === 1 ? 'y' : 'ies'}`}
                  {c.status === 'resolved' && ' · resolved'}
                </p>
                {c.target.quote && <Quote text={c.target.quote.text} />}
                <p className="cr-text">{bodyText(c.body)}</p>
              </li>
            ))}
          </ul>
        </>
      )}
      <Compose
        label="New comment"
        submitLabel="Comment"
        onSubmit={(md) => changesApi.comment(d.space, d.cr.id, md)}
        onDone={d.reload}
      />
    </section>
  );
}

/** The text a comment is on (a selection), above its thread. */
const Quote = ({ text }: { text: string }) => (
  <blockquote className="cr-quote" aria-label="Quoted text">
    {text}
  </blockquote>
);

const bodyText = (b: Comment['body']) => ('markdown' in b ? (b.markdown as string) : '');
const when = (c: { postedAt: string; editedAt?: string | undefined }) =>
  `${new Date(c.postedAt).toLocaleString()}${c.editedAt ? ' (edited)' : ''}`;

/**
 * One comment with its replies: reply, resolve and reopen, react (to it and to each reply); its author edits it, its
 * author (or an admin) deletes it.
 */
export function Thread(props: {
  discussion: Discussion;
  comment: Comment;
  /** The part of the block it is on, when not the block itself ("List item “…”"). */
  part?: string | undefined;
}) {
  const { discussion: d, comment: c, part } = props;
  const { space, cr } = d;
  const replies = useLoad(
    () => (c.replies > 0 ? changesApi.replies(space, cr.id, c.id) : Promise.resolve([])),
    `${c.id}:${c.replies}`,
  );
  const action = useAction();
  const resolved = c.status === 'resolved';
  const toggle = async () => {
    if (await action.run(() => changesApi.resolve(space, cr.id, c.id, !resolved))) d.reload();
  };
  return (
    <li className={`cr-comment${resolved ? ' resolved' : ''}`}>
      <article aria-label={`Comment by ${c.postedBy.displayName}`}>
        <p className="muted">
          <strong>{c.postedBy.displayName}</strong> {when(c)}
          {c.target.page && !c.target.node && ` · on “${c.target.page.title}”`}
          {resolved && ` · resolved${c.resolvedBy ? ` by ${c.resolvedBy.displayName}` : ''}`}
          {part && c.target.node?.id.includes('/') && ` · on the ${part}`}
        </p>
        {c.target.quote && <Quote text={c.target.quote.text} />}
        <Editable
          what="comment"
          author={c.postedBy.displayName}
          item={c}
          onSave={(md) => changesApi.editComment(space, cr.id, c.id, md)}
          onDelete={() => changesApi.deleteComment(space, cr.id, c.id)}
          onDone={d.reload}
        />
        <Reactions
          reactions={c.reactions}
          canReact={c.permissions.reply}
          of={`comment of ${c.postedBy.displayName}`}
          react={(change) => changesApi.reactToComment(space, cr.id, c.id, change)}
          onDone={d.reload}
        />
        {replies.data && replies.data.length > 0 && (
          <ul className="cr-replies" aria-label="Replies">
            {replies.data.map((r) => (
              <ReplyItem key={r.id} discussion={d} comment={c} reply={r} onChange={replies.reload} />
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
                d.reload();
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

function ReplyItem(props: { discussion: Discussion; comment: Comment; reply: Reply; onChange(): void }) {
  const { discussion: d, comment: c, reply: r } = props;
  return (
    <li>
      <article aria-label={`Reply by ${r.postedBy.displayName}`}>
        <p className="muted">
          <strong>{r.postedBy.displayName}</strong> {when(r)}
        </p>
        <Editable
          what="reply"
          author={r.postedBy.displayName}
          item={r}
          onSave={(md) => changesApi.editReply(d.space, d.cr.id, c.id, r.id, md)}
          onDelete={() => changesApi.deleteReply(d.space, d.cr.id, c.id, r.id)}
          onDone={() => {
            props.onChange();
            d.reload();
          }}
        />
        <Reactions
          reactions={r.reactions}
          canReact={r.permissions.reply}
          of={`reply of ${r.postedBy.displayName}`}
          react={(change) => changesApi.reactToReply(d.space, d.cr.id, c.id, r.id, change)}
          onDone={props.onChange}
        />
      </article>
    </li>
  );
}

/**
 * The text of a comment or reply, with "Edit your …" (its author: the text becomes a field, saved with
 * `PUT`) and "Delete the … of {author}" (asked once more before `DELETE`) when the API allows them.
 */
function Editable(props: {
  what: 'comment' | 'reply';
  author: string;
  item: Comment | Reply;
  onSave(markdown: string): Promise<unknown>;
  onDelete(): Promise<unknown>;
  onDone(): void;
}) {
  const { what, item } = props;
  const [mode, setMode] = useState<'read' | 'edit' | 'delete'>('read');
  const action = useAction();
  const remove = async () => {
    if ((await action.run(async () => (await props.onDelete(), true))) === true) {
      setMode('read');
      props.onDone();
    }
  };
  if (mode === 'edit')
    return (
      <Compose
        label={`Edit your ${what}`}
        submitLabel={`Save the ${what}`}
        initial={bodyText(item.body)}
        focus
        onSubmit={props.onSave}
        onDone={() => {
          setMode('read');
          props.onDone();
        }}
        onCancel={() => setMode('read')}
      />
    );
  return (
    <>
      <p className="cr-text">{bodyText(item.body)}</p>
      {mode === 'delete' ? (
        <fieldset className="cr-actions cr-confirm">
          <legend>Delete this {what === 'comment' ? 'comment and its replies' : 'reply'}?</legend>
          <button type="button" className="danger" disabled={action.busy} onClick={remove}>
            Yes, delete the {what}
          </button>
          <button type="button" onClick={() => setMode('read')}>
            Keep it
          </button>
        </fieldset>
      ) : (
        (item.permissions.edit || item.permissions.delete) && (
          <div className="cr-actions">
            {item.permissions.edit && (
              <button type="button" onClick={() => setMode('edit')}>
                Edit your {what}
              </button>
            )}
            {item.permissions.delete && (
              <button type="button" className="danger" onClick={() => setMode('delete')}>
                Delete the {what} of {props.author}
              </button>
            )}
          </div>
        )
      )}
      {action.error && <p role="alert">{action.error}</p>}
    </>
  );
}

/** A markdown field and its button: posts (then empties) or, given `initial`, saves an edit; `onCancel` adds Cancel. */
export function Compose(props: {
  label: string;
  submitLabel: string;
  initial?: string;
  /** Takes the focus when shown (it was asked for by a button). */
  focus?: boolean;
  onSubmit(markdown: string): Promise<unknown>;
  onDone(): void;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(props.initial ?? '');
  const action = useAction();
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when shown.
  useEffect(() => {
    if (props.focus) field.current?.focus();
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    if ((await action.run(async () => (await props.onSubmit(text), true))) === true) {
      setText('');
      props.onDone();
    }
  };
  return (
    <form onSubmit={submit} className="cr-form">
      <label htmlFor={id}>{props.label}</label>
      <textarea
        id={id}
        ref={field}
        value={text}
        maxLength={10_000}
        rows={2}
        required
        onChange={(e) => setText(e.target.value)}
      />
      <div className="cr-actions">
        <button type="submit" disabled={action.busy || !text.trim()}>
          {props.submitLabel}
        </button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
