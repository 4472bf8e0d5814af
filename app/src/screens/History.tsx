import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/endpoints.ts';
import { type RevisionChanges, type SpaceRevision, settingsApi } from '../api/settings.ts';
import { type Loaded, useLoad, usePaged } from '../api/use.ts';
import { authorOf, kindOf } from './history-kind.ts';

type Change = RevisionChanges['changes'][number];

/** One change of a revision, in words ("Page edited: Install"). */
function describe(c: Change): string {
  switch (c.type) {
    case 'page_created':
      return `Page added: ${c.page.title}`;
    case 'page_edited':
      return `Page edited: ${c.page.title}`;
    case 'page_deleted':
      return `Page deleted: ${c.page.title}`;
    case 'page_moved':
      return `Page moved: ${c.page.title}`;
    case 'file_created':
      return `File added: ${c.file.name}`;
    case 'file_edited':
      return `File changed: ${c.file.name}`;
    case 'file_deleted':
      return `File removed: ${c.file.name}`;
  }
}

/**
 * `/o/{org}/s/{space}/~/history`: the space's history, every revision that was its content (Quire-only
 * `listRevisionsInSpace`), newest first, 20 at a time ("Show older revisions"), each with what made it, when and who;
 * opening one loads what it changed (`getRevisionSemanticChanges`: against the revision before it) and links to its
 * screen (its pages as they were then).
 */
export default function History({ org, space }: { org: string; space: string }) {
  const s = useLoad(() => api.space(space), `history-space:${space}`);
  const list = usePaged((page) => settingsApi.revisions(space, page), `history:${space}`);
  const error = list.first.error ?? s.error;
  return (
    <section className="settings">
      <nav aria-label="Space" className="settings-nav">
        <Link href={`/o/${org}/s/${space}`}>← Back to the space</Link>
      </nav>
      <h1>{s.data ? `History of ${s.data.title || 'Untitled space'}` : 'History'}</h1>
      <p className="muted">
        Every change of the space's content, newest first: change requests merged, Git syncs, imports and edits through
        the API. Open one to see what it changed.
      </p>
      {error && <p role="alert">{error.message}</p>}
      <p aria-live="polite" className="muted">
        {list.first.loading && !list.first.data
          ? 'Loading the history…'
          : `${list.items.length} of ${list.count ?? 0} revision${list.count === 1 ? '' : 's'} shown`}
      </p>
      <ul className="settings-list" aria-label="Revisions">
        {list.items.map((r) => (
          <Entry key={r.id} revision={r} org={org} space={space} />
        ))}
      </ul>
      {list.hasMore && (
        <button type="button" onClick={list.loadMore} disabled={list.busy}>
          Show older revisions
        </button>
      )}
      {list.error && <p role="alert">{list.error}</p>}
    </section>
  );
}

function Entry({ revision: r, org, space }: { revision: SpaceRevision; org: string; space: string }) {
  const [open, setOpen] = useState(false);
  const title = kindOf(r);
  const author = authorOf(r);
  const cr = r.mergedFrom;
  return (
    <li>
      <details className="who" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <strong>{title}</strong>{' '}
          <span className="muted">
            <time dateTime={r.createdAt}>{new Date(r.createdAt).toLocaleString()}</time>
            {author ? `, by ${author}` : ''}
          </span>
        </summary>
        <p>
          <Link href={`/o/${org}/s/${space}/~/revisions/${r.id}`}>Open this revision and its pages</Link>
          {cr && (
            <>
              {' · '}
              <Link href={`/o/${org}/s/${space}/~/changes/${cr.number}`}>Open change request #{cr.number}</Link>
            </>
          )}
        </p>
        {open && <Changes space={space} revision={r.id} title={title} />}
      </details>
    </li>
  );
}

export function Changes({ space, revision, title }: { space: string; revision: string; title: string }) {
  const c = useLoad(() => settingsApi.revisionChanges(space, revision), `changes:${revision}`);
  return <ChangeList loaded={c} title={title} />;
}

/** What a revision changed, once loaded (the revision screen loads it itself, for the change request it names). */
export function ChangeList({ loaded: c, title }: { loaded: Loaded<RevisionChanges>; title: string }) {
  if (c.error) return <p role="alert">{c.error.message}</p>;
  if (!c.data) return <p aria-live="polite">Loading what changed…</p>;
  return (
    <ul aria-label={`What ${title} changed`}>
      {c.data.changes.length === 0 && <li>No page or file changed.</li>}
      {c.data.changes.map((ch) => (
        <li key={`${ch.type}:${'page' in ch ? ch.page.id : ch.file.id}`}>{describe(ch)}</li>
      ))}
      {c.data.more ? <li>and {c.data.more} more</li> : null}
    </ul>
  );
}
