import type { ChangeRequestContributor, ChangeRequestRequestedReviewer, ChangeRequestReview } from '@quire/contracts';
import { usersByIds } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import type { IChangeRequest } from './change-request.entity.ts';
import type { IChangeRequestContributor, IChangeRequestReview } from './reviews.entity.ts';
import type { ReviewRequest } from './reviews.repository.ts';

type Ctx = Pick<ContentContext, 'peers' | 'requestId' | 'urls'>;

/** Pending review requests as the API shows them: their users in one call to org-admin. */
export async function presentReviewRequests(
  ctx: Ctx,
  requests: ReviewRequest[],
): Promise<ChangeRequestRequestedReviewer[]> {
  const users = await usersByIds(
    ctx,
    requests.flatMap((r) => [r.userId, r.requestedBy]),
  );
  return requests.map((r) => ({
    object: 'change-request-requested-reviewer',
    revision: r.revisionId,
    requestedBy: users.get(r.requestedBy)!,
    createdAt: r.createdAt.toISOString(),
    kind: 'user',
    user: users.get(r.userId)!,
  }));
}

/**
 * Reviews of one change request. `current` holds the reviews still in force (each reviewer's latest, made on
 * the change request's current revision): every other one is outdated.
 */
export async function presentReviews(
  ctx: Ctx,
  cr: Pick<IChangeRequest, 'id' | 'spaceId'>,
  reviews: IChangeRequestReview[],
  current: Set<string>,
): Promise<ChangeRequestReview[]> {
  const users = await usersByIds(
    ctx,
    reviews.flatMap((r) => (r.requestedBy ? [r.reviewer, r.requestedBy] : [r.reviewer])),
  );
  return reviews.map((r) => ({
    object: 'change-request-review',
    id: r.id,
    revision: r.revisionId,
    reviewer: users.get(r.reviewer)!,
    ...(r.requestedBy ? { requestedBy: users.get(r.requestedBy)! } : {}),
    status: r.status,
    outdated: !current.has(r.id),
    ...(r.comment ? { commentMarkdown: r.comment } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    urls: { location: ctx.urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}/reviews/${r.id}`) },
  }));
}

/** Contributors with the number of revisions each wrote in the change request. */
export async function presentContributors(
  ctx: Ctx,
  rows: IChangeRequestContributor[],
  revisions: Map<string, number>,
): Promise<ChangeRequestContributor[]> {
  const users = await usersByIds(
    ctx,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    user: users.get(r.userId)!,
    updatedAt: r.lastAt.toISOString(),
    count: revisions.get(r.userId) ?? 0,
    actionType: 'edit',
  }));
}
