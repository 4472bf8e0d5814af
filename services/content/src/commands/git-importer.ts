import type { EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import type { RevisionTree } from '../modules/revisions/revision-tree.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import type { PlannedTree } from '../modules/git/tree-plan.ts';
import { changeRequestMerger, changeRequestRebaser } from './change-request-merger.ts';
import { changeRequestContentWriter, changeRequestCreator, changeRequestUpdater } from './change-request-writer.ts';
import { revisionWriter } from './revision-writer.ts';

export interface GitImporterProps {
  space: ISpace;
  /** The revision the plan was made against (the space's at the time). */
  head: RevisionTree;
  plan: PlannedTree;
  userId: string;
  /** A revision only (GitBook's `standalone`), the space's content unchanged. */
  standalone: boolean;
  /** Names the change request: `Import of <url> at <commit>`. */
  subject: string;
  now?: Date;
}

/**
 * Writes an imported repository: nothing when it changes nothing; `standalone`, one revision of the space outside
 * its main line; otherwise through a change request of its own, created and merged at once (the space gets a
 * merge revision with the change request's events and `space.content-updated`, as any merge). Returns the
 * revision written (null when nothing changed).
 */
export async function gitImporter(em: EntityManager, props: GitImporterProps): Promise<string | null> {
  const { space, head, plan } = props;
  if (!plan.changed) return null;
  const now = props.now ?? new Date();
  if (props.standalone) {
    const tree = await revisionWriter(em, {
      spaceId: space.id,
      base: head,
      parents: [head.revision.id],
      type: 'edits',
      createdBy: props.userId,
      pages: plan.pages,
      files: plan.files,
      ...(plan.reusableContents ? { reusableContents: plan.reusableContents } : {}),
      documents: plan.documents,
      now,
    });
    return tree.revision.id;
  }
  const cr = await changeRequestCreator(em, {
    space,
    createdBy: props.userId,
    subject: props.subject.slice(0, 100),
    now,
  });
  const crHead =
    cr.revisionId === head.revision.id ? head : await revisionRepository.treeInSpace(em, space.id, cr.revisionId);
  await writeIntoChangeRequest(em, { space, cr, base: crHead, plan, userId: props.userId, now });
  const merged = await mergedByGitSync(em, { space, changeRequest: cr, userId: props.userId, now });
  return merged.revision;
}

/** The change request merged by Git Sync (its system actor, whatever the merge rules ask). */
const mergedByGitSync = (em: EntityManager, props: Omit<Parameters<typeof changeRequestMerger>[1], 'actor'>) =>
  changeRequestMerger(em, { ...props, actor: 'git-sync' });

/**
 * Writes the planned tree as the change request's new revision on `base` (the imports' edit of a change request,
 * as `contentEditor`'s): the change request points at it, its author is a contributor, `change-request.updated`.
 */
async function writeIntoChangeRequest(
  em: EntityManager,
  props: { space: ISpace; cr: IChangeRequest; base: RevisionTree; plan: PlannedTree; userId: string; now: Date },
): Promise<RevisionTree> {
  const { space, cr, base, plan, now } = props;
  const tree = await revisionWriter(em, {
    spaceId: space.id,
    base,
    parents: [base.revision.id],
    type: 'edits',
    createdBy: props.userId,
    changeRequestId: cr.id,
    pages: plan.pages,
    files: plan.files,
    ...(plan.reusableContents ? { reusableContents: plan.reusableContents } : {}),
    documents: plan.documents,
    now,
  });
  await changeRequestContentWriter(em, { space, cr, revisionId: tree.revision.id, userId: props.userId, now });
  return tree;
}

export interface GitConflictImporterProps {
  space: ISpace;
  /** The revision whose content the remote had at the last sync: the change request branches from it. */
  base: RevisionTree;
  /** The remote's content, planned against `base`. */
  plan: PlannedTree;
  userId: string;
  subject: string;
  now?: Date;
}

export interface GitConflictImport {
  changeRequest: string;
  /** The change request's revision holding the remote's content as it is (the next sync's merge base). */
  remoteRevision: string;
  /** The new main revision when the two sides merged cleanly; null when they conflict (the change request stays open). */
  merged: string | null;
}

/**
 * The remote's side when both sides changed since the last sync: a change request branched from the revision last
 * synced (`base`), holding the remote's content, merged at once when the three-way merge with main is clean;
 * otherwise brought up to date with main (each conflict written into its pages as a conflict block, both sides
 * kept, see docs/change-requests.md) and left open for review. Nothing either side wrote is lost.
 */
export async function gitConflictImporter(
  em: EntityManager,
  props: GitConflictImporterProps,
): Promise<GitConflictImport> {
  const { space, base, plan } = props;
  const now = props.now ?? new Date();
  const cr = await changeRequestCreator(em, {
    space,
    createdBy: props.userId,
    subject: props.subject.slice(0, 100),
    now,
  });
  cr.revisionInitial = base.revision.id;
  const tree = await writeIntoChangeRequest(em, { space, cr, base, plan, userId: props.userId, now });
  const merged = await mergedByGitSync(em, { space, changeRequest: cr, userId: props.userId, now });
  if (merged.result === 'merge')
    return { changeRequest: cr.id, remoteRevision: tree.revision.id, merged: merged.revision };
  await changeRequestRebaser(em, { space, changeRequest: cr, userId: props.userId, now });
  await changeRequestUpdater(em, { space, changeRequest: cr, status: 'open', now });
  return { changeRequest: cr.id, remoteRevision: tree.revision.id, merged: null };
}
