import { Events } from '@quire/contracts';
import { conflict, recordEvent, type EntityManager } from '@quire/kit';
import { mergeBaseOf, type IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
import { mergeTrees } from '../modules/merge/index.ts';
import { documentHash, documentRepository } from '../modules/revisions/document.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { FileRecord, PageRecord, RevisionTree } from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { revisionWriter } from './revision-writer.ts';

export interface MergeOutcome {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
}

const treeOf = async (em: EntityManager, spaceId: string, id: string) => revisionRepository.treeInSpace(em, spaceId, id);

/** Files merged by id: added or removed on one side wins over the other side not touching it; both changed: theirs. */
function mergeFiles(base: RevisionTree, ours: RevisionTree, theirs: RevisionTree): Map<string, FileRecord> {
  const out = new Map<string, FileRecord>();
  for (const id of new Set([...base.files.keys(), ...ours.files.keys(), ...theirs.files.keys()])) {
    const [b, o, t] = [base.files.get(id), ours.files.get(id), theirs.files.get(id)];
    const theirsChanged = b?.blobKey !== t?.blobKey || b?.name !== t?.name;
    const kept = theirsChanged ? t : o;
    if (kept) out.set(id, kept);
  }
  return out;
}

/**
 * Three-way merge of trees (structure by page id, then line level in documents, see modules/merge), the result
 * as page records: dates kept from the side whose page is taken, `updatedAt` now for pages the merge made.
 */
async function threeWay(em: EntityManager, base: RevisionTree, ours: RevisionTree, theirs: RevisionTree, labels: { ours: string; theirs: string }, now: Date) {
  const merged = await mergeTrees({ base: base.pages, ours: ours.pages, theirs: theirs.pages, loadMarkdown: (hash) => documentRepository.get(em, hash), labels }, documentHash);
  const pages = new Map<string, PageRecord>();
  for (const [id, snap] of merged.tree) {
    const same = (p: PageRecord | undefined) => p !== undefined && p.documentHash === snap.documentHash && p.title === snap.title && p.parentId === snap.parentId && p.order === snap.order && p.slug === snap.slug;
    const from = [ours.pages.get(id), theirs.pages.get(id)].find(same);
    const known = ours.pages.get(id) ?? theirs.pages.get(id) ?? base.pages.get(id);
    pages.set(id, { ...snap, createdAt: known?.createdAt ?? now, updatedAt: from?.updatedAt ?? now });
  }
  return { pages, files: mergeFiles(base, ours, theirs), documents: merged.documents, conflicts: merged.conflicts };
}

/** Pages created, changed or deleted from `before` to `after` (for `space.content-updated`). */
function changedPages(before: RevisionTree, after: ReadonlyMap<string, PageRecord>): string[] {
  const out: string[] = [];
  for (const [id, p] of after) if (before.pages.get(id) !== p) out.push(id);
  for (const id of before.pages.keys()) if (!after.has(id)) out.push(id);
  return out;
}

export interface ChangeRequestMergerProps {
  space: ISpace;
  changeRequest: IChangeRequest;
  userId: string;
  now?: Date;
}

function assertOpenForChanges(space: ISpace, cr: IChangeRequest, action: string): void {
  if (space.editMode === 'locked') throw conflict(`The space is locked (editMode \`locked\`): ${action} is refused`);
  if (cr.status === 'merged') throw conflict('The change request is already merged');
  if (cr.status === 'archived') throw conflict('The change request is archived: reopen it first');
}

/**
 * Merges a change request into its space: a three-way merge against the merge base (the main revision the
 * change request was created from or last updated to), into a new main revision with two parents. Merges into
 * one space are serialized (the space row is locked until commit), so two racing merges never lose an update.
 * Conflicts keep both sides between markers in the pages (`result: conflicts`), never losing either.
 */
export async function changeRequestMerger(em: EntityManager, props: ChangeRequestMergerProps): Promise<MergeOutcome> {
  const { space, changeRequest: cr } = props;
  assertOpenForChanges(space, cr, 'merging');
  const now = props.now ?? new Date();
  const mainId = await spaceRepository.lockRevision(em, space.id);
  const [main, head] = await Promise.all([treeOf(em, space.id, mainId), treeOf(em, space.id, cr.revisionId)]);
  const baseId = mergeBaseOf(cr);
  const merged =
    baseId === mainId
      ? { pages: head.pages, files: head.files, documents: new Map<string, string>(), conflicts: [] }
      : await threeWay(em, await treeOf(em, space.id, baseId), main, head, { ours: 'main', theirs: `change request #${cr.number}` }, now);
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: main,
    parents: [main.revision.id, head.revision.id],
    type: 'merge',
    createdBy: props.userId,
    pages: merged.pages,
    files: merged.files,
    documents: merged.documents,
    conflicts: merged.conflicts,
    now,
  });
  await spaceRepository.setRevision(em, space.id, tree.revision.id, now);
  space.revisionId = tree.revision.id;
  const previousStatus = cr.status;
  Object.assign(cr, { status: 'merged', revisionMerged: tree.revision.id, mergedBy: props.userId, mergedAt: now, updatedAt: now });
  em.persist(cr);
  await changeRequestRepository.count(em, space.id, previousStatus, 'merged');
  const base = { space: space.id, organization: space.organizationId };
  recordEvent(em, Events.changeRequestStatusChanged, { ...base, changeRequest: cr.id, status: 'merged', previousStatus });
  recordEvent(em, Events.changeRequestMerged, { ...base, changeRequest: cr.id, revision: tree.revision.id, conflicts: merged.conflicts.length });
  recordEvent(em, Events.spaceContentUpdated, { ...base, revision: tree.revision.id, previousRevision: main.revision.id, pages: changedPages(main, tree.pages) });
  return { revision: tree.revision.id, result: merged.conflicts.length ? 'conflicts' : 'merge' };
}

/**
 * Brings the space's live content into a change request: a three-way merge with the change request's side as
 * "ours", into a new revision of the change request (parents: its head and main); its merge base becomes main.
 */
export async function changeRequestRebaser(em: EntityManager, props: ChangeRequestMergerProps): Promise<MergeOutcome> {
  const { space, changeRequest: cr } = props;
  assertOpenForChanges(space, cr, 'updating');
  const now = props.now ?? new Date();
  const mainId = await spaceRepository.lockRevision(em, space.id);
  const baseId = mergeBaseOf(cr);
  if (baseId === mainId) return { revision: cr.revisionId, result: 'update' };
  const [base, main, head] = await Promise.all([treeOf(em, space.id, baseId), treeOf(em, space.id, mainId), treeOf(em, space.id, cr.revisionId)]);
  const merged = await threeWay(em, base, head, main, { ours: `change request #${cr.number}`, theirs: 'main' }, now);
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base: head,
    parents: [head.revision.id, main.revision.id],
    type: 'update',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages: merged.pages,
    files: merged.files,
    documents: merged.documents,
    conflicts: merged.conflicts,
    now,
  });
  Object.assign(cr, { revisionId: tree.revision.id, revisionMergedAncestor: mainId, updatedAt: now });
  em.persist(cr);
  recordEvent(em, Events.changeRequestUpdated, { space: space.id, organization: space.organizationId, changeRequest: cr.id, fields: ['revision'] });
  return { revision: tree.revision.id, result: merged.conflicts.length ? 'conflicts' : 'update' };
}
