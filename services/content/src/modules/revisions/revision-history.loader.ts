import { REVISIONS_PAGE_SIZE, type List } from '@quire/contracts';
import { cursorText, decodeCursor, encodeCursor, notACursor, type PageRequest } from '@quire/kit';
import { z } from 'zod';
import type { ContentContext } from '../../trpc.ts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import type { GitRevisionRow } from '../git/git-connection.repository.ts';
import { gitSyncRepository, type GitPageBlob } from '../git/git-sync.repository.ts';
import { loadFileBlobs, type FileBlobs } from '../content/content.loader.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { revisionHistoryRepository } from './revision-history.repository.ts';
import type { RevisionTree } from './revision-tree.ts';
import { revisionRepository } from './revision.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/** What a revision is presented with (GitBook's Revision): its tree, the Git blobs and commit, the change request merged. */
export interface RevisionParts {
  tree: RevisionTree;
  blobs: ReadonlyMap<string, GitPageBlob>;
  fileBlobs: FileBlobs;
  commit: GitRevisionRow | null;
  /** The change request a merge revision merged (the history's items only: see `loadRevisionParts`). */
  mergedFrom: IChangeRequest | undefined;
}

/**
 * The parts of revisions of a space (see RevisionParts), in the order given; `mergedFrom` with `changeRequests` only
 * (the history): presenting a change request asks org-admin for its authors, a cost the reads of one revision's
 * content (`getRevisionById`, `getCurrentRevision`, a published site's) do not pay.
 */
export async function loadRevisionParts(
  ctx: Ctx,
  spaceId: string,
  trees: RevisionTree[],
  { changeRequests = false } = {},
): Promise<RevisionParts[]> {
  const ids = trees.map((t) => t.revision.id);
  const [commits, merged] = await Promise.all([
    revisionHistoryRepository.commitsOf(ctx.em, ids),
    changeRequests ? revisionHistoryRepository.mergedInto(ctx.em, spaceId, ids) : new Map<string, IChangeRequest>(),
  ]);
  return Promise.all(
    trees.map(async (tree) => ({
      tree,
      blobs: await gitSyncRepository.pageBlobs(ctx.em, tree.revision.id),
      fileBlobs: await loadFileBlobs(ctx, spaceId, tree.revision.id),
      commit: commits.get(tree.revision.id) ?? null,
      mergedFrom: merged.get(tree.revision.id),
    })),
  );
}

/** A history cursor: the id of the last revision of the page (the next page starts at its first parent). */
const HISTORY_KEY = z.tuple([cursorText]);

/**
 * A page of a space's history (the caller needs `view` on the space): the revisions that were its live content,
 * newest first, along the main line (each revision's first parent). The cursor names the last revision of a page;
 * one that is not on a main line of the space is a 400.
 */
export async function loadRevisionHistory(
  ctx: Ctx,
  input: PageRequest & { spaceId: string },
): Promise<{ space: ISpace; page: List<RevisionParts> }> {
  const { space } = await loadSpaceFor(ctx, input.spaceId, 'view');
  const limit = input.limit ?? REVISIONS_PAGE_SIZE.default;
  const after = input.page === undefined ? undefined : decodeCursor(input.page, HISTORY_KEY)[0];
  // After a cursor: its revision first (checked to be of this line), then the page.
  const read = await revisionHistoryRepository.lineFrom(
    ctx.em,
    space.id,
    after ?? space.revisionId,
    limit + (after ? 2 : 1),
  );
  if (after && read[0]?.id !== after) throw notACursor();
  const line = after ? read.slice(1) : read;
  const items = line.slice(0, limit);
  const count = await revisionHistoryRepository.countFrom(ctx.em, space.id, space.revisionId);
  const trees = await Promise.all(items.map((r) => revisionRepository.loadTree(ctx.em, r)));
  const last = items.at(-1);
  return {
    space,
    page: {
      ...(line.length > limit && last ? { next: { page: encodeCursor([last.id]) } } : {}),
      count,
      items: await loadRevisionParts(ctx, space.id, trees, { changeRequests: true }),
    },
  };
}
