import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, type Collection, type Space } from '../api/endpoints.ts';
import { useAction, useLoad } from '../api/use.ts';
import { RenameForm } from './rename-form.tsx';
import { useTreeDrag } from './tree/drag.ts';
import { keyOf, orgMoveOf, placeOrg } from './tree/org-placed.ts';
import { within } from './tree/placed.ts';

interface Tree {
  collections: Collection[];
  spaces: Space[];
}

/** The organization's content tree: collections (nested) and spaces, in the API's tree order. */
export default function Organization({ org, collection }: { org: string; collection?: string }) {
  const tree = useLoad(
    async (): Promise<Tree & { title: string }> => {
      const [o, collections, spaces] = await Promise.all([
        api.organization(org),
        api.collections(org),
        api.spaces(org),
      ]);
      return { title: o.title, collections, spaces };
    },
    `org:${org}`,
    { live: true },
  );
  const [deleted, setDeleted] = useState<{ title: string; kind: 'space' | 'collection' }>();
  const action = useAction();
  const reload = tree.reload;

  const remove = async (kind: 'space' | 'collection', id: string, title: string) => {
    setDeleted(undefined);
    const gone = await action.run(() =>
      (kind === 'space' ? api.deleteSpace(id) : api.deleteCollection(id)).then(() => true),
    );
    if (gone) {
      setDeleted({ title, kind });
      reload();
    }
  };

  const data = tree.data;
  const placed = placeOrg(data?.collections ?? [], data?.spaces ?? []);
  /** Drag and drop (tree/drag.ts): a space or a collection before, after or into another row's. */
  const drag = useTreeDrag(
    placed,
    action.busy,
    (node, m) => {
      const { kind, of } = placed.get(node)!.page;
      const { parent, position } = orgMoveOf(placed, node, m);
      void action
        .run(
          (): Promise<unknown> =>
            kind === 'space' ? api.moveSpace(of, parent, position) : api.moveCollection(of, parent, position),
        )
        .then(reload);
    },
    { attr: 'node', own: 'collections' },
  );
  const collectionTitle = data?.collections.find((c) => c.id === collection)?.title;
  return (
    <section>
      <h1>{data?.title ?? 'Organization'}</h1>
      <div role="status">
        {deleted && (
          <p>
            {deleted.title} is in the <Link href={`/o/${org}/trash`}>trash</Link>: it can be restored there for 7 days
            {deleted.kind === 'collection' && ', with the spaces and collections it held'}.
          </p>
        )}
      </div>
      <nav aria-label="Settings and trash" className="crumbs">
        <Link href={`/o/${org}/settings/members`}>Settings: members, teams, audit log</Link> ·{' '}
        <Link href={`/o/${org}/trash`}>Trash</Link> · <Link href={`/o/${org}/openapi`}>OpenAPI specifications</Link> ·{' '}
        <Link href={`/o/${org}/integrations`}>Integrations</Link>
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
          <p className="muted" id="content-tree-help">
            Drag a row by its grip (⠿) to move it: onto the upper or lower part of a row to put it before or after, onto
            the middle of a collection to put it inside. Escape cancels. The “Move to” lists do the same from the
            keyboard.
          </p>
          {/* the rows' links' own HTML5 drag is turned off: the pointer drags the rows (tree/drag.ts) */}
          <ul
            className="tree content-tree"
            aria-labelledby="content-tree"
            aria-describedby="content-tree-help"
            onPointerDown={drag.onPointerDown}
            onDragStart={(e) => e.preventDefault()}
          >
            <Level
              parent={undefined}
              tree={data}
              placed={placed}
              org={org}
              onChanged={reload}
              onDelete={remove}
              run={action.run}
              current={collection}
            />
          </ul>
          <p className="sr-only" aria-live="polite" ref={drag.live} />
          {action.error && <p role="alert">{action.error}</p>}
        </>
      )}
    </section>
  );
}

type Run = <T>(fn: () => Promise<T>) => Promise<T | undefined>;

function Level(props: {
  parent: string | undefined;
  tree: Tree;
  placed: ReturnType<typeof placeOrg>;
  org: string;
  current: string | undefined;
  onChanged(): void;
  onDelete(kind: 'space' | 'collection', id: string, title: string): void;
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
            node={keyOf('collection', c.id)}
            href={`/o/${props.org}/c/${c.id}`}
            onRename={(title) => props.run(() => api.updateCollection(c.id, { title })).then(props.onChanged)}
            onDelete={() => props.onDelete('collection', c.id, c.title)}
          >
            <MoveTo
              label={c.title}
              value={c.parent}
              // a collection cannot go into itself or one of its own collections
              choices={tree.collections.filter(
                (o) => !within(props.placed, keyOf('collection', o.id), keyOf('collection', c.id)),
              )}
              onMove={(to) => props.run(() => api.moveCollection(c.id, to)).then(props.onChanged)}
            />
          </Item>
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
            node={keyOf('space', s.id)}
            href={`/o/${props.org}/s/${s.id}`}
            onRename={(title) => props.run(() => api.updateSpace(s.id, { title })).then(props.onChanged)}
            onDelete={() => props.onDelete('space', s.id, s.title || 'Untitled space')}
          >
            <MoveTo
              label={s.title || 'Untitled space'}
              value={s.parent}
              choices={tree.collections}
              onMove={(to) => props.run(() => api.moveSpace(s.id, to)).then(props.onChanged)}
            />
          </Item>
        </li>
      ))}
    </>
  );
}

/** The keyboard's way to move a row: a list of where it may go (the top level or a collection). */
function MoveTo(props: {
  label: string;
  value: string | undefined;
  choices: Collection[];
  onMove(to: string | null): void;
}) {
  return (
    <label className="move">
      <span className="sr-only">Move {props.label} to</span>
      <select value={props.value ?? ''} onChange={(e) => props.onMove(e.target.value || null)}>
        <option value="">Top level</option>
        {props.choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One row of the tree: its grip, its link, rename in place, delete with a confirmation step. */
function Item(props: {
  label: string;
  kind: 'space' | 'collection';
  /** The row's node in the drag's tree (`space:<id>`, `collection:<id>`). */
  node: string;
  href: string;
  onRename(title: string): void;
  onDelete(): void;
  children?: React.ReactNode;
}) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const submit = (title: string) => {
    setRenaming(false);
    if (title.trim() && title !== props.label) props.onRename(title.trim());
  };
  return (
    <div className="row" data-node={props.node}>
      {/* where a finger drags the row from (a mouse drags the whole row); "Move … to" moves it by keyboard */}
      <span className="grip" aria-hidden="true">
        ⠿
      </span>
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
