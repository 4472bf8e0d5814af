import { useState } from 'react';
import { Link } from 'wouter';
import { type ChangeRequest, changesApi, type Page, type SemanticChange } from '../../api/changes.ts';
import { useAction, useLoad } from '../../api/use.ts';
import { downloadSrc } from '../../editor/uploads.ts';
import { type Node, nodes } from '../PageView.tsx';
import { CommentableBlock, EarlierBlockComments } from './BlockComments.tsx';
import { type BlockDiff, diffBlocks, MAX_BLOCKS, nodeIdsOf } from './blocks.ts';
import { conflictsIn, type Keep, resolveConflict, sidesOf } from './resolve.ts';

type PageChange = Extract<SemanticChange, { page: unknown }>;

const VERB: Record<PageChange['type'], string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Removed',
  page_moved: 'Moved',
};

const blocksOf = (p: Page | undefined): Node[] =>
  (p && 'document' in p ? ((p.document as { nodes?: Node[] } | undefined)?.nodes ?? []) : []) as Node[];

/** The merge base of a change request: the main revision it was created from or last updated to. */
export const baseOf = (cr: ChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;

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
}

/**
 * What a change request changes (`GET …/changes`): one entry per page, each opening a block-level comparison; while
 * the change request is open, its conflict blocks can be resolved there (`onChange` after each).
 */
export function Changes({ org, space, cr, onChange }: Where) {
  const changes = useLoad(() => changesApi.changes(space, cr.id), `${cr.id}:${cr.revision}`);
  if (changes.error) return <p role="alert">{changes.error.message}</p>;
  if (!changes.data) return <p aria-live="polite">Loading the changes…</p>;
  const list = changes.data.changes;
  if (list.length === 0) return <p className="muted">This change request changes nothing yet.</p>;
  return (
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
          />
        ) : (
          <FileEntry key={`${c.type}:${c.file.id}`} change={c} />
        ),
      )}
      {changes.data.more ? <li className="muted">And {changes.data.more} more changes.</li> : null}
    </ul>
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

/** A page before (at the merge base) and after (in the change request), block by block. */
function PageDiff({ org, space, cr, change, onChange }: Where & { change: PageChange }) {
  const id = change.page.id;
  const versions = useLoad(
    async () => ({
      before: change.type === 'page_created' ? undefined : await changesApi.pageInRevision(space, baseOf(cr), id),
      after: change.type === 'page_deleted' ? undefined : await changesApi.pageInChangeRequest(space, cr.id, id),
    }),
    `${cr.revision}:${id}`,
  );
  if (versions.error) return <p role="alert">{versions.error.message}</p>;
  if (!versions.data) return <p aria-live="polite">Loading the page…</p>;
  const before = blocksOf(versions.data.before);
  const after = blocksOf(versions.data.after);
  if (before.length + after.length > MAX_BLOCKS)
    return <p>This page has too many blocks to compare here ({before.length + after.length}).</p>;
  const diff = diffBlocks(before, after);
  const live = cr.status === 'open' || cr.status === 'draft';
  const resolving =
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
  const added = diff.filter((d) => d.kind === 'added').length;
  const removed = diff.filter((d) => d.kind === 'removed').length;
  return (
    <>
      <p className="muted">
        {added} block{added === 1 ? '' : 's'} added, {removed} removed.
      </p>
      <ol className="cr-diff">
        {diff.map((d, i) => (
          <DiffBlock
            key={d.id}
            d={d}
            ordinal={conflictsBefore(diff, i)}
            resolving={resolving}
            on={d.kind === 'removed' ? undefined : { page: id, node: ids[d.index]! }}
          />
        ))}
      </ol>
      <EarlierBlockComments page={id} nodes={ids} />
    </>
  );
}

const LABEL = { same: 'Unchanged', removed: 'Removed', added: 'Added' } as const;

type Resolver = Resolving & { resolve(ordinal: number, shown: Node, keep: Keep): Promise<boolean> };

/** How many conflict blocks the page (the change request's side) holds before the `i`-th block of the diff. */
const conflictsBefore = (diff: BlockDiff[], i: number) =>
  conflictsIn(diff.slice(0, i).flatMap((d) => (d.kind === 'removed' ? [] : [d.node])) as never);

/** A block of the comparison; one of the change request's (`on`: its page and node id) takes comments. */
function DiffBlock(props: {
  d: BlockDiff;
  ordinal: number;
  resolving?: Resolver | undefined;
  on?: { page: string; node: string } | undefined;
}) {
  const { d, ordinal, resolving, on } = props;
  const drawn =
    d.node.type === 'conflict' ? (
      <Conflict node={d.node} ordinal={ordinal} resolving={d.kind === 'removed' ? undefined : resolving} />
    ) : (
      nodes([d.node])
    );
  return (
    <li className={`cr-block cr-${d.kind}`}>
      <span className="cr-mark" aria-hidden="true">
        {d.kind === 'added' ? '+' : d.kind === 'removed' ? '−' : ' '}
      </span>
      <span className="sr-only">{LABEL[d.kind]}: </span>
      <div className="cr-block-body">
        {on ? (
          <CommentableBlock {...on} block={d.node}>
            {drawn}
          </CommentableBlock>
        ) : (
          <div className="document">{drawn}</div>
        )}
      </div>
    </li>
  );
}

/**
 * A conflict block left by an update: each side (`main`, `change request #n`) with its blocks, and, while the change
 * request is open, a button per side to keep that version (or all of them, one after the other) in its place, and a
 * link to the page in the editor, where the sides are ordinary editable content (then keep the side edited).
 */
function Conflict({ node, ordinal, resolving }: { node: Node; ordinal: number; resolving?: Resolver | undefined }) {
  const sides = sidesOf(node);
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
      {sides.map((side, i) => (
        <section key={`${side.title}-${String(i)}`} aria-label={`Version of ${side.title}`}>
          <h4>{side.title}</h4>
          {side.nodes.length ? nodes(side.nodes as Node[]) : <p className="muted">(empty)</p>}
        </section>
      ))}
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
