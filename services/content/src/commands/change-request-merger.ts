import { Events } from '@quire/contracts';
import { conflict, recordEvent, type EntityManager } from '@quire/kit';
import { mergeBaseOf, type IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
import { pageNames, pagesWithConflictBlocks } from '../modules/change-requests/change-request-conflicts.ts';
import { conflictsIn } from '@quire/document/model';
import { isWellFormed, markWellFormed, mergeChangedPages, mergeTrees } from '../modules/merge/index.ts';
import { assertMergeRulesMet } from '../modules/merge-rules/merge-rules.ts';
import { inTreeOrder, type PageSnapshot } from '../modules/merge/tree.ts';
import { documentHash, documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import {
  mergeReusableContents,
  reusableContentNames,
  reusableContentsWithConflictBlocks,
} from '../modules/reusable-content/reusable-content-merge.ts';
import {
  childrenIndex,
  reusableContentsOf,
  type ChangedIds,
  type FileRecord,
  type PageRecord,
  type ReusableContentRecord,
  type RevisionTree,
} from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { assertEditable } from './edit-state.ts';
import { revisionWriter } from './revision-writer.ts';

export interface MergeOutcome {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
}

const treeOf = async (em: EntityManager, spaceId: string, id: string) =>
  revisionRepository.treeInSpace(em, spaceId, id);

/** Files merged by id: added or removed on one side wins over the other side not touching it; both changed: theirs. */
function mergeFile(id: string, base: RevisionTree, ours: RevisionTree, theirs: RevisionTree): FileRecord | undefined {
  const [b, o, t] = [base.files.get(id), ours.files.get(id), theirs.files.get(id)];
  const theirsChanged = b?.blobKey !== t?.blobKey || b?.name !== t?.name;
  return theirsChanged ? t : o;
}

function mergeFiles(base: RevisionTree, ours: RevisionTree, theirs: RevisionTree): Map<string, FileRecord> {
  const out = new Map<string, FileRecord>();
  for (const id of new Set([...base.files.keys(), ...ours.files.keys(), ...theirs.files.keys()])) {
    const kept = mergeFile(id, base, ours, theirs);
    if (kept) out.set(id, kept);
  }
  return out;
}

interface ThreeWay {
  base: RevisionTree;
  ours: RevisionTree;
  theirs: RevisionTree;
  labels: { ours: string; theirs: string };
  /** Write page-level conflicts as conflict blocks (an update). */
  conflictBlocks: boolean;
  /** The pages and files that may differ between the base and either side (null: unknown, the trees are compared). */
  changed: ChangedIds | null;
  now: Date;
}

/**
 * The pages and files that may differ between the base and either side, from the revisions' rows (null: unknown);
 * `known`: what is already known of one side.
 */
async function changedSinceBase(
  em: EntityManager,
  base: RevisionTree,
  sides: RevisionTree[],
  known: ChangedIds[] = [],
): Promise<ChangedIds | null> {
  const pages = new Set<string>();
  const files = new Set<string>();
  for (const side of [...known, ...sides]) {
    const changed =
      'revision' in side ? await revisionRepository.changedBetween(em, base.revision, side.revision) : side;
    if (!changed) return null;
    for (const id of changed.pages) pages.add(id);
    for (const id of changed.files) files.add(id);
  }
  return { pages, files };
}

/**
 * Three-way merge of trees and of their reusable contents (`mergeReusableContents`). The pages (`threeWayPages`):
 * structure by page id, then block by block in documents, see modules/merge), the result
 * as page records: dates kept from the side whose page is taken, `updatedAt` now for pages the merge made. When the
 * pages that changed since the base are known and ours is well formed, only they (and their siblings) are merged
 * (`mergeChangedPages`: the same result, at the cost of what changed); otherwise the whole trees are.
 */
async function threeWay(em: EntityManager, props: ThreeWay) {
  const { base, ours, theirs, labels, now } = props;
  const pages = await threeWayPages(em, props);
  const reusable = await mergeReusableContents(
    {
      base: reusableContentsOf(base),
      ours: reusableContentsOf(ours),
      theirs: reusableContentsOf(theirs),
      loadMarkdown: (hash) => documentRepository.get(em, hash),
      labels,
      now,
    },
    documentHash,
  );
  return {
    ...pages,
    documents: new Map([...pages.documents, ...reusable.documents]),
    reusableContents: reusable.records as ReadonlyMap<string, ReusableContentRecord>,
    reusableConflicts: reusable.conflicts,
  };
}

/** The pages and files of a three-way merge (see `threeWay`). */
async function threeWayPages(
  em: EntityManager,
  { base, ours, theirs, labels, conflictBlocks, changed, now }: ThreeWay,
) {
  const loadMarkdown = (hash: string) => documentRepository.get(em, hash);
  const input = { base: base.pages, ours: ours.pages, theirs: theirs.pages, loadMarkdown, labels, conflictBlocks };
  const record = (id: string, snap: PageSnapshot): PageRecord => {
    const same = (p: PageRecord | undefined) =>
      p !== undefined &&
      p.documentHash === snap.documentHash &&
      p.title === snap.title &&
      p.parentId === snap.parentId &&
      p.order === snap.order &&
      p.slug === snap.slug;
    const from = [ours.pages.get(id), theirs.pages.get(id)].find(same);
    const known = ours.pages.get(id) ?? theirs.pages.get(id) ?? base.pages.get(id);
    return { ...snap, createdAt: known?.createdAt ?? now, updatedAt: from?.updatedAt ?? now };
  };
  if (changed && isWellFormed(ours.pages)) {
    const merged = await mergeChangedPages(
      input,
      { pages: changed.pages, oursChildren: childrenIndex(ours.pages) },
      documentHash,
    );
    // Ours, with what the merge changed (every other page is the same on the three sides).
    const pages = new Map(ours.pages);
    for (const [id, snap] of merged.changed) {
      if (snap) pages.set(id, record(id, snap));
      else pages.delete(id);
    }
    markWellFormed(pages);
    const files = new Map(ours.files);
    for (const id of changed.files) {
      const kept = mergeFile(id, base, ours, theirs);
      if (kept) files.set(id, kept);
      else files.delete(id);
    }
    return {
      pages,
      files,
      documents: merged.documents,
      conflicts: merged.conflicts,
      changed: { pages: new Set(merged.changed.keys()), files: changed.files } as ChangedIds | undefined,
      inReadingOrder: false,
    };
  }
  const merged = await mergeTrees(input, documentHash);
  const pages = new Map<string, PageRecord>();
  for (const [id, snap] of merged.tree) pages.set(id, record(id, snap));
  return {
    pages,
    files: mergeFiles(base, ours, theirs),
    documents: merged.documents,
    conflicts: merged.conflicts,
    /** Unknown: every page of the merged tree is a new record. */
    changed: undefined as ChangedIds | undefined,
    inReadingOrder: true,
  };
}

/**
 * Pages created, changed or deleted from `before` to `after` (for `space.content-updated`); only the ids in `changed`
 * when given (the others are the same in both).
 */
function changedPages(
  before: RevisionTree,
  after: ReadonlyMap<string, PageRecord>,
  changed: ReadonlySet<string> | undefined,
): string[] {
  if (changed) return [...changed].filter((id) => before.pages.get(id) !== after.get(id));
  const out: string[] = [];
  for (const [id, p] of after) if (before.pages.get(id) !== p) out.push(id);
  for (const id of before.pages.keys()) if (!after.has(id)) out.push(id);
  return out;
}

/** A merge is refused (409) while a reusable content the change request changed holds a conflict block. */
async function assertNoReusableConflictBlocks(em: EntityManager, head: RevisionTree, base: RevisionTree) {
  const blocked = await reusableContentsWithConflictBlocks(reusableContentsOf(head), reusableContentsOf(base), (hash) =>
    documentRepository.get(em, hash),
  );
  if (blocked.length) {
    throw conflict(
      `The change request has unresolved conflicts in the reusable contents ${reusableContentNames(blocked)}: ` +
        'edit them so that no conflict block remains, then merge',
    );
  }
}

export interface ChangeRequestMergerProps {
  space: ISpace;
  changeRequest: IChangeRequest;
  userId: string;
  now?: Date;
  /**
   * `git-sync`: the merge is Git Sync's own (its system actor, docs/git-sync.md#merge-rules): the change request of an
   * import holds what the repository already holds, nobody could approve it, so the merge rules are not evaluated.
   */
  actor?: 'member' | 'git-sync';
}

const labelsOf = (cr: IChangeRequest) => ({ ours: 'main', theirs: `change request #${cr.number}` });

/**
 * Locks the space's live revision, then the change request (an edit of its content locks the change request
 * alone, never the space, so no two of them wait on each other in opposite orders): merges and updates of one
 * space, and edits of the change request, run one at a time. Reads main's and the change request's trees as
 * they are now.
 */
async function lockBoth(em: EntityManager, space: ISpace, given: IChangeRequest) {
  const mainId = await spaceRepository.lockRevision(em, space.id);
  const cr = await changeRequestRepository.lock(em, given);
  assertEditable(space, cr, { openOnly: true });
  const [main, head] = await Promise.all([treeOf(em, space.id, mainId), treeOf(em, space.id, cr.revisionId)]);
  return { cr, main, head };
}

/** Records which pages conflict (ids; empty: none), with an event when that changed. */
function markConflicts(em: EntityManager, space: ISpace, cr: IChangeRequest, pageIds: string[], now: Date): void {
  if (JSON.stringify(cr.conflicts) === JSON.stringify(pageIds)) return;
  Object.assign(cr, { conflicts: pageIds, updatedAt: now });
  em.persist(cr);
  recordEvent(em, Events.changeRequestUpdated, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    fields: ['conflicts'],
  });
}

interface GoLive {
  space: ISpace;
  cr: IChangeRequest;
  main: RevisionTree;
  head: RevisionTree;
  merged: {
    pages: ReadonlyMap<string, PageRecord>;
    files: ReadonlyMap<string, FileRecord>;
    reusableContents: ReadonlyMap<string, ReusableContentRecord>;
    documents: ReadonlyMap<string, string>;
    /** The pages and files that may differ from main's (unknown: the whole trees are compared). */
    changed?: ChangedIds | undefined;
  };
  userId: string;
  now: Date;
}

/** Writes a clean merge as main's new revision, marks the change request merged, records the events. */
async function goLive(em: EntityManager, { space, cr, main, head, merged, userId, now }: GoLive): Promise<string> {
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: main,
    parents: [main.revision.id, head.revision.id],
    type: 'merge',
    createdBy: userId,
    pages: merged.pages,
    files: merged.files,
    reusableContents: merged.reusableContents,
    documents: merged.documents,
    ...(merged.changed && { changed: merged.changed }),
    now,
  });
  await spaceRepository.setRevision(em, space.id, tree.revision.id, now);
  space.revisionId = tree.revision.id;
  const previousStatus = cr.status;
  Object.assign(cr, {
    status: 'merged',
    revisionMerged: tree.revision.id,
    mergedBy: userId,
    mergedAt: now,
    updatedAt: now,
    conflicts: [],
  });
  em.persist(cr);
  await changeRequestRepository.count(em, space.id, previousStatus, 'merged');
  const base = { space: space.id, organization: space.organizationId };
  recordEvent(em, Events.changeRequestStatusChanged, {
    ...base,
    changeRequest: cr.id,
    status: 'merged',
    previousStatus,
  });
  recordEvent(em, Events.changeRequestMerged, {
    ...base,
    changeRequest: cr.id,
    revision: tree.revision.id,
    conflicts: 0,
  });
  recordEvent(em, Events.spaceContentUpdated, {
    ...base,
    revision: tree.revision.id,
    previousRevision: main.revision.id,
    pages: changedPages(main, tree.pages, merged.changed?.pages),
  });
  return tree.revision.id;
}

/**
 * Merges a change request into its space: a three-way merge against the merge base (the main revision the
 * change request was created from or last updated to), into a new main revision with two parents. Merges into
 * one space are serialized (the space row is locked until commit), so two racing merges never lose an update.
 *
 * A conflict never reaches main: while a page of the change request holds a conflict block (left by an update),
 * the merge is refused (409, naming the pages); when the three-way merge finds conflicts, nothing is written to
 * main, the change request is marked conflicting (its conflicting pages recorded, listed by `.../changes`), and
 * the answer is `result: conflicts` with main's revision, the one it conflicts with (run update to resolve them).
 *
 * It costs what changed, not the size of the space: the pages the change request changed since its base, and those
 * main changed since, are read from the rows of their revisions (`revisionRepository.changedBetween`); only those are
 * checked for conflict blocks, merged (with their siblings) and compared with main's to write the new revision.
 */
export async function changeRequestMerger(em: EntityManager, props: ChangeRequestMergerProps): Promise<MergeOutcome> {
  const { space } = props;
  const now = props.now ?? new Date();
  const { cr, main, head } = await lockBoth(em, space, props.changeRequest);
  // The merge rules in force (the space's or its organization's), read under the locks: 409 naming the unmet ones.
  if (props.actor !== 'git-sync')
    await assertMergeRulesMet(em, { space, changeRequest: cr, userId: props.userId, mainRevisionId: main.revision.id });
  const baseId = mergeBaseOf(cr);
  const base = baseId === main.revision.id ? main : await treeOf(em, space.id, baseId);
  // What the change request changed since its base, from the rows of its revisions (not by comparing the trees).
  const sinceBase = await revisionRepository.changedBetween(em, base.revision, head.revision);
  // Only the change request's own changes can hold a conflict block (its base, a main revision, holds none).
  const blocked = await pagesWithConflictBlocks(em, head.pages, base.pages, sinceBase?.pages);
  if (blocked.length) {
    throw conflict(
      `The change request has unresolved conflicts in ${pageNames(blocked)}: ` +
        'edit these pages so that no conflict block remains, then merge',
    );
  }
  await assertNoReusableConflictBlocks(em, head, base);
  const merged =
    base === main
      ? {
          pages: head.pages,
          files: head.files,
          reusableContents: reusableContentsOf(head),
          reusableConflicts: [],
          documents: new Map<string, string>(),
          conflicts: [],
          changed: sinceBase ?? undefined,
          inReadingOrder: false,
        }
      : await threeWay(em, {
          base,
          ours: main,
          theirs: head,
          labels: labelsOf(cr),
          conflictBlocks: false,
          changed: sinceBase && (await changedSinceBase(em, base, [main], [sinceBase])),
          now,
        });
  if (merged.conflicts.length || merged.reusableConflicts.length) {
    // In the merged tree's reading order (a conflicting page is always kept by the merge).
    const conflicted = new Set(merged.conflicts.map((c) => c.pageId));
    const ordered = merged.inReadingOrder ? [...merged.pages.keys()] : inTreeOrder(merged.pages).map((p) => p.id);
    markConflicts(
      em,
      space,
      cr,
      ordered.filter((id) => conflicted.has(id)),
      now,
    );
    return { revision: main.revision.id, result: 'conflicts' };
  }
  const revision = await goLive(em, { space, cr, main, head, merged, userId: props.userId, now });
  return { revision, result: 'merge' };
}

/**
 * Brings the space's live content into a change request: the same three-way merge as a merge (main as "ours",
 * the change request as "theirs"), into a new revision of the change request (parents: its head and main); its
 * merge base becomes main. Each conflict is written into the change request's pages as a conflict block holding
 * both sides (see modules/merge): `result: conflicts` while any page of the change request holds one, and those
 * pages are recorded as its conflicts. An update of a change request already up to date writes nothing.
 */
export async function changeRequestRebaser(em: EntityManager, props: ChangeRequestMergerProps): Promise<MergeOutcome> {
  const { space } = props;
  const now = props.now ?? new Date();
  const { cr, main, head } = await lockBoth(em, space, props.changeRequest);
  const baseId = mergeBaseOf(cr);
  if (baseId === main.revision.id)
    return { revision: cr.revisionId, result: cr.conflicts.length ? 'conflicts' : 'update' };
  const base = await treeOf(em, space.id, baseId);
  const merged = await threeWay(em, {
    base,
    ours: main,
    theirs: head,
    labels: labelsOf(cr),
    conflictBlocks: true,
    changed: await changedSinceBase(em, base, [main, head]),
    now,
  });
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: head,
    parents: [head.revision.id, main.revision.id],
    type: 'update',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages: merged.pages,
    files: merged.files,
    reusableContents: merged.reusableContents,
    documents: merged.documents,
    conflicts: merged.conflicts,
    ...(merged.changed && { changed: merged.changed }),
    now,
  });
  Object.assign(cr, { revisionId: tree.revision.id, revisionMergedAncestor: main.revision.id, updatedAt: now });
  em.persist(cr);
  recordEvent(em, Events.changeRequestUpdated, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    fields: ['revision'],
  });
  // The pages that may differ from main's: those the merge changed (the others are main's), else from the rows.
  const sinceMain = merged.changed ?? (await revisionRepository.changedBetween(em, main.revision, tree.revision));
  const blocked = await pagesWithConflictBlocks(em, tree.pages, main.pages, sinceMain?.pages);
  markConflicts(
    em,
    space,
    cr,
    blocked.map((p) => p.id),
    now,
  );
  const reusableBlocked = await reusableContentsWithConflictBlocks(
    reusableContentsOf(tree),
    reusableContentsOf(main),
    (hash) => documentRepository.get(em, hash),
  );
  return { revision: tree.revision.id, result: blocked.length || reusableBlocked.length ? 'conflicts' : 'update' };
}

/**
 * After an edit of a change request's content (`before`: its head before the edit), its recorded conflicts follow
 * its pages: a page that held a conflict block and holds none now is resolved (so is a deleted page), a page the
 * edit gave a conflict block is conflicting; conflicts a refused merge found in pages without blocks stay until
 * the next update or merge looks again.
 */
export async function changeRequestConflictsRefresher(
  em: EntityManager,
  props: { space: ISpace; changeRequest: IChangeRequest; before: RevisionTree; now?: Date },
): Promise<void> {
  const { space, changeRequest: cr, before } = props;
  const after = await treeOf(em, space.id, cr.revisionId);
  // The pages the edit wrote, from its rows (an edit costs what it changes); all of them when that cannot tell.
  const written = await revisionRepository.changedBetween(em, before.revision, after.revision);
  const candidates = written ? [...written.pages].flatMap((id) => after.pages.get(id) ?? []) : after.pages.values();
  const edited = [...candidates].filter(
    (p) => p.documentHash !== null && before.pages.get(p.id)?.documentHash !== p.documentHash,
  );
  const recorded = cr.conflicts.filter((id) => after.pages.has(id));
  const hashes = [...edited, ...recorded.flatMap((id) => [before.pages.get(id), after.pages.get(id)])].flatMap((p) =>
    p?.documentHash ? [p.documentHash] : [],
  );
  const texts = await documentRepository.getMany(em, hashes);
  const blocks = (p: PageRecord | undefined) =>
    p?.documentHash ? conflictsIn(texts.get(p.documentHash) ?? '') > 0 : false;
  const conflicting = new Set(recorded.filter((id) => blocks(after.pages.get(id)) || !blocks(before.pages.get(id))));
  for (const p of edited) if (blocks(p)) conflicting.add(p.id);
  // In reading order; the whole tree is ordered only when there is a conflict to order (an edit costs what it changes).
  const ordered = conflicting.size
    ? inTreeOrder(after.pages).flatMap((p) => (conflicting.has(p.id) ? [p.id] : []))
    : [];
  markConflicts(em, space, cr, ordered, props.now ?? new Date());
}
