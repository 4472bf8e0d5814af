import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { type ChangeRequest, changesApi, type SemanticChange } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { downloadSrc } from '../../editor/uploads.ts';
import { useAppLinks } from '../../render/follow.ts';
import type { Node } from '../../render/node.ts';
import { CommentableBlock, EarlierBlockComments } from './BlockComments.tsx';
import { type BlockDiff, diffBlocks, MAX_BLOCKS, nodeIdsOf } from './blocks.ts';
import { type Drawn, drawComparison } from './drawn.ts';
import { placeMarkers, scopeIds } from './marks.ts';
import { conflictsIn, type Keep, resolveConflict, sidesOf } from './resolve.ts';
import { type Row, rowsOf, summaryOf } from './rows.ts';
import { changedRanges, markRanges } from './words.ts';

type PageChange = Extract<SemanticChange, { page: unknown }>;

const VERB: Record<PageChange['type'], string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Removed',
  page_moved: 'Moved',
};

/** How a page's comparison is drawn: its two versions side by side, or one column of blocks. */
type View = 'split' | 'inline';
const VIEW_KEY = 'quire:diff-view';

/** The view last chosen in this browser, else side by side on a wide screen and inline on a narrow one. */
function initialView(): View {
  const chosen = window.localStorage.getItem(VIEW_KEY);
  if (chosen === 'split' || chosen === 'inline') return chosen;
  return window.matchMedia('(min-width: 50rem)').matches ? 'split' : 'inline';
}

/**
 * Where a conflict block can be resolved: the change request (still open), what to do once it changed, and the
 * editor on the page in the change request.
 */
interface Resolving {
  space: string;
  cr: ChangeRequest;
  onChange(): void;
  editor: string;
}

/** Where a page comparison is drawn: the organization and space (for links), the change request. */
interface Where {
  org: string;
  space: string;
  cr: ChangeRequest;
  onChange?: (() => void) | undefined;
  view: View;
}

/**
 * What a change request changes (`GET …/changes`): one entry per page, each opening a block-level comparison; while
 * the change request is open, its conflict blocks can be resolved there (`onChange` after each).
 */
export function Changes({ org, space, cr, onChange }: Omit<Where, 'view'>) {
  const changes = useLoad(() => changesApi.changes(space, cr.id), `${cr.id}:${cr.revision}`);
  const [view, setView] = useState(initialView);
  const choose = (v: View) => {
    setView(v);
    window.localStorage.setItem(VIEW_KEY, v);
  };
  if (changes.error) return <p role="alert">{changes.error.message}</p>;
  if (!changes.data) return <p aria-live="polite">Loading the changes…</p>;
  const list = changes.data.changes;
  if (list.length === 0) return <p className="muted">This change request changes nothing yet.</p>;
  return (
    <>
      {list.some((c) => 'page' in c && c.page.type === 'document' && c.type !== 'page_moved') && (
        <fieldset className="cr-tabs cr-views">
          <legend className="sr-only">Show the changes of pages</legend>
          {(
            [
              ['split', 'Side by side'],
              ['inline', 'Inline'],
            ] as const
          ).map(([v, label]) => (
            <button key={v} type="button" aria-pressed={view === v} onClick={() => choose(v)}>
              {label}
            </button>
          ))}
        </fieldset>
      )}
      <ul className="cr-changes">
        {list.map((c) =>
          'page' in c ? (
            <PageEntry
              key={`${c.page.id}:${c.type}:${c.page.conflicted ? 'conflicted' : ''}`}
              org={org}
              space={space}
              cr={cr}
              change={c}
              onChange={onChange}
              view={view}
            />
          ) : (
            <FileEntry key={`${c.type}:${c.file.id}`} change={c} />
          ),
        )}
        {changes.data.more ? <li className="muted">And {changes.data.more} more changes.</li> : null}
      </ul>
    </>
  );
}

type FileChange = Exclude<SemanticChange, { page: unknown }>;

const kb = (n: unknown) => (typeof n === 'number' ? `${Math.max(1, Math.round(n / 1024))} KB` : '');

/**
 * An uploaded file the change request adds, replaces or removes: its name (a download link while it exists), an
 * image's picture, and what changed of a replaced or renamed one.
 */
function FileEntry({ change: c }: { change: FileChange }) {
  const removed = c.type === 'file_deleted';
  const href = downloadSrc(c.file.downloadURL);
  const changed: string[] = [];
  if (c.type === 'file_edited') {
    const a = c.attributes;
    if (a.name) changed.push(`Name: “${a.name.before ?? ''}” → “${a.name.after ?? ''}”`);
    if (a.contentType) changed.push(`Type: ${a.contentType.before ?? '?'} → ${a.contentType.after ?? '?'}`);
    if (a.size) changed.push(`Size: ${kb(a.size.before)} → ${kb(a.size.after)}`);
    if (!changed.length) changed.push('Content replaced');
  }
  return (
    <li>
      <span>
        {c.type === 'file_created' ? 'File added' : removed ? 'File removed' : 'File changed'}:{' '}
        {removed ? c.file.name : <a href={href}>{c.file.name}</a>}
      </span>
      {changed.length > 0 && (
        <ul className="muted">
          {changed.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
      {!removed && c.file.contentType.startsWith('image/') && (
        <img className="cr-file-picture" src={href} alt={`${c.file.name} (uploaded picture)`} loading="lazy" />
      )}
    </li>
  );
}

function attributesOf(c: PageChange): string[] {
  if (c.type === 'page_moved') {
    const from = c.parent.before?.title ?? 'the top level';
    const to = c.parent.after?.title ?? 'the top level';
    return [from === to ? `Reordered under ${to}` : `Moved from ${from} to ${to}`];
  }
  if (c.type !== 'page_edited') return [];
  const out: string[] = [];
  for (const [name, v] of Object.entries(c.attributes) as [string, { before?: unknown; after?: unknown }][]) {
    if (name === 'document') out.push('Content changed');
    else if (typeof v.before !== 'object' && typeof v.after !== 'object')
      out.push(`${name[0]!.toUpperCase()}${name.slice(1)}: “${v.before ?? ''}” → “${v.after ?? ''}”`);
    else out.push(`${name[0]!.toUpperCase()}${name.slice(1)} changed`);
  }
  return out;
}

function PageEntry({ change, ...where }: Where & { change: PageChange }) {
  // a conflicted page opens on its changes: the conflict is what the reader has to act on
  const [open, setOpen] = useState(Boolean(change.page.conflicted));
  const hasDocument = change.page.type === 'document' && change.type !== 'page_moved';
  const regionId = `diff-${change.page.id}`;
  return (
    <li>
      <p className="cr-change">
        <span className={`cr-badge cr-${change.type}`}>{VERB[change.type]}</span>{' '}
        <strong>{change.page.title || 'Untitled'}</strong>
        {change.page.path && <span className="muted"> /{change.page.path}</span>}
        {change.page.conflicted && (
          <>
            {' '}
            <span className="cr-badge cr-conflict">Conflict</span>
          </>
        )}
      </p>
      {attributesOf(change).length > 0 && (
        <ul className="muted">
          {attributesOf(change).map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
      {hasDocument && (
        <button type="button" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} the changes of {change.page.title || 'the page'}
        </button>
      )}
      {open && (
        <section id={regionId} aria-label={`Changes of ${change.page.title}`}>
          <PageDiff {...where} change={change} />
        </section>
      )}
    </li>
  );
}

/**
 * A page before (at the merge base) and after (in the change request), block by block, each block drawn by the
 * published site's renderer: side by side (a row per block, an edited block's two versions next to each other) or
 * inline (one column, an edited block's earlier version above the new one).
 */
function PageDiff({ org, space, cr, change, onChange, view }: Where & { change: PageChange }) {
  const id = change.page.id;
  const versions = useLoad(
    () =>
      drawComparison({
        org,
        space,
        cr,
        page: id,
        path: change.page.path ?? '',
        before: change.type !== 'page_created',
        after: change.type !== 'page_deleted',
      }),
    `${cr.revision}:${id}`,
  );
  if (versions.error) return <p role="alert">{versions.error.message}</p>;
  if (!versions.data) return <p aria-live="polite">Loading the page…</p>;
  const drawn = versions.data;
  const { before, after } = drawn;
  if (before.length + after.length > MAX_BLOCKS)
    return <p>This page has too many blocks to compare here ({before.length + after.length}).</p>;
  const diff = diffBlocks(before, after);
  const rows = rowsOf(diff);
  const live = cr.status === 'open' || cr.status === 'draft';
  const resolving: Resolver | undefined =
    live && onChange
      ? {
          space,
          cr,
          onChange,
          editor: `/o/${org}/s/${space}/~/changes/${cr.number}/${change.page.path ?? ''}?edit`,
          /** Writes the page with a conflict resolved; false when the page no longer holds it where it was shown. */
          resolve: async (ordinal: number, shown: Node, keep: Keep) => {
            const page = await changesApi.pageInChangeRequest(space, cr.id, id);
            const document = 'document' in page ? page.document : undefined;
            const resolved = document
              ? resolveConflict(document as { nodes?: unknown[] }, ordinal, shown, keep)
              : undefined;
            if (resolved) await changesApi.writePageDocument(space, cr.id, id, resolved);
            onChange();
            return resolved !== undefined;
          },
        }
      : undefined;
  const ids = nodeIdsOf(after);
  const htmlOf = (d: BlockDiff, side: 'old' | 'new', kind: Row['kind']) =>
    (side === 'old' && kind !== 'same' ? drawn.beforeHtml : drawn.afterHtml)[d.index] ?? '';
  /** A block of a row on its side; an edited block's words are compared with its other version's. */
  const block = (d: BlockDiff | undefined, side: 'old' | 'new', row: Row) => {
    const kind = row.kind;
    if (!d) return <div className="cr-gap" />;
    const html = htmlOf(d, side, kind);
    const other = side === 'old' ? row.after : row.before;
    return (
      <DiffBlock
        d={d}
        kind={kind}
        side={side}
        html={html}
        versus={kind === 'changed' && other ? htmlOf(other, side === 'old' ? 'new' : 'old', kind) : undefined}
        drawn={drawn}
        ordinal={d.node.type === 'conflict' ? conflictsBefore(diff, diff.indexOf(d)) : 0}
        resolving={side === 'new' ? resolving : undefined}
        on={side === 'new' ? { page: id, node: ids[d.index]! } : undefined}
      />
    );
  };
  return (
    <>
      <p className="muted">{summaryOf(rows)}</p>
      {/* a page added or removed has one side only: its blocks in one column */}
      {view === 'split' && before.length > 0 && after.length > 0 ? (
        <>
          <p className="cr-split-head" aria-hidden="true">
            <span>Before (main)</span>
            <span>After (#{cr.number})</span>
          </p>
          <ol className="cr-diff cr-split">
            {rows.map((r) =>
              // a conflict block takes the whole row: its own versions go side by side
              r.kind === 'added' && r.after.node.type === 'conflict' ? (
                <li key={`:${r.after.id}`} className="cr-row cr-row-conflict">
                  {block(r.after, 'new', r)}
                </li>
              ) : (
                <li key={`${r.before?.id ?? ''}:${r.after?.id ?? ''}`} className={`cr-row cr-row-${r.kind}`}>
                  {block(r.before, 'old', r)}
                  {/* an unchanged block is commented on in its new version, on the right */}
                  {block(r.after, 'new', r)}
                </li>
              ),
            )}
          </ol>
        </>
      ) : (
        <ol className="cr-diff cr-inline">
          {rows.flatMap((r) => {
            const key = `${r.before?.id ?? ''}:${r.after?.id ?? ''}`;
            if (r.kind === 'removed') return [<li key={key}>{block(r.before, 'old', r)}</li>];
            const now = <li key={key}>{block(r.after, 'new', r)}</li>;
            return r.kind === 'changed' ? [<li key={`${key}:old`}>{block(r.before, 'old', r)}</li>, now] : [now];
          })}
        </ol>
      )}
      {drawn.tail.trim() && (
        <section className="cr-notes" aria-label="Notes of the page">
          <Rendered html={drawn.tail} toNodes={drawn.toNodes} />
        </section>
      )}
      <EarlierBlockComments page={id} nodes={ids} />
    </>
  );
}

/**
 * HTML of the published site's renderer, drawn in the page (its inline styles through the CSSOM, see render/page.ts),
 * with its markers as hidden spans and its ids its own. A link to a page of the app opens it in the app.
 */
function Rendered({ html, toNodes, versus }: { html: string; toNodes: Drawn['toNodes']; versus?: string | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!box.current) return;
    const nodes = toNodes(html);
    placeMarkers(nodes);
    scopeIds(nodes);
    box.current.replaceChildren(nodes);
    if (versus === undefined) return;
    // an edited block: the words its other version does not have, marked
    const other = document.createElement('div');
    other.append(toNodes(versus));
    placeMarkers(other);
    markRanges(box.current, changedRanges(box.current.textContent ?? '', other.textContent ?? ''));
  }, [html, toNodes, versus]);
  const follow = useAppLinks();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the click only lets the page's own links open in the app
    // biome-ignore lint/a11y/useKeyWithClickEvents: links are followed by Enter, which clicks them
    <div className="site-article cr-rendered" onClick={follow}>
      <div className="document" ref={box} />
    </div>
  );
}

/** What a block is, for screen readers (the marks say it by colour and sign), and its sign. */
const LABEL: Record<Row['kind'], Record<'old' | 'new', [string, string]>> = {
  same: { old: ['Unchanged, before', ' '], new: ['Unchanged', ' '] },
  removed: { old: ['Removed', '−'], new: ['Removed', '−'] },
  added: { old: ['Added', '+'], new: ['Added', '+'] },
  changed: { old: ['Changed, before', '−'], new: ['Changed, after', '+'] },
};

type Resolver = Resolving & { resolve(ordinal: number, shown: Node, keep: Keep): Promise<boolean> };

/** How many conflict blocks the page (the change request's side) holds before the `i`-th block of the diff. */
const conflictsBefore = (diff: BlockDiff[], i: number) =>
  conflictsIn(diff.slice(0, i).flatMap((d) => (d.kind === 'removed' ? [] : [d.node])) as never);

/**
 * A block of the comparison, on its side (`old`: at the merge base, `new`: in the change request), marked by the
 * kind of its row; one of the change request's (`on`: its page and node id) takes comments.
 */
function DiffBlock(props: {
  d: BlockDiff;
  kind: Row['kind'];
  side: 'old' | 'new';
  html: string;
  /** The HTML of an edited block's other version, whose words it is compared with. */
  versus?: string | undefined;
  drawn: Drawn;
  ordinal: number;
  resolving?: Resolver | undefined;
  on?: { page: string; node: string } | undefined;
}) {
  const { d, kind, side, html, versus, drawn: all, ordinal, resolving, on } = props;
  const [label, sign] = LABEL[kind][side];
  const drawn =
    d.node.type === 'conflict' ? (
      <Conflict node={d.node} drawn={all} ordinal={ordinal} resolving={resolving} />
    ) : (
      <Rendered html={html} toNodes={all.toNodes} versus={versus} />
    );
  return (
    <div className={`cr-block cr-${kind} cr-${side}`}>
      <span className="cr-mark" aria-hidden="true">
        {sign}
      </span>
      <span className="sr-only">{label}: </span>
      <div className="cr-block-body">
        {on ? (
          <CommentableBlock {...on} block={d.node}>
            {drawn}
          </CommentableBlock>
        ) : (
          drawn
        )}
      </div>
    </div>
  );
}

/**
 * A conflict block left by an update: each side (`main`, `change request #n`) with its blocks, side by side (one
 * under the other on a narrow screen), and, while the change request is open, a button per side to keep that version
 * (or all of them, one after the other) in its place, and a link to the page in the editor, where the sides are
 * ordinary editable content (then keep the side edited).
 */
function Conflict(props: { node: Node; drawn: Drawn; ordinal: number; resolving?: Resolver | undefined }) {
  const { node, drawn, ordinal, resolving } = props;
  const sides = sidesOf(node);
  const html = drawn.conflicts.get(node) ?? [];
  const action = useAction();
  const [stale, setStale] = useState(false);
  const keep = async (keep: Keep) => {
    const done = await action.run(() => resolving!.resolve(ordinal, node, keep));
    if (done === false) setStale(true);
  };
  return (
    <section className="cr-conflict-block" aria-label="Conflict">
      <p>
        <strong>Conflict</strong>: both versions are kept until one is chosen{resolving ? ' below' : ''}.
      </p>
      <div className="cr-conflict-sides">
        {sides.map((side, i) => (
          <section key={`${side.title}-${String(i)}`} aria-label={`Version of ${side.title}`}>
            <h4>{side.title}</h4>
            {side.nodes.length ? (
              <Rendered html={html[i] ?? ''} toNodes={drawn.toNodes} />
            ) : (
              <p className="muted">(empty)</p>
            )}
          </section>
        ))}
      </div>
      {resolving && (
        <fieldset className="cr-actions cr-resolve">
          <legend className="sr-only">Resolve this conflict</legend>
          {sides.map((side, i) => (
            <button
              key={`${side.title}-${String(i)}`}
              type="button"
              disabled={action.busy}
              onClick={() => keep({ side: i })}
            >
              Keep {side.title}
            </button>
          ))}
          <button type="button" disabled={action.busy} onClick={() => keep('all')}>
            Keep both, one after the other
          </button>
        </fieldset>
      )}
      {resolving && (
        <p>
          <Link href={resolving.editor}>Edit in the editor</Link>{' '}
          <span className="muted">(both versions are editable there; then keep the one you edited here)</span>
        </p>
      )}
      {action.error && <p role="alert">{action.error}</p>}
      {stale && <p role="alert">This conflict changed meanwhile: the page is shown again as it is now.</p>}
    </section>
  );
}
