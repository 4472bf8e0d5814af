import { z } from 'zod';
import { IdSchema, listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId, userId } from '../params.ts';
import { ChangeRequestSubjectSchema } from '../schemas/change-request.ts';
import {
  ChangeRequestContributorSchema,
  ChangeRequestRequestedReviewerSchema,
  ChangeRequestReviewSchema,
  ChangeRequestReviewStatusSchema,
  MAX_REQUESTED_REVIEWERS,
  ReviewCommentInputSchema,
} from '../schemas/change-request-review.ts';
import { CHANGE_REQUEST, resourceOps } from './resources.ts';

const reviewId = IdSchema.describe('The unique id of the change request review');

const reviewers = operationsOf('content', { tags: ['change-request-reviewers'] });
const reviews = operationsOf('content', { tags: ['change-requests-reviews'] });
const contributors = operationsOf('content', { tags: ['change-request-contributors'] });

const requested = resourceOps(reviewers, {
  noun: 'changeRequestReviewers',
  in: CHANGE_REQUEST,
  path: 'requested-reviewers',
  param: { userId },
  item: ChangeRequestRequestedReviewerSchema,
});

export const getRequestedReviewersByChangeRequestId = requested.list(
  'getRequestedReviewersByChangeRequestId',
  'List the users requested to review a change request who have not reviewed since, oldest request first',
);

export const requestReviewersForChangeRequest = reviewers({
  id: 'changeRequestReviewers.add',
  input: z.object({
    spaceId,
    changeRequestId,
    users: z
      .array(userId)
      .min(1)
      .max(MAX_REQUESTED_REVIEWERS)
      .describe(
        `Ids of the users to request (1..${MAX_REQUESTED_REVIEWERS}): members of the organization who can read the space`,
      ),
    subject: ChangeRequestSubjectSchema.optional().describe(
      'Optionally, a new subject for the change request (max 100)',
    ),
  }),
  output: z.object({
    users: z
      .array(ChangeRequestRequestedReviewerSchema)
      .describe('The review requests of the users asked (those already requested keep their request)'),
  }),
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
    operationId: 'requestReviewersForChangeRequest',
    summary: 'Request reviews of a change request from users (a draft becomes open), optionally changing its subject',
  },
});

export const removeRequestedReviewerFromChangeRequest = requested.delete(
  'removeRequestedReviewerFromChangeRequest',
  'Withdraw the review request of a user (nothing to do when the user is not requested)',
  205,
);

const review = resourceOps(reviews, {
  noun: 'changeRequestReviews',
  in: CHANGE_REQUEST,
  path: 'reviews',
  param: { reviewId },
  item: ChangeRequestReviewSchema,
});

export const getReviewsByChangeRequestId = review.list(
  'getReviewsByChangeRequestId',
  'List the reviews of a change request, newest first',
  { outdated: queryBoolean('Only outdated reviews (true) or only current ones (false)').optional() },
);

export const submitChangeRequestReview = review.create(
  'submitChangeRequestReview',
  "Approve or request changes on the change request's current revision (answers the reviewer's request)",
  { status: ChangeRequestReviewStatusSchema, comment: ReviewCommentInputSchema.optional() },
);

export const getChangeRequestReviewById = review.get('getChangeRequestReviewById', 'Get a review of a change request');

export const getContributorsByChangeRequestId = contributors({
  id: 'changeRequestContributors.list',
  input: z.object({ spaceId, changeRequestId, ...PageQueryShape }),
  output: listOf(ChangeRequestContributorSchema),
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/contributors',
    operationId: 'getContributorsByChangeRequestId',
    summary: 'List the users who edited the content of a change request, first contributor first',
  },
});
