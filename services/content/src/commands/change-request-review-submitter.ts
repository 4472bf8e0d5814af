import { Events, type ChangeRequestReviewStatus } from '@quire/contracts';
import { newId, recordEvent, type EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { ChangeRequestReview, type IChangeRequestReview } from '../modules/change-requests/reviews.entity.ts';
import { reviewsRepository } from '../modules/change-requests/reviews.repository.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { assertEditable } from './edit-state.ts';

export interface ReviewSubmitterProps {
  space: ISpace;
  changeRequest: IChangeRequest;
  reviewer: string;
  status: ChangeRequestReviewStatus;
  /** The comment: its markdown (alone, or as `{ markdown }`); empty means none. */
  comment?: string | { markdown?: string | undefined } | undefined;
  now?: Date;
}

/**
 * A review of the change request's current revision. It answers the reviewer's pending request (which it
 * removes, keeping who had asked); earlier reviews by the same reviewer become outdated. A merged change
 * request is read-only (409).
 */
export async function reviewSubmitter(em: EntityManager, props: ReviewSubmitterProps): Promise<IChangeRequestReview> {
  const { space, changeRequest: cr } = props;
  assertEditable(null, cr);
  const now = props.now ?? new Date();
  const request = await reviewsRepository.removeRequest(em, cr.id, props.reviewer);
  const review = em.create(ChangeRequestReview, {
    id: newId(),
    changeRequestId: cr.id,
    reviewer: props.reviewer,
    requestedBy: request?.requestedBy ?? null,
    status: props.status,
    comment: (typeof props.comment === 'string' ? props.comment : props.comment?.markdown) || null,
    revisionId: cr.revisionId,
    createdAt: now,
    updatedAt: now,
  });
  recordEvent(em, Events.changeRequestReviewed, {
    space: space.id,
    organization: space.organizationId,
    changeRequest: cr.id,
    review: review.id,
    reviewer: props.reviewer,
    status: props.status,
    revision: cr.revisionId,
  });
  return review;
}
