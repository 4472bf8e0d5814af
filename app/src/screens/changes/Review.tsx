import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { type ChangeRequest, changesApi, type MergeResult } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { Comments, type Discussion, DiscussionContext } from './Comments.tsx';
import { Changes } from './Diff.tsx';
import { Reviews } from './Reviews.tsx';
import './changes.css';

interface Props {
  org: string;
  space: string;
  /** The change request's number (or id). */
  changeRequest: string;
}

/** How often an open review asks for what others did. */
const LIVE_REVIEW = { live: true, every: 15_000 };

/**
 * One change request, for review: its subject (renamed in place), who edited it, what it changes page by page and
 * block by block, its reviewers and reviews, its comments (with reactions), and the merge with the merge rules in
 * force shown before the button.
 */
export default function ChangeReview({ org, space, changeRequest }: Props) {
  // Kept current while open: other members' reviews, comments and edits (a new revision redraws the diff).
  const cr = useLoad(() => changesApi.get(space, changeRequest), `${space}:${changeRequest}`, LIVE_REVIEW);
  const id = cr.data?.id;
  const comments = useLoad(
    () => (id ? changesApi.comments(space, id) : Promise.resolve(undefined)),
    `${id}`,
    LIVE_REVIEW,
  );
  const base = `/o/${org}/s/${space}`;
  if (cr.error && !cr.data) return <p role="alert">{cr.error.message}</p>;
  const c = cr.data;
  if (!c) return <p aria-live="polite">Loading…</p>;
  const discussion: Discussion = {
    space,
    cr: c,
    comments: comments.data,
    error: comments.error,
    reload: () => {
      comments.reload();
      cr.reload();
    },
  };
  return (
    <DiscussionContext.Provider value={discussion}>
      <Screen org={org} space={space} base={base} cr={c} discussion={discussion} onChange={cr.reload} />
    </DiscussionContext.Provider>
  );
}

function Screen(props: {
  org: string;
  space: string;
  base: string;
  cr: ChangeRequest;
  discussion: Discussion;
  onChange(): void;
}) {
  const { org, space, base, cr: c, onChange } = props;
  return (
    <div className="changes">
      <nav aria-label="Breadcrumbs" className="crumbs">
        <Link href={base}>Space</Link> / <Link href={`${base}/~/changes`}>Change requests</Link> / #{c.number}
      </nav>
      <Header cr={c} space={space} onChange={onChange} />
      <p>
        <Link href={`${base}/~/changes/${c.number}`}>Open the pages of #{c.number}</Link>
      </p>
      <Contributors cr={c} space={space} />
      <MergePanel org={org} cr={c} space={space} onChange={onChange} />
      <section aria-labelledby="cr-changes-h">
        <h2 id="cr-changes-h">What changed</h2>
        <Changes org={org} space={space} cr={c} onChange={onChange} />
      </section>
      <Reviews org={org} space={space} cr={c} onChange={onChange} />
      <Comments discussion={props.discussion} />
    </div>
  );
}

const STATUS: Record<ChangeRequest['status'], string> = {
  draft: 'Draft',
  open: 'Open',
  archived: 'Archived',
  merged: 'Merged',
};

function Header({ cr, space, onChange }: { cr: ChangeRequest; space: string; onChange(): void }) {
  const [editing, setEditing] = useState(false);
  const [subject, setSubject] = useState(cr.subject);
  const action = useAction();
  const id = useId();
  const live = cr.status === 'open' || cr.status === 'draft';
  const field = useRef<HTMLInputElement>(null);
  // "Rename" asked for the field: it takes the focus once shown.
  useEffect(() => {
    if (editing) field.current?.focus();
  }, [editing]);
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (await action.run(() => changesApi.rename(space, cr.id, subject.trim()))) {
      setEditing(false);
      onChange();
    }
  };
  const setStatus = async (status: 'open' | 'archived') => {
    if (await action.run(() => changesApi.setStatus(space, cr.id, status))) onChange();
  };
  return (
    <header className="cr-head">
      {editing ? (
        <form onSubmit={rename} className="create">
          <label htmlFor={id}>Subject of #{cr.number}</label>
          <input id={id} value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} ref={field} />
          <button type="submit" disabled={action.busy}>
            Save subject
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <h1>
          #{cr.number} {cr.subject || 'Untitled'}
        </h1>
      )}
      <p className="muted">
        <span className={`cr-badge cr-status-${cr.status}`}>{STATUS[cr.status]}</span> Opened by{' '}
        {cr.createdBy.displayName} on {new Date(cr.createdAt).toLocaleString()}
        {cr.mergedBy &&
          cr.mergedAt &&
          `; merged by ${cr.mergedBy.displayName} on ${new Date(cr.mergedAt).toLocaleString()}`}
      </p>
      {live && (
        <div className="cr-actions">
          {!editing && (
            <button
              type="button"
              onClick={() => {
                setSubject(cr.subject);
                setEditing(true);
              }}
            >
              Rename #{cr.number}
            </button>
          )}
          <button type="button" className="danger" disabled={action.busy} onClick={() => setStatus('archived')}>
            Archive #{cr.number}
          </button>
        </div>
      )}
      {cr.status === 'archived' && (
        <button type="button" disabled={action.busy} onClick={() => setStatus('open')}>
          Reopen #{cr.number}
        </button>
      )}
      {action.error && <p role="alert">{action.error}</p>}
    </header>
  );
}

/**
 * Who edited the content of the change request (`getContributorsByChangeRequestId`), first contributor first, with
 * how many of its revisions each wrote and when last; loaded again with each new revision of the change request (an
 * edit, by the user or another member, seen by the review's reload).
 */
function Contributors({ cr, space }: { cr: ChangeRequest; space: string }) {
  const list = useLoad(() => changesApi.contributors(space, cr.id), `contributors:${cr.id}:${cr.revision}`);
  return (
    <section aria-labelledby="cr-contributors-h">
      <h2 id="cr-contributors-h">Contributors</h2>
      {list.error && <p role="alert">{list.error.message}</p>}
      {!list.data && !list.error && <p aria-live="polite">Loading the contributors…</p>}
      {list.data?.length === 0 && <p className="muted">Nobody has edited the content yet.</p>}
      {list.data && list.data.length > 0 && (
        <ul className="cr-contributors" aria-label={`Contributors of #${cr.number}`}>
          {list.data.map((c) => (
            <li key={c.user.id}>
              {c.user.photoURL && <img src={c.user.photoURL} alt="" />}
              <span>
                <strong>{c.user.displayName}</strong>{' '}
                <span className="muted">
                  {c.count} edit{c.count === 1 ? '' : 's'}, last on{' '}
                  <time dateTime={c.updatedAt}>{new Date(c.updatedAt).toLocaleString()}</time>
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The merge: the rules in force (from `GET …/change-requests/{cr}`'s `mergeRules`), update from main, merge. */
function MergePanel(props: { org: string; cr: ChangeRequest; space: string; onChange(): void }) {
  const { cr, space, onChange } = props;
  const action = useAction();
  const members = useLoad(() => changesApi.members(props.org).catch(() => []), props.org);
  /** A rule's sentence names users by id (`…`): their names when the caller can list the members. */
  const named = (message: string) =>
    message.replace(
      /`([^`]+)`/g,
      (all, id: string) => members.data?.find((m) => m.user.id === id)?.user.displayName ?? all,
    );
  const [result, setResult] = useState<{ what: 'merge' | 'update'; r: MergeResult }>();
  // Once merged the panel goes; the merge's answer stays said.
  if (cr.status === 'merged' || cr.status === 'archived')
    return result ? (
      <div role="status">
        <ResultLine {...result} />
      </div>
    ) : null;
  const rules = cr.mergeRules;
  const unmet = rules?.rules.filter((r) => !r.satisfied) ?? [];
  const run = async (what: 'merge' | 'update') => {
    setResult(undefined);
    const r = await action.run(() =>
      what === 'merge' ? changesApi.merge(space, cr.id) : changesApi.updateFromMain(space, cr.id),
    );
    if (r) setResult({ what, r });
    onChange();
  };
  return (
    <section aria-labelledby="cr-merge-h" className="cr-merge">
      <h2 id="cr-merge-h">Merge</h2>
      {rules && rules.type === 'rules' && (
        <>
          <p>Merge rules of the {rules.source}:</p>
          <ul className="cr-rules">
            {rules.rules.map((r) => (
              <li key={r.rule} className={r.satisfied ? 'met' : 'unmet'}>
                <span aria-hidden="true">{r.satisfied ? '✓' : '✗'}</span>
                <span className="sr-only">{r.satisfied ? 'Met' : 'Not met'}: </span> {named(r.message)}
              </li>
            ))}
          </ul>
          {rules.bypass && unmet.length > 0 && <p>You may merge anyway: a rule lets you bypass the others.</p>}
        </>
      )}
      {cr.outdated && <p>The main content has changed since this change request was created or last updated.</p>}
      {cr.conflicting && (
        <p role="alert">
          This change request conflicts with the main content.{' '}
          {cr.outdated
            ? 'Update it from main: the conflicting pages then hold both versions in a conflict block, marked “Conflict” below.'
            : 'The pages marked “Conflict” below hold both versions in a conflict block: keep one version of each (the buttons under each conflict), then merge.'}
        </p>
      )}
      <div className="cr-actions">
        <button type="button" disabled={action.busy} onClick={() => run('update')}>
          Update #{cr.number} from main
        </button>
        <button
          type="button"
          className="primary"
          disabled={action.busy || (rules ? !rules.mergeable : false)}
          onClick={() => run('merge')}
        >
          Merge #{cr.number}
        </button>
      </div>
      {rules && !rules.mergeable && <p className="muted">The merge rules above must be met first.</p>}
      <div aria-live="polite">
        {result && <ResultLine {...result} />}
        {action.error && <p role="alert">{action.error}</p>}
      </div>
    </section>
  );
}

function ResultLine({ what, r }: { what: 'merge' | 'update'; r: MergeResult }) {
  if (r.result === 'conflicts')
    return (
      <p role="alert">
        {what === 'merge'
          ? 'Not merged: the change request conflicts with the main content. Update it from main to see the conflicts.'
          : 'Updated, with conflicts: the pages marked “Conflict” hold both versions.'}
      </p>
    );
  return <p>{what === 'merge' ? 'Merged into the main content.' : 'Updated from the main content.'}</p>;
}
