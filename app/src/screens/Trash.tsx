import { useState } from 'react';
import { Link } from 'wouter';
import { api, type DeletedCollection, type DeletedSpace } from '../api/endpoints.ts';
import { useAction, useLoad } from '../api/use.ts';

const DAY = 24 * 3600 * 1_000;

/** "3 days left" until the space is removed for good (rounded up: a space deleted now has 7). */
export function daysLeft(purgeAt: string, now = Date.now()): string {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY);
  return days > 1 ? `${days} days left` : days === 1 ? '1 day left' : 'less than a day left';
}

/** "2 spaces and 1 collection": what a deleted collection held (its delete moved them up to its parent). */
export function heldOf(c: Pick<DeletedCollection, 'movedSpaces' | 'movedCollections'>): string {
  const count = (n: number, one: string) => (n === 1 ? `1 ${one}` : `${n} ${one}s`);
  const parts = [
    ...(c.movedSpaces ? [count(c.movedSpaces, 'space')] : []),
    ...(c.movedCollections ? [count(c.movedCollections, 'collection')] : []),
  ];
  return parts.length ? parts.join(' and ') : 'nothing';
}

type Restored = { kind: 'space'; item: DeletedSpace } | { kind: 'collection'; item: DeletedCollection };

/**
 * The organization's trash (`/o/{org}/trash`): the deleted spaces and collections the user may restore
 * (`GET …/trash/spaces`, `GET …/trash/collections`), each with when and by whom it was deleted and the days left
 * before it is removed for good, and its Restore button.
 */
export default function Trash({ org }: { org: string }) {
  const trash = useLoad(
    async () => {
      const [o, spaces, collections, live] = await Promise.all([
        api.organization(org),
        api.deletedSpaces(org),
        api.deletedCollections(org),
        api.collections(org),
      ]);
      return { title: o.title, spaces, collections, live };
    },
    `trash:${org}`,
    { live: true },
  );
  const action = useAction();
  const [restored, setRestored] = useState<Restored>();

  const restore = async (r: Restored) => {
    setRestored(undefined);
    const done = await action.run(
      (): Promise<unknown> => (r.kind === 'space' ? api.restoreSpace(r.item.id) : api.restoreCollection(r.item.id)),
    );
    if (done) {
      setRestored(r);
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
        Deleted spaces and collections you can restore. Each is removed for good 7 days after it was deleted: a space
        with its pages and history. A restored collection takes back the spaces and collections it held that are still
        where its deletion moved them.
      </p>
      <div role="status">
        {restored?.kind === 'space' && (
          <p>
            Restored {restored.item.title || 'Untitled space'}:{' '}
            <Link href={`/o/${org}/s/${restored.item.id}`}>open {restored.item.title || 'Untitled space'}</Link>
          </p>
        )}
        {restored?.kind === 'collection' && (
          <p>
            Restored {restored.item.title}:{' '}
            <Link href={`/o/${org}/c/${restored.item.id}`}>open {restored.item.title}</Link>
          </p>
        )}
      </div>
      {action.error && <p role="alert">{action.error}</p>}
      {trash.error && <p role="alert">{trash.error.message}</p>}
      {trash.loading && !data && <p aria-live="polite">Loading…</p>}
      {data && data.spaces.length === 0 && data.collections.length === 0 && (
        <p>The trash is empty: no deleted space or collection you can restore.</p>
      )}
      {data && data.spaces.length > 0 && (
        <>
          <h2 id="trash-spaces">Spaces</h2>
          <ul className="plain trash" aria-labelledby="trash-spaces">
            {data.spaces.map((s) => (
              <TrashedSpace
                key={s.id}
                space={s}
                busy={action.busy}
                onRestore={() => restore({ kind: 'space', item: s })}
              />
            ))}
          </ul>
        </>
      )}
      {data && data.collections.length > 0 && (
        <>
          <h2 id="trash-collections">Collections</h2>
          <ul className="plain trash" aria-labelledby="trash-collections">
            {data.collections.map((c) => (
              <TrashedCollection
                key={c.id}
                collection={c}
                into={data.live.find((o) => o.id === c.parent)?.title}
                busy={action.busy}
                onRestore={() => restore({ kind: 'collection', item: c })}
              />
            ))}
          </ul>
        </>
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

function TrashedCollection(props: {
  collection: DeletedCollection;
  /** The title of the collection it goes back into, when the user can see it. */
  into: string | undefined;
  busy: boolean;
  onRestore(): void;
}) {
  const c = props.collection;
  return (
    <li>
      <div>
        <strong>{c.title}</strong>
        <p className="muted">
          Deleted <time dateTime={c.deletedAt}>{new Date(c.deletedAt).toLocaleString()}</time>
          {c.deletedBy && ` by ${c.deletedBy.displayName}`} ·{' '}
          <time dateTime={c.purgeAt} title={`Removed for good ${new Date(c.purgeAt).toLocaleString()}`}>
            {daysLeft(c.purgeAt)}
          </time>
        </p>
        <p className="muted">
          Held {heldOf(c)} · goes back{' '}
          {c.parent ? (props.into ? `into ${props.into}` : 'into its collection') : 'to the top level'}
        </p>
      </div>
      <button type="button" onClick={props.onRestore} disabled={props.busy}>
        Restore {c.title}
      </button>
    </li>
  );
}
