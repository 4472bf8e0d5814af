import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn, timestampColumns } from '@quire/kit';
import type { ChangeRequestReviewStatus } from '@quire/contracts';

/** A user asked to review a change request, until they review it or the request is withdrawn. */
export const ChangeRequestReviewer = defineEntity({
  name: 'ChangeRequestReviewer',
  tableName: 'change_request_reviewer',
  properties: {
    changeRequestId: p.string().primary(),
    userId: p.string().primary(),
    requestedBy: p.string(),
    /** The change request's revision when the review was requested. */
    revisionId: p.string(),
    createdAt: p.datetime(),
  },
});
export type IChangeRequestReviewer = InferEntity<typeof ChangeRequestReviewer>;

/** A review submitted on one revision of a change request. */
export const ChangeRequestReview = defineEntity({
  name: 'ChangeRequestReview',
  tableName: 'change_request_review',
  properties: {
    ...idColumn(),
    changeRequestId: p.string(),
    reviewer: p.string(),
    /** Who had requested this reviewer's review, when they had been requested. */
    requestedBy: p.string().nullable(),
    status: p.string().$type<ChangeRequestReviewStatus>(),
    /** Markdown of the comment submitted with the review. */
    comment: p.string().nullable(),
    /** The change request's revision reviewed. */
    revisionId: p.string(),
    ...timestampColumns(),
  },
});
export type IChangeRequestReview = InferEntity<typeof ChangeRequestReview>;

/** A user who edited the content of a change request (written by the content editing). */
export const ChangeRequestContributor = defineEntity({
  name: 'ChangeRequestContributor',
  tableName: 'change_request_contributor',
  properties: {
    changeRequestId: p.string().primary(),
    userId: p.string().primary(),
    firstAt: p.datetime(),
    lastAt: p.datetime(),
  },
});
export type IChangeRequestContributor = InferEntity<typeof ChangeRequestContributor>;
