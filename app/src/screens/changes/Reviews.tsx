import { type FormEvent, useId, useState } from 'react';
import { type ChangeRequest, changesApi, type Review } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';

interface Props {
  org: string;
  space: string;
  cr: ChangeRequest;
  onChange(): void;
}

/** Reviewers (requested, and requested now) and reviews (approve or request changes, with a comment). */
export function Reviews({ org, space, cr, onChange }: Props) {
  const key = `${cr.id}:${cr.revision}:${cr.updatedAt}`;
  const data = useLoad(
    async () => ({
      requested: await changesApi.requested(space, cr.id),
      reviews: await changesApi.reviews(space, cr.id),
      me: await changesApi.me(),
    }),
    key,
    { live: true, every: 15_000 },
  );
  const live = cr.status === 'open' || cr.status === 'draft';
  const reload = () => {
    data.reload();
    onChange();
  };
  return (
    <section aria-labelledby="cr-reviews-h">
      <h2 id="cr-reviews-h">Reviews</h2>
      {data.error && <p role="alert">{data.error.message}</p>}
      {data.data && (
        <>
          <Requested space={space} cr={cr} requested={data.data.requested} live={live} onChange={reload} />
          {live && <RequestReviewers org={org} space={space} cr={cr} onChange={reload} />}
          <ReviewList reviews={data.data.reviews} />
          {live && data.data.me.id !== cr.createdBy.id && <SubmitReview space={space} cr={cr} onChange={reload} />}
          {live && data.data.me.id === cr.createdBy.id && (
            <p className="muted">You opened this change request: another member reviews it.</p>
          )}
        </>
      )}
    </section>
  );
}

function Requested(props: {
  space: string;
  cr: ChangeRequest;
  requested: Awaited<ReturnType<typeof changesApi.requested>>;
  live: boolean;
  onChange(): void;
}) {
  const action = useAction();
  const { space, cr, requested } = props;
  if (requested.length === 0) return <p className="muted">No review is awaited.</p>;
  return (
    <>
      <h3>Awaiting a review from</h3>
      <ul>
        {requested.map((r) => (
          <li key={r.user.id}>
            {r.user.displayName}{' '}
            {props.live && (
              <button
                type="button"
                disabled={action.busy}
                onClick={async () => {
                  await action.run(() => changesApi.withdrawReviewer(space, cr.id, r.user.id));
                  props.onChange();
                }}
              >
                Withdraw the request to {r.user.displayName}
              </button>
            )}
          </li>
        ))}
      </ul>
      {action.error && <p role="alert">{action.error}</p>}
    </>
  );
}

/** Picks members of the organization (`GET /orgs/{id}/members`) and requests their review. */
function RequestReviewers({ org, space, cr, onChange }: Props) {
  const members = useLoad(() => changesApi.members(org), org);
  const [user, setUser] = useState('');
  const action = useAction();
  const id = useId();
  const others = (members.data ?? []).filter((m) => m.user.id !== cr.createdBy.id);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    if (await action.run(() => changesApi.requestReviewers(space, cr.id, [user]))) {
      setUser('');
      onChange();
    }
  };
  if (members.error)
    return <p className="muted">Requesting a review needs the list of members: {members.error.message}</p>;
  return (
    <form onSubmit={submit} className="create">
      <label htmlFor={id}>Request a review from</label>
      <select id={id} value={user} onChange={(e) => setUser(e.target.value)}>
        <option value="">Choose a member…</option>
        {others.map((m) => (
          <option key={m.user.id} value={m.user.id}>
            {m.user.displayName}
            {m.user.email ? ` (${m.user.email})` : ''}
          </option>
        ))}
      </select>
      <button type="submit" disabled={action.busy || !user}>
        Request review
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}

function ReviewList({ reviews }: { reviews: Review[] }) {
  if (reviews.length === 0) return <p className="muted">No review yet.</p>;
  return (
    <ul className="cr-reviews">
      {reviews.map((r) => (
        <li key={r.id}>
          <strong>{r.reviewer.displayName}</strong>{' '}
          <span className={`cr-badge cr-review-${r.status}`}>
            {r.status === 'approved' ? 'Approved' : 'Requested changes'}
          </span>{' '}
          <span className="muted">
            {new Date(r.createdAt).toLocaleString()}
            {r.outdated && ' · outdated'}
          </span>
          {r.commentMarkdown && <p className="cr-text">{r.commentMarkdown}</p>}
        </li>
      ))}
    </ul>
  );
}

function SubmitReview({ space, cr, onChange }: Omit<Props, 'org'>) {
  const [text, setText] = useState('');
  const action = useAction();
  const id = useId();
  const submit = async (status: Review['status']) => {
    if (await action.run(() => changesApi.review(space, cr.id, status, text))) {
      setText('');
      onChange();
    }
  };
  return (
    <form className="cr-form" onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id}>Review comment (optional)</label>
      <textarea id={id} value={text} maxLength={10_000} rows={3} onChange={(e) => setText(e.target.value)} />
      <div className="cr-actions">
        <button type="button" disabled={action.busy} onClick={() => submit('approved')}>
          Approve
        </button>
        <button type="button" disabled={action.busy} onClick={() => submit('changes-requested')}>
          Request changes
        </button>
      </div>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
