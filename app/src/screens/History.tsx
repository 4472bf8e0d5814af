import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/endpoints.ts';
import { type MergedChangeRequest, type RevisionChanges, settingsApi } from '../api/settings.ts';
import { useLoad } from '../api/use.ts';

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
 * `/o/{org}/s/{space}/~/history`: the space's history. `/v1` has no list of a space's revisions, so the history
 * is its merged change requests, newest first, each with what its merge changed (`getRevisionSemanticChanges` of
 * the revision the merge made). Edits made without a change request (Git sync, imports, the API) are not listed.
 */
export default function History({ org, space }: { org: string; space: string }) {
  const s = useLoad(() => api.space(space), `history-space:${space}`);
  const merged = useLoad(() => settingsApi.mergedChangeRequests(space), `history:${space}`);
  const rows = [...(merged.data ?? [])].sort((a, b) => (b.mergedAt ?? '').localeCompare(a.mergedAt ?? ''));
  return (
    <section className="settings">
      <nav aria-label="Space" className="settings-nav">
        <Link href={`/o/${org}/s/${space}`}>← Back to the space</Link>
      </nav>
      <h1>{s.data ? `History of ${s.data.title || 'Untitled space'}` : 'History'}</h1>
      <p className="muted">
        The change requests merged into the space, newest first. Changes made without a change request (Git sync,
        imports, the API) are not listed.
      </p>
      {(merged.error ?? s.error) && <p role="alert">{(merged.error ?? s.error)?.message}</p>}
      {merged.data?.length === 0 && <p>No change request has been merged yet.</p>}
      <ul className="settings-list" aria-label="Merged change requests">
        {rows.map((cr) => (
          <Entry key={cr.id} cr={cr} org={org} space={space} />
        ))}
      </ul>
    </section>
  );
}

function Entry({ cr, org, space }: { cr: MergedChangeRequest; org: string; space: string }) {
  const [open, setOpen] = useState(false);
  const title = cr.subject || `Change request #${cr.number}`;
  return (
    <li>
      <details className="who" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <strong>{title}</strong>{' '}
          <span className="muted">
            #{cr.number}, merged {cr.mergedAt ? new Date(cr.mergedAt).toLocaleString() : ''}
            {cr.createdBy?.displayName ? `, by ${cr.createdBy.displayName}` : ''}
          </span>
        </summary>
        <p>
          <Link href={`/o/${org}/s/${space}/~/changes/${cr.number}`}>Open #{cr.number}</Link>
        </p>
        {open && cr.revisionMerged && <Changes space={space} revision={cr.revisionMerged} title={title} />}
      </details>
    </li>
  );
}

function Changes({ space, revision, title }: { space: string; revision: string; title: string }) {
  const c = useLoad(() => settingsApi.revisionChanges(space, revision), `changes:${revision}`);
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
