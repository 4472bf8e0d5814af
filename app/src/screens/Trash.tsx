import { useState } from 'react';
import { Link } from 'wouter';
import { api, type DeletedSpace } from '../api/endpoints.ts';
import { useAction, useLoad } from '../api/use.ts';

const DAY = 24 * 3600 * 1_000;

/** "3 days left" until the space is removed for good (rounded up: a space deleted now has 7). */
export function daysLeft(purgeAt: string, now = Date.now()): string {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY);
  return days > 1 ? `${days} days left` : days === 1 ? '1 day left' : 'less than a day left';
}

/**
 * The organization's trash (`/o/{org}/trash`): the deleted spaces the user may restore (`GET …/trash/spaces`), each
 * with when and by whom it was deleted and the days left before it is removed for good, and its Restore button.
 */
export default function Trash({ org }: { org: string }) {
  const trash = useLoad(async () => {
    const [o, spaces] = await Promise.all([api.organization(org), api.deletedSpaces(org)]);
    return { title: o.title, spaces };
  }, `trash:${org}`);
  const action = useAction();
  const [restored, setRestored] = useState<DeletedSpace>();

  const restore = async (s: DeletedSpace) => {
    setRestored(undefined);
    if (await action.run(() => api.restoreSpace(s.id))) {
      setRestored(s);
      trash.reload();
    }
  };

  const data = trash.data;
  return (
    <section>
      <h1>Trash</h1>
      <nav aria-label="Breadcrumbs" className="crumbs">
        <Link href={`/o/${org}`}>{data?.title ?? 'Organization'}</Link>
      </nav>
      <p className="muted">
        Deleted spaces you can restore. Each is removed for good 7 days after it was deleted, with its pages and
        history.
      </p>
      <div role="status">
        {restored && (
          <p>
            Restored {restored.title || 'Untitled space'}:{' '}
            <Link href={`/o/${org}/s/${restored.id}`}>open {restored.title || 'Untitled space'}</Link>
          </p>
        )}
      </div>
      {action.error && <p role="alert">{action.error}</p>}
      {trash.error && <p role="alert">{trash.error.message}</p>}
      {trash.loading && !data && <p aria-live="polite">Loading…</p>}
      {data && data.spaces.length === 0 && <p>The trash is empty: no deleted space you can restore.</p>}
      {data && data.spaces.length > 0 && (
        <ul className="plain trash" aria-label="Deleted spaces">
          {data.spaces.map((s) => (
            <TrashedSpace key={s.id} space={s} busy={action.busy} onRestore={() => restore(s)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TrashedSpace({ space, busy, onRestore }: { space: DeletedSpace; busy: boolean; onRestore(): void }) {
  const title = space.title || 'Untitled space';
  return (
    <li>
      <div>
        <strong>{title}</strong>
        <p className="muted">
          Deleted <time dateTime={space.deletedAt}>{new Date(space.deletedAt).toLocaleString()}</time>
          {space.deletedBy && ` by ${space.deletedBy.displayName}`} ·{' '}
          <time dateTime={space.purgeAt} title={`Removed for good ${new Date(space.purgeAt).toLocaleString()}`}>
            {daysLeft(space.purgeAt)}
          </time>
        </p>
      </div>
      <button type="button" onClick={onRestore} disabled={busy}>
        Restore {title}
      </button>
    </li>
  );
}
