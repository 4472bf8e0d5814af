import type { ChangeRequestStatus, List, RevisionSemanticChange } from '@quire/contracts';
import { paginate, type PageRequest } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { loadSpaceFor, type LoadedSpace } from '../spaces/space.loader.ts';
import type { SpaceAction } from '../spaces/space.policy.ts';
import { diffTrees } from '../merge/index.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import type { RevisionTree } from '../revisions/revision-tree.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { ChangeRequest, mergeBaseOf, type IChangeRequest } from './change-request.entity.ts';
import { reviewsRepository } from './reviews.repository.ts';
import { changeRequestRepository } from './change-request.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/**
 * A change request of a space the caller may `action` on: the space's policy decides (change requests have
 * no access rules of their own), then the change request is found by id or number (404 otherwise).
 */
export async function loadChangeRequestFor(
  ctx: Ctx,
  ids: { spaceId: string; changeRequestId: string },
  action: SpaceAction,
): Promise<LoadedSpace & { changeRequest: IChangeRequest }> {
  const loaded = await loadSpaceFor(ctx, ids.spaceId, action);
  return {
    ...loaded,
    changeRequest: await changeRequestRepository.findInSpace(ctx.em, ids.spaceId, ids.changeRequestId),
  };
}

/** A page of a space's change requests (by status, and those a `contributor` contributed to), newest first. */
export async function loadChangeRequests(
  ctx: Ctx,
  input: PageRequest & { spaceId: string; status: ChangeRequestStatus; contributor?: string | undefined },
): Promise<LoadedSpace & { page: List<IChangeRequest> }> {
  const loaded = await loadSpaceFor(ctx, input.spaceId, 'view');
  const contributed = input.contributor
    ? await changeRequestRepository.contributedBy(ctx.em, loaded.space.id, input.contributor)
    : undefined;
  const where = changeRequestRepository.listWhere(loaded.space.id, input.status, contributed);
  return {
    ...loaded,
    page: await paginate(ctx.em, ChangeRequest, where, { createdAt: 'desc', id: 'desc' }, input, (cr) => cr),
  };
}

/**
 * A change request the caller may review: GitBook lets its requested reviewers review, as well as anyone with the
 * `review` role on the space (a deleted space takes the `review` role even from a requested reviewer).
 */
export async function loadChangeRequestToReview(
  ctx: Ctx & { actor: { userId: string } },
  ids: { spaceId: string; changeRequestId: string },
): Promise<LoadedSpace & { changeRequest: IChangeRequest }> {
  const loaded = await loadChangeRequestFor(ctx, ids, 'view');
  const requests = await reviewsRepository.requestsOf(ctx.em, loaded.changeRequest.id, [ctx.actor.userId]);
  if (!requests.length || loaded.space.deletedAt) await loadSpaceFor(ctx, loaded.space.id, 'review');
  return loaded;
}

/**
 * What a change request changes, for a caller who may view it: its merge base's and its own trees, and the page
 * changes between them, each page it conflicts in marked `conflicted` (a merge with conflicts, as done before merges
 * were refused on conflict, recorded them in its merge revision).
 */
export async function loadChangeRequestDiff(
  ctx: Ctx,
  ids: { spaceId: string; changeRequestId: string },
): Promise<{ base: RevisionTree; head: RevisionTree; pages: RevisionSemanticChange[] }> {
  const { space, changeRequest } = await loadChangeRequestFor(ctx, ids, 'view');
  const [base, head] = await Promise.all([
    revisionRepository.treeInSpace(ctx.em, space.id, mergeBaseOf(changeRequest)),
    revisionRepository.treeInSpace(ctx.em, space.id, changeRequest.revisionId),
  ]);
  const merged = changeRequest.revisionMerged
    ? await revisionRepository.findInSpace(ctx.em, space.id, changeRequest.revisionMerged)
    : undefined;
  const conflicted = new Set(merged ? merged.conflicts.map((c) => c.pageId) : changeRequest.conflicts);
  const pages = await diffTrees(base.pages, head.pages, (hash) => documentRepository.get(ctx.em, hash));
  return {
    base,
    head,
    pages: pages.map((c) =>
      'page' in c && conflicted.has(c.page.id) ? { ...c, page: { ...c.page, conflicted: true } } : c,
    ),
  };
}
