import { Events } from '@quire/contracts';
import { invalid, recordEvent, type EntityManager } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { reviewsRepository, type ReviewRequest } from '../modules/change-requests/reviews.repository.ts';
import { memberRepository } from '../modules/members/member.repository.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';
import { spacePolicy, type SpaceAccessFacts } from '../modules/spaces/space.policy.ts';
import { changeRequestUpdater } from './change-request-writer.ts';
import { assertEditable } from './edit-state.ts';

export interface ReviewersRequesterProps {
  space: ISpace;
  facts: SpaceAccessFacts;
  changeRequest: IChangeRequest;
  users: string[];
  requestedBy: string;
  subject?: string | undefined;
  now?: Date;
}

/**
 * Asks users to review the change request's current revision. Each must be a member of the space's
 * organization who can read the space (400 naming the entry otherwise); a user already requested keeps the
 * pending request. A draft becomes open (it is submitted for review); `subject` changes the subject.
 * A merged change request is read-only (409).
 */
export async function reviewersRequester(
  em: EntityManager,
  props: ReviewersRequesterProps,
): Promise<{ changeRequest: IChangeRequest; requests: ReviewRequest[] }> {
  const { space, changeRequest: cr } = props;
  assertEditable(null, cr);
  const users = [...new Set(props.users)];
  for (const [i, userId] of props.users.entries()) {
    const member = await memberRepository.asActor(em, space.organizationId, userId);
    if (!member) throw invalid(`Invalid request: users.${i}: ${userId} is not a member of the organization`);
    if (spacePolicy.role(member, props.facts) === null)
      throw invalid(`Invalid request: users.${i}: ${userId} cannot read the space`);
  }
  const now = props.now ?? new Date();
  await changeRequestUpdater(em, {
    space,
    changeRequest: cr,
    subject: props.subject,
    status: cr.status === 'draft' ? 'open' : undefined,
    now,
  });
  const added = await reviewsRepository.request(em, cr.id, users, props.requestedBy, cr.revisionId, now);
  if (added.length) {
    recordEvent(em, Events.changeRequestReviewRequested, {
      space: space.id,
      organization: space.organizationId,
      changeRequest: cr.id,
      users: added,
      requestedBy: props.requestedBy,
      revision: cr.revisionId,
    });
  }
  return { changeRequest: cr, requests: await reviewsRepository.requestsOf(em, cr.id, users) };
}

export interface ReviewerRemoverProps {
  changeRequest: IChangeRequest;
  userId: string;
}

/** Withdraws a user's review request (nothing to do when there is none). A merged change request is read-only (409). */
export async function reviewerRemover(em: EntityManager, props: ReviewerRemoverProps): Promise<void> {
  assertEditable(null, props.changeRequest);
  await reviewsRepository.removeRequest(em, props.changeRequest.id, props.userId);
}
