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

const reviewId = IdSchema.describe('The unique id of the change request review');

const reviewers = operationsOf('content', { tags: ['change-request-reviewers'] });
const reviews = operationsOf('content', { tags: ['change-requests-reviews'] });
const contributors = operationsOf('content', { tags: ['change-request-contributors'] });

export const getRequestedReviewersByChangeRequestId = reviewers({
  id: 'changeRequestReviewers.list',
  input: z.object({ spaceId, changeRequestId, ...PageQueryShape }),
  output: listOf(ChangeRequestRequestedReviewerSchema),
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
    operationId: 'getRequestedReviewersByChangeRequestId',
    summary: 'List the users requested to review a change request who have not reviewed since, oldest request first',
  },
});

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

export const removeRequestedReviewerFromChangeRequest = reviewers({
  id: 'changeRequestReviewers.delete',
  input: z.object({ spaceId, changeRequestId, userId }),
  output: z.void(),
  http: {
    route: 'DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}',
    status: 205,
    operationId: 'removeRequestedReviewerFromChangeRequest',
    summary: 'Withdraw the review request of a user (nothing to do when the user is not requested)',
  },
});

export const getReviewsByChangeRequestId = reviews({
  id: 'changeRequestReviews.list',
  input: z.object({
    spaceId,
    changeRequestId,
    ...PageQueryShape,
    outdated: queryBoolean('Only outdated reviews (true) or only current ones (false)').optional(),
  }),
  output: listOf(ChangeRequestReviewSchema),
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    operationId: 'getReviewsByChangeRequestId',
    summary: 'List the reviews of a change request, newest first',
  },
});

export const submitChangeRequestReview = reviews({
  id: 'changeRequestReviews.create',
  input: z.object({
    spaceId,
    changeRequestId,
    status: ChangeRequestReviewStatusSchema,
    comment: ReviewCommentInputSchema.optional(),
  }),
  output: ChangeRequestReviewSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
    status: 201,
    operationId: 'submitChangeRequestReview',
    summary: "Approve or request changes on the change request's current revision (answers the reviewer's request)",
  },
});

export const getChangeRequestReviewById = reviews({
  id: 'changeRequestReviews.get',
  input: z.object({ spaceId, changeRequestId, reviewId }),
  output: ChangeRequestReviewSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
    operationId: 'getChangeRequestReviewById',
    summary: 'Get a review of a change request',
  },
});

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
