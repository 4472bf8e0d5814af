import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { reviewerRemover, reviewersRequester } from '../../commands/change-request-reviewers.ts';
import { reviewSubmitter } from '../../commands/change-request-review-submitter.ts';
import { loadChangeRequestFor, loadChangeRequestToReview } from './change-request.loader.ts';
import { ChangeRequestReview } from './reviews.entity.ts';
import { presentContributors, presentReviewRequests, presentReviews } from './reviews.presenter.ts';
import { reviewsRepository } from './reviews.repository.ts';

/** Requested reviewers, reviews and contributors of a change request. */
export const changeRequestReviewProcedures = {
  getRequestedReviewersByChangeRequestId: implement(
    ops.getRequestedReviewersByChangeRequestId,
    async ({ input, ctx }) => {
      const { changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
      const page = await reviewsRepository.reviewersPage(ctx.em, changeRequest.id, input);
      return { ...page, items: await presentReviewRequests(ctx, page.items) };
    },
  ),

  requestReviewersForChangeRequest: implement(ops.requestReviewersForChangeRequest, async ({ input, ctx }) => {
    const { space, facts, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
    const { requests } = await reviewersRequester(ctx.em, {
      space,
      facts,
      changeRequest,
      users: input.users,
      subject: input.subject,
      requestedBy: ctx.actor.userId,
    });
    return { users: await presentReviewRequests(ctx, requests) };
  }),

  removeRequestedReviewerFromChangeRequest: implement(
    ops.removeRequestedReviewerFromChangeRequest,
    async ({ input, ctx }) => {
      const { changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
      await reviewerRemover(ctx.em, { changeRequest, userId: input.userId });
    },
  ),

  getReviewsByChangeRequestId: implement(ops.getReviewsByChangeRequestId, async ({ input, ctx }) => {
    const { changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    const current = await reviewsRepository.currentReviewIds(ctx.em, changeRequest.id, changeRequest.revisionId);
    const where = reviewsRepository.reviewsWhere(changeRequest.id, current, input.outdated);
    const page = await paginate(ctx.em, ChangeRequestReview, where, { createdAt: 'desc', id: 'desc' }, input, (r) => r);
    return { ...page, items: await presentReviews(ctx, changeRequest, page.items, current) };
  }),

  submitChangeRequestReview: implement(ops.submitChangeRequestReview, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestToReview(ctx, input);
    const review = await reviewSubmitter(ctx.em, {
      space,
      changeRequest,
      reviewer: ctx.actor.userId,
      status: input.status,
      comment: input.comment,
    });
    const current = await reviewsRepository.currentReviewIds(ctx.em, changeRequest.id, changeRequest.revisionId);
    return (await presentReviews(ctx, changeRequest, [review], current))[0]!;
  }),

  getChangeRequestReviewById: implement(ops.getChangeRequestReviewById, async ({ input, ctx }) => {
    const { changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    const review = await reviewsRepository.findReview(ctx.em, changeRequest.id, input.reviewId);
    const current = await reviewsRepository.currentReviewIds(ctx.em, changeRequest.id, changeRequest.revisionId);
    return (await presentReviews(ctx, changeRequest, [review], current))[0]!;
  }),

  getContributorsByChangeRequestId: implement(ops.getContributorsByChangeRequestId, async ({ input, ctx }) => {
    const { changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    const page = await reviewsRepository.contributorsPage(ctx.em, changeRequest.id, input);
    const revisions = await reviewsRepository.revisionCounts(
      ctx.em,
      changeRequest.id,
      page.items.map((r) => r.userId),
    );
    return { ...page, items: await presentContributors(ctx, page.items, revisions) };
  }),
};
