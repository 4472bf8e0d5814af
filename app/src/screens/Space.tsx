import { type FormEvent, type KeyboardEvent, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, type ChangeRequest, type ContentChange, type RevisionPage, type Where } from '../api/endpoints.ts';
import { useAction, useLoad } from '../api/use.ts';
import { PageEditor, PageView } from '../screens.ts';
import { RenameForm } from './rename-form.tsx';
import { usePageDrag } from './tree/drag.ts';
import { childrenOf, type Placed, place } from './tree/placed.ts';
import { PageIcon } from './tree/PageIcon.tsx';

interface Props {
  org: string;
  space: string;
  /** The change request's number (or id) when the URL is `…/~/changes/{number}`. */
  changeRequest?: string;
  /** The page's path in the revision ('' for the first page). */
  path: string;
}

const pathOfPage = (p: RevisionPage) => ('path' in p ? (p.path as string) : '');

/**
 * The tree's arrow keys, on a page's link: up and down move to the previous and next page shown, right opens the
 * page's children, left closes them (or moves to the parent). Tab still reaches every link, toggle and menu.
 */
function treeKeys(e: KeyboardEvent<HTMLUListElement>, toggle: (id: string, open: boolean) => void) {
  const link = e.target as HTMLElement;
  const row = link.parentElement;
  if (link.tagName !== 'A' || !row?.classList.contains('row')) return;
  const focus = (el: Element | null | undefined) => {
    if (!(el instanceof HTMLElement)) return;
    e.preventDefault();
    el.focus();
  };
  const id = row.dataset.page!;
  const expanded = row.querySelector(':scope > .twisty')?.getAttribute('aria-expanded');
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    const links = [...e.currentTarget.querySelectorAll('.row > a')];
    focus(links[links.indexOf(link) + (e.key === 'ArrowDown' ? 1 : -1)]);
  } else if (e.key === 'ArrowRight' && expanded === 'false') {
    e.preventDefault();
    toggle(id, true);
  } else if (e.key === 'ArrowLeft') {
    if (expanded === 'true') {
      e.preventDefault();
      toggle(id, false);
    } else focus(row.parentElement?.parentElement?.closest('li')?.querySelector(':scope > .row > a'));
  }
}

/**
 * A space: its page tree and the page asked for. Reading is the main revision (or the change request's);
 * every change to the tree goes into a change request, as GitBook does it: the first change on the main
 * content opens one ("Edit pages") and the app moves to it; its "Merge" button brings the changes to main.
 */
export default function SpaceScreen({ org, space, changeRequest, path }: Props) {
  const where: Where = changeRequest ? { space, changeRequest } : { space };
  const key = `${space}:${changeRequest ?? 'main'}`;
  const info = useLoad(
    async () => ({
      space: await api.space(space),
      cr: changeRequest ? await api.changeRequest(space, changeRequest) : undefined,
    }),
    key,
  );
  const pages = useLoad(() => api.pages(where), key);
  const [, navigate] = useLocation();
  const editing = new URLSearchParams(useSearch()).has('edit');
  const action = useAction();
  const base = changeRequest ? `/o/${org}/s/${space}/~/changes/${changeRequest}` : `/o/${org}/s/${space}`;
  const tree = pages.data?.pages ?? [];
  const placed = place(tree);
  const firstPath = tree[0] ? pathOfPage(tree[0]) : '';
  const shownPath = path || firstPath;
  /**
   * The pages whose children are shown. A page's children are drawn only while it is open, so a 1,000-page space
   * draws its top level (and the way to the page shown), not every page.
   */
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string, to: boolean) =>
    setOpen((old) => {
      if (old.has(id) === to) return old;
      const next = new Set(old);
      if (to) next.add(id);
      else next.delete(id);
      return next;
    });
  const shownId = [...placed.values()].find((p) => pathOfPage(p.page) === shownPath)?.page.id;
  // the page shown is in sight: its ancestors open (when the page or the tree changes)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `placed` is derived from `pages.data`
  useEffect(() => {
    const up: string[] = [];
    for (let at = shownId && placed.get(shownId)?.parent; at; at = placed.get(at)?.parent) up.push(at);
    if (up.some((id) => !open.has(id))) setOpen((old) => new Set([...old, ...up]));
  }, [shownId, pages.data]);

  /** Applies changes in the change request of the URL, or in a new one (then shown). */
  const change = async (changes: ContentChange[]) => {
    const done = await action.run(async () => {
      let number = changeRequest;
      if (!number) number = String((await api.createChangeRequest(space, 'Edit pages')).number);
      await api.changeContent(space, number, changes);
      return number;
    });
    if (done === undefined) return;
    if (!changeRequest) navigate(`/o/${org}/s/${space}/~/changes/${done}${path ? `/${path}` : ''}`);
    else pages.reload();
  };
  const drag = usePageDrag(placed, action.busy, (page, { into, at }) => {
    // the page stays in sight: a page it is nested under opens
    if (into) toggle(into, true);
    change([{ operation: 'update_page', page, into, at }]);
  });
  const merge = async () => {
    if (!changeRequest) return;
    const merged = await action.run(() => api.merge(space, changeRequest));
    if (merged?.result === 'conflicts') info.reload();
    else if (merged) navigate(`/o/${org}/s/${space}`);
  };

  const cr = info.data?.cr;
  return (
    <div className="space">
      <aside className="sidebar" aria-label="Pages">
        <p className="crumbs">
          <Link href={`/o/${org}`}>← Organization</Link> ·{' '}
          <Link href={`/o/${org}/s/${space}/~/changes`}>Change requests</Link> ·{' '}
          <Link href={`/o/${org}/s/${space}/~/settings`}>Space settings</Link>
        </p>
        <h1 className="space-title">{info.data?.space.title ?? 'Space'}</h1>
        {cr && <ChangeRequestBar cr={cr} busy={action.busy} onMerge={merge} />}
        {cr && <Link href={`${base}/~/review`}>Review #{cr.number}: changes, reviews, comments</Link>}
        {!changeRequest && <p className="muted">Changes to the pages open a change request.</p>}
        {pages.error && <p role="alert">{pages.error.message}</p>}
        {tree.length === 0 && pages.data && <p>No pages yet.</p>}
        {/* the arrow keys of the pages' links (treeKeys); each link, toggle and menu takes Tab too. Dragging a
            row with the pointer moves its page (tree/drag.ts); the links' own HTML5 drag is turned off. */}
        <ul
          className="tree pages"
          onKeyDown={(e) => treeKeys(e, toggle)}
          onPointerDown={drag.onPointerDown}
          onDragStart={(e) => e.preventDefault()}
        >
          {tree.map((p) => (
            <PageItem
              key={p.id}
              page={p}
              base={base}
              current={shownPath}
              placed={placed}
              open={open}
              onToggle={toggle}
              onChange={change}
              busy={action.busy}
            />
          ))}
        </ul>
        <p className="sr-only" aria-live="polite" ref={drag.live} />
        <AddPage
          onAdd={(title, markdown) => change([{ operation: 'insert_page', title, document: { markdown } }])}
          busy={action.busy}
        />
        {action.error && <p role="alert">{action.error}</p>}
      </aside>
      <article className="page" aria-label="Page">
        {shownPath ? (
          <Suspense fallback={<p>Loading…</p>}>
            {editing ? (
              <PageEditor
                key={shownPath}
                space={space}
                changeRequest={changeRequest}
                path={shownPath}
                onChangeRequest={(n) => navigate(`/o/${org}/s/${space}/~/changes/${n}/${shownPath}?edit`)}
                onDone={() => {
                  pages.reload();
                  navigate(`${base}/${shownPath}`);
                }}
              />
            ) : (
              <>
                {(!cr || cr.status === 'open' || cr.status === 'draft') && (
                  <p className="page-actions">
                    <Link href={`${base}/${shownPath}?edit`} className="button">
                      Edit
                    </Link>
                  </p>
                )}
                <PageView where={where} path={shownPath} />
              </>
            )}
          </Suspense>
        ) : (
          pages.data && <p>Add a page to start writing.</p>
        )}
      </article>
    </div>
  );
}

function ChangeRequestBar({ cr, busy, onMerge }: { cr: ChangeRequest; busy: boolean; onMerge(): void }) {
  const open = cr.status === 'open' || cr.status === 'draft';
  return (
    <section className="cr" aria-label="Change request">
      <p>
        Change request #{cr.number}: {cr.subject || 'Untitled'} ({cr.status})
      </p>
      {cr.conflicting && <p role="alert">This change request conflicts with the main content.</p>}
      {open && (
        <button type="button" onClick={onMerge} disabled={busy}>
          Merge change request #{cr.number}
        </button>
      )}
    </section>
  );
}

function PageItem(props: {
  page: RevisionPage;
  base: string;
  current: string;
  placed: Map<string, Placed>;
  /** The pages whose children are shown. */
  open: ReadonlySet<string>;
  onToggle(id: string, open: boolean): void;
  busy: boolean;
  onChange(changes: ContentChange[]): void;
}) {
  const { page, placed, onChange } = props;
  const children = childrenOf(page);
  const isOpen = props.open.has(page.id);
  const here = placed.get(page.id)!;
  const path = pathOfPage(page);
  const [renaming, setRenaming] = useState(false);
  const [emoji, setEmoji] = useState(page.emoji ?? '');
  const [icon, setIcon] = useState(page.icon ?? '');
  const [menuOpen, setMenuOpen] = useState(false);
  const hidden = 'hidden' in page && page.hidden;
  const menu = useRef<HTMLDetailsElement>(null);
  const previous = here.siblings[here.index - 1];
  const move = (into: string | null, at: number) => {
    // the page stays in sight: a page it moves under opens
    if (into) props.onToggle(into, true);
    onChange([{ operation: 'update_page', page: page.id, into, at }]);
  };
  const rename = (title: string) => {
    setRenaming(false);
    const changed = {
      ...(title.trim() && title.trim() !== page.title ? { title: title.trim() } : {}),
      ...(emoji.trim() !== (page.emoji ?? '') ? { emoji: emoji.trim() } : {}),
      ...(icon.trim() !== (page.icon ?? '') ? { icon: icon.trim() } : {}),
    };
    if (Object.keys(changed).length) onChange([{ operation: 'update_page', page: page.id, ...changed }]);
  };
  const parentPlaced = here.parent ? placed.get(here.parent) : undefined;
  return (
    <li>
      <div className="row" data-page={page.id}>
        {/* where a finger drags the page from (a mouse drags the whole row); the page menu moves it by keyboard */}
        <span className="grip" aria-hidden="true">
          ⠿
        </span>
        {children.length > 0 ? (
          <button
            type="button"
            className="twisty"
            aria-expanded={isOpen}
            aria-label={`Pages under ${page.title}`}
            onClick={() => props.onToggle(page.id, !isOpen)}
          >
            <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
          </button>
        ) : (
          <span className="twisty" />
        )}
        {renaming ? (
          <RenameForm label={`New title of ${page.title}`} initial={page.title} maxLength={255} onSave={rename}>
            <ShortField label={`Emoji of ${page.title}`} placeholder="Emoji" value={emoji} onChange={setEmoji} />
            <ShortField label={`Icon of ${page.title}`} placeholder="Icon" value={icon} onChange={setIcon} />
          </RenameForm>
        ) : path ? (
          <Link href={`${props.base}/${path}`} aria-current={path === props.current ? 'page' : undefined}>
            {page.emoji ? `${page.emoji} ` : ''}
            <PageIcon icon={page.icon} />
            {page.title}
            {hidden && <span className="muted"> (hidden)</span>}
          </Link>
        ) : (
          <span>{page.title}</span>
        )}
        {/* The menu's buttons exist only while it is open: a 1,000-page tree would otherwise hold 7,000 of them. */}
        <details className="menu" ref={menu} onToggle={(e) => setMenuOpen(e.currentTarget.open)}>
          <summary aria-label={`Actions on ${page.title}`}>⋯</summary>
          {menuOpen && (
            // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: closes the menu once one of its buttons acted (they take the keyboard)
            <div
              className="menu-items"
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('button') && menu.current) menu.current.open = false;
              }}
            >
              <button type="button" disabled={props.busy} onClick={() => setRenaming(true)}>
                Rename, emoji or icon
              </button>
              <button
                type="button"
                disabled={props.busy}
                onClick={() => onChange([{ operation: 'update_page', page: page.id, hidden: !hidden }])}
              >
                {hidden ? 'Show in navigation' : 'Hide from navigation'}
              </button>
              <button
                type="button"
                disabled={props.busy || here.index === 0}
                onClick={() => move(here.parent, here.index - 1)}
              >
                Move up
              </button>
              <button
                type="button"
                disabled={props.busy || here.index === here.siblings.length - 1}
                onClick={() => move(here.parent, here.index + 1)}
              >
                Move down
              </button>
              <button
                type="button"
                disabled={props.busy || !previous}
                onClick={() => previous && move(previous.id, childrenOf(previous).length)}
              >
                Nest under previous
              </button>
              <button
                type="button"
                disabled={props.busy || !parentPlaced}
                onClick={() => parentPlaced && move(parentPlaced.parent, parentPlaced.index + 1)}
              >
                Move out
              </button>
              <button
                type="button"
                className="danger"
                disabled={props.busy}
                onClick={() => onChange([{ operation: 'delete_page', page: page.id }])}
              >
                Delete {page.title}
              </button>
            </div>
          )}
        </details>
      </div>
      {isOpen && children.length > 0 && (
        <ul>
          {children.map((c) => (
            <PageItem key={c.id} {...props} page={c} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** A short field of the rename form (a page's emoji or icon name): labelled for screen readers, a hint inside. */
function ShortField(props: { label: string; placeholder: string; value: string; onChange(value: string): void }) {
  return (
    <label>
      <span className="sr-only">{props.label}</span>
      <input
        className="emoji"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        maxLength={50}
        placeholder={props.placeholder}
      />
    </label>
  );
}

function AddPage({ onAdd, busy }: { onAdd(title: string, markdown: string): void; busy: boolean }) {
  const [title, setTitle] = useState('');
  const [markdown, setMarkdown] = useState('');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return;
    onAdd(title.trim(), markdown);
    setTitle('');
    setMarkdown('');
  };
  return (
    <form className="add-page" onSubmit={submit} aria-label="Add a page">
      <label htmlFor={`${id}-title`}>Page title</label>
      <input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={255} />
      <label htmlFor={`${id}-markdown`}>Content (markdown)</label>
      <textarea id={`${id}-markdown`} value={markdown} onChange={(e) => setMarkdown(e.target.value)} rows={4} />
      <button type="submit" disabled={busy}>
        Add page
      </button>
    </form>
  );
}
