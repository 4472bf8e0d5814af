import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, type Collection, type Space } from '../api/endpoints.ts';
import { useAction, useLoad } from '../api/use.ts';
import { RenameForm } from './rename-form.tsx';

interface Tree {
  collections: Collection[];
  spaces: Space[];
}

/** The organization's content tree: collections (nested) and spaces, in the API's tree order. */
export default function Organization({ org, collection }: { org: string; collection?: string }) {
  const tree = useLoad(async (): Promise<Tree & { title: string }> => {
    const [o, collections, spaces] = await Promise.all([api.organization(org), api.collections(org), api.spaces(org)]);
    return { title: o.title, collections, spaces };
  }, `org:${org}`);
  const [deleted, setDeleted] = useState<Space>();
  const action = useAction();
  const reload = tree.reload;

  const remove = async (s: Space) => {
    setDeleted(undefined);
    if (await action.run(() => api.deleteSpace(s.id).then(() => true))) {
      setDeleted(s);
      reload();
    }
  };

  /** Drag and drop: a space or a collection (`space:<id>`, `collection:<id>`) into a collection, or to the top level. */
  const move = (item: string, parent: string | null) => {
    const [kind, id] = item.split(':') as [string, string | undefined];
    if (!id || id === parent) return;
    void action
      .run((): Promise<unknown> => (kind === 'space' ? api.moveSpace(id, parent) : api.moveCollection(id, parent)))
      .then(reload);
  };

  const data = tree.data;
  const collectionTitle = data?.collections.find((c) => c.id === collection)?.title;
  return (
    <section>
      <h1>{data?.title ?? 'Organization'}</h1>
      <div role="status">
        {deleted && (
          <p>
            {deleted.title || 'Untitled space'} is in the <Link href={`/o/${org}/trash`}>trash</Link>: it can be
            restored there for 7 days.
          </p>
        )}
      </div>
      <nav aria-label="Settings and trash" className="crumbs">
        <Link href={`/o/${org}/settings/members`}>Settings: members, teams, audit log</Link> ·{' '}
        <Link href={`/o/${org}/trash`}>Trash</Link>
        {collection && (
          <>
            {' '}
            ·{' '}
            <Link href={`/o/${org}/c/${collection}/~/settings`}>Settings of {collectionTitle ?? 'the collection'}</Link>
          </>
        )}
      </nav>
      {tree.error && <p role="alert">{tree.error.message}</p>}
      {data && (
        <>
          <CreateForms org={org} collections={data.collections} onCreated={reload} initialParent={collection} />
          <h2 id="content-tree">Spaces and collections</h2>
          {data.spaces.length === 0 && data.collections.length === 0 && (
            <p>No spaces yet: create the first one above.</p>
          )}
          <ul className="tree" aria-labelledby="content-tree" {...dropTarget(null, move)}>
            <Level
              onMove={move}
              parent={undefined}
              tree={data}
              org={org}
              onChanged={reload}
              onDelete={remove}
              run={action.run}
              current={collection}
            />
          </ul>
          {action.error && <p role="alert">{action.error}</p>}
        </>
      )}
    </section>
  );
}

const DRAG_TYPE = 'application/x-quire-item';

/** Drop handlers moving the dragged item into `parent` (null: the top level); the nearest target wins. */
function dropTarget(parent: string | null, onMove: (item: string, parent: string | null) => void) {
  return {
    onDragOver: (e: React.DragEvent) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'move';
    },
    onDrop: (e: React.DragEvent) => {
      const item = e.dataTransfer.getData(DRAG_TYPE);
      if (!item) return;
      e.preventDefault();
      e.stopPropagation();
      onMove(item, parent);
    },
  };
}

type Run = <T>(fn: () => Promise<T>) => Promise<T | undefined>;

function Level(props: {
  parent: string | undefined;
  tree: Tree;
  org: string;
  current: string | undefined;
  onChanged(): void;
  onDelete(s: Space): void;
  onMove(item: string, parent: string | null): void;
  run: Run;
}) {
  const { parent, tree } = props;
  const collections = tree.collections.filter((c) => c.parent === parent);
  const spaces = tree.spaces.filter((s) => s.parent === parent);
  return (
    <>
      {collections.map((c) => (
        <li key={c.id} className={c.id === props.current ? 'current' : undefined}>
          <Item
            label={c.title}
            kind="collection"
            href={`/o/${props.org}/c/${c.id}`}
            drag={`collection:${c.id}`}
            drop={dropTarget(c.id, props.onMove)}
            onRename={(title) => props.run(() => api.updateCollection(c.id, { title })).then(props.onChanged)}
            onDelete={() => props.run(() => api.deleteCollection(c.id)).then(props.onChanged)}
          />
          <ul>
            <Level {...props} parent={c.id} />
          </ul>
        </li>
      ))}
      {spaces.map((s) => (
        <li key={s.id}>
          <Item
            label={s.title || 'Untitled space'}
            kind="space"
            href={`/o/${props.org}/s/${s.id}`}
            drag={`space:${s.id}`}
            onRename={(title) => props.run(() => api.updateSpace(s.id, { title })).then(props.onChanged)}
            onDelete={() => props.onDelete(s)}
          >
            <label className="move">
              <span className="sr-only">Move {s.title} to</span>
              <select
                value={s.parent ?? ''}
                onChange={(e) => props.run(() => api.moveSpace(s.id, e.target.value || null)).then(props.onChanged)}
              >
                <option value="">Top level</option>
                {tree.collections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>
          </Item>
        </li>
      ))}
    </>
  );
}

/** One row of the tree: its link, rename in place, delete with a confirmation step. */
function Item(props: {
  label: string;
  kind: 'space' | 'collection';
  href: string;
  onRename(title: string): void;
  onDelete(): void;
  /** What the row carries when dragged (`space:<id>`, `collection:<id>`). */
  drag: string;
  /** The row as a drop target (collections). */
  drop?: ReturnType<typeof dropTarget>;
  children?: React.ReactNode;
}) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const submit = (title: string) => {
    setRenaming(false);
    if (title.trim() && title !== props.label) props.onRename(title.trim());
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dragging is a pointer shortcut; the "Move … to" select does the same from the keyboard
    <div
      className="row"
      draggable={!renaming}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, props.drag);
        e.dataTransfer.effectAllowed = 'move';
      }}
      {...props.drop}
    >
      <span className="kind" aria-hidden="true">
        {props.kind === 'space' ? '▤' : '▸'}
      </span>
      {renaming ? (
        <RenameForm
          label={`New title of ${props.label}`}
          initial={props.label}
          maxLength={255}
          onSave={submit}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <Link href={props.href}>{props.label}</Link>
      )}
      <span className="actions">
        {props.children}
        {!renaming && (
          <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${props.label}`}>
            Rename
          </button>
        )}
        {confirming ? (
          <>
            <button type="button" className="danger" onClick={props.onDelete}>
              Confirm delete {props.label}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)} aria-label={`Delete ${props.label}`}>
            Delete
          </button>
        )}
      </span>
    </div>
  );
}

function CreateForms(props: {
  org: string;
  collections: Collection[];
  initialParent: string | undefined;
  onCreated(): void;
}) {
  const [kind, setKind] = useState<'space' | 'collection'>('space');
  const [title, setTitle] = useState('');
  const [parent, setParent] = useState(props.initialParent ?? '');
  const action = useAction();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { title: title.trim(), ...(parent ? { parent } : {}) };
    const made = await action.run(
      (): Promise<unknown> =>
        kind === 'space' ? api.createSpace(props.org, body) : api.createCollection(props.org, body),
    );
    if (made) {
      setTitle('');
      props.onCreated();
    }
  };
  return (
    <form className="create" onSubmit={submit} aria-label="Create a space or a collection">
      <div className="field">
        <label htmlFor={`${id}-kind`}>What</label>
        <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as 'space' | 'collection')}>
          <option value="space">Space</option>
          <option value="collection">Collection</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={255} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-parent`}>In</label>
        <select id={`${id}-parent`} value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">Top level</option>
          {props.collections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={action.busy}>
        Create
      </button>
      {action.error && <p role="alert">{action.error}</p>}
    </form>
  );
}
