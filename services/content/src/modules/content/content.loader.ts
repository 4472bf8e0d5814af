import type { GitSyncBlob, List, RevisionSemanticChange } from '@quire/contracts';
import { compareKeys, notFound, pageOfList, type Evaluation, type PageRequest } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { documentEvaluation, readerSeesRevision, readsAsReader } from '../access/access.policy.ts';
import { changeRequestRepository } from '../change-requests/change-request.repository.ts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import { gitSyncRepository, type GitPageBlob } from '../git/git-sync.repository.ts';
import { revisionHistoryRepository } from '../revisions/revision-history.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { diffTrees } from '../merge/index.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { treeIndex, type FileRecord, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';
import { withoutHiddenPages } from './published-view.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import type { SpaceAction } from '../spaces/space.policy.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/** Which revision a read is about: the space's live one, a change request's, or one given by id. */
export type RevisionSelector = { spaceId: string } & ({ changeRequestId: string } | { revisionId: string } | object);

export interface LoadedRevision {
  space: ISpace;
  changeRequest: IChangeRequest | undefined;
  tree: RevisionTree;
}

/**
 * The revision the caller may read (the space's `view`, or another action on its content such as `export`), with its
 * tree. A reader (a published-content token) reads the live revision only, without its hidden pages.
 */
export async function loadRevisionFor(
  ctx: Ctx,
  sel: RevisionSelector,
  action: SpaceAction = 'view',
): Promise<LoadedRevision> {
  const { space } = await loadSpaceFor(ctx, sel.spaceId, action);
  let changeRequest: IChangeRequest | undefined;
  let revisionId = space.revisionId;
  if ('changeRequestId' in sel) {
    changeRequest = await changeRequestRepository.findInSpace(ctx.em, space.id, sel.changeRequestId);
    revisionId = changeRequest.revisionId;
  } else if ('revisionId' in sel) {
    revisionId = sel.revisionId;
  }
  if (!readerSeesRevision(ctx.actor, space, { changeRequest: changeRequest !== undefined, revisionId }))
    throw notFound('Revision');
  const tree = await revisionRepository.treeInSpace(ctx.em, space.id, revisionId);
  return { space, changeRequest, tree: readsAsReader(ctx.actor) ? withoutHiddenPages(tree) : tree };
}

/** A revision the caller may read (see `loadRevisionFor`) with GitBook's `git {oid, path}` of its pages, if Git wrote them. */
export async function loadRevisionWithBlobsFor(
  ctx: Ctx,
  sel: RevisionSelector,
): Promise<LoadedRevision & { blobs: ReadonlyMap<string, GitPageBlob> }> {
  const loaded = await loadRevisionFor(ctx, sel);
  return { ...loaded, blobs: await gitSyncRepository.pageBlobs(ctx.em, loaded.tree.revision.id) };
}

/**
 * GitBook's `git {oid, path}` of a revision's files, by file id: each file's blob and path in the repository as the
 * space's last sync read or wrote it, for the revision that sync holds as the repository's content (its
 * `last_revision`: the revision an import wrote, or the one an export wrote out); none for any other revision.
 */
export async function loadFileBlobs(ctx: Ctx, spaceId: string, revisionId: string): Promise<FileBlobs> {
  const sync = await gitSyncRepository.findSync(ctx.em, spaceId);
  if (!sync || sync.last_revision !== revisionId) return new Map();
  return new Map(
    Object.entries(sync.paths).flatMap(([path, entry]) => (entry.file ? [[entry.file, { oid: entry.oid, path }]] : [])),
  );
}

/** GitBook's `git` of files, by file id (see `loadFileBlobs`). */
export type FileBlobs = ReadonlyMap<string, GitSyncBlob>;

/** How the documents this call reads are evaluated (`evaluated`, and always for a reader: see the access policy). */
export const loadDocumentEvaluation = (
  ctx: Ctx,
  input: { evaluated?: boolean | 'deterministic-only' | undefined },
): Evaluation | null => documentEvaluation(ctx.actor, input.evaluated);

/**
 * A page of a revision's files (all of them, or those of a page), by `(createdAt, id)`. The revision is immutable:
 * the cursor is the last file id of the page (base64url); one naming no file of the list is a 400.
 */
export async function loadFilesFor(
  ctx: Ctx,
  input: RevisionSelector & PageRequest,
): Promise<{ list: List<FileRecord>; git: FileBlobs }> {
  const { space, tree } = await loadRevisionFor(ctx, input);
  // Keyset over (createdAt, id) of the revision's files.
  const keyOf = (f: FileRecord) => [f.createdAt.getTime(), f.id];
  const all = [...tree.files.values()].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  return { list: pageOfList(all, keyOf, input), git: await loadFileBlobs(ctx, space.id, tree.revision.id) };
}

/** What a revision changed in its pages, against its first parent (everything, for the first revision). */
export async function loadSemanticChangesFor(
  ctx: Ctx,
  input: RevisionSelector,
): Promise<{ space: ISpace; changes: RevisionSemanticChange[]; mergedFrom: IChangeRequest | undefined }> {
  const { space, tree } = await loadRevisionFor(ctx, input);
  const parentId = tree.revision.parents[0];
  const parent = parentId ? await revisionRepository.treeInSpace(ctx.em, space.id, parentId) : undefined;
  const changes = await diffTrees(parent?.pages ?? new Map(), tree.pages, (hash) =>
    documentRepository.get(ctx.em, hash),
  );
  const merged = await revisionHistoryRepository.mergedInto(ctx.em, space.id, [tree.revision.id]);
  return { space, changes, mergedFrom: merged.get(tree.revision.id) };
}

/** A page of the tree by id (404 when the revision has no such page). */
export function pageById(tree: RevisionTree, pageId: string): PageRecord {
  const page = tree.pages.get(pageId);
  if (!page) throw notFound('Page');
  return page;
}

/** A document page of the tree by id (404 when the revision has no such page, or it is a group or a link: no document). */
export function documentPageById(tree: RevisionTree, pageId: string): PageRecord {
  const page = pageById(tree, pageId);
  if (page.kind !== 'document') throw notFound('Page document');
  return page;
}

/** A page of the tree by path (`guides/setup`; 404 when none). */
export function pageByPath(tree: RevisionTree, path: string): PageRecord {
  const id = treeIndex(tree.pages).byPath.get(path.replace(/^\/+|\/+$/g, ''));
  if (id === undefined) throw notFound('Page');
  return tree.pages.get(id)!;
}

/** A file of the tree by id (404 when none). */
export function fileById(tree: RevisionTree, fileId: string): FileRecord {
  const file = tree.files.get(fileId);
  if (!file) throw notFound('File');
  return file;
}
