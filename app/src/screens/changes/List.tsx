import { useState } from 'react';
import { Link } from 'wouter';
import { type ChangeRequestStatus, changesApi } from '../../api/changes.ts';
import { useLoad } from '../../api/use.ts';
import './changes.css';

type Status = NonNullable<ChangeRequestStatus>;
const TABS: { status: Status; label: string }[] = [
  { status: 'open', label: 'Open' },
  { status: 'merged', label: 'Merged' },
  { status: 'archived', label: 'Archived' },
];

/** The change requests of a status; "open" lists drafts too (a change request is a draft until review is asked). */
async function listOf(space: string, status: Status) {
  if (status !== 'open') return changesApi.list(space, status);
  const [open, drafts] = await Promise.all([changesApi.list(space, 'open'), changesApi.list(space, 'draft')]);
  return [...open, ...drafts].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** The change requests of a space (`GET /spaces/{id}/change-requests?status=…`), newest first, one status at a time. */
export default function ChangesList({ org, space }: { org: string; space: string }) {
  const [status, setStatus] = useState<Status>('open');
  const list = useLoad(() => listOf(space, status), `${space}:${status}`, { live: true, every: 30_000 });
  const base = `/o/${org}/s/${space}`;
  return (
    <div className="changes">
      <p>
        <Link href={base}>← Back to the space</Link>
      </p>
      <h1>Change requests</h1>
      <fieldset className="cr-tabs">
        <legend className="sr-only">Show change requests that are</legend>
        {TABS.map((t) => (
          <button key={t.status} type="button" aria-pressed={status === t.status} onClick={() => setStatus(t.status)}>
            {t.label}
          </button>
        ))}
      </fieldset>
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.loading && !list.data && <p aria-live="polite">Loading…</p>}
      {list.data && (
        <>
          <p className="muted" aria-live="polite">
            {list.data.length === 0
              ? `No ${TABS.find((t) => t.status === status)?.label.toLowerCase()} change requests.`
              : `${list.data.length} change request${list.data.length === 1 ? '' : 's'}`}
          </p>
          <ul className="cr-list">
            {list.data.map((cr) => (
              <li key={cr.id}>
                <Link href={`${base}/~/changes/${cr.number}/~/review`}>
                  #{cr.number} {cr.subject || 'Untitled'}
                </Link>
                {cr.status === 'draft' && <span className="cr-badge"> Draft</span>}
                <span className="muted">
                  {' '}
                  by {cr.createdBy.displayName}, {new Date(cr.updatedAt).toLocaleString()}
                  {cr.comments > 0 && ` · ${cr.comments} open comment${cr.comments === 1 ? '' : 's'}`}
                  {cr.conflicting && ' · conflicts'}
                  {cr.outdated && cr.status !== 'merged' && ' · behind main'}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
