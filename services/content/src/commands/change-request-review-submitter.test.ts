import { describe, expect, it } from 'vitest';
import type { ChangeRequestReviewStatus } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { buildSpace, failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import type { ContentAccessFacts } from '../modules/access/access.policy.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { ChangeRequestReview } from '../modules/change-requests/reviews.entity.ts';
import { reviewsRepository } from '../modules/change-requests/reviews.repository.ts';
import { memberRepository } from '../modules/members/member.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { reviewersRequester } from './change-request-reviewers.ts';
import { reviewSubmitter, type ReviewSubmitterProps } from './change-request-review-submitter.ts';
import { changeRequestCreator } from './change-request-writer.ts';

const ORG = 'review-submitter';
const t = useTestService(contentService, loadContentConfig, { label: 'cr-review-submitter' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const facts: ContentAccessFacts = { organizationId: ORG, defaultLevel: 'inherit', ancestors: [] };

/** A space with a change request by `author`, and `reviewer` asked to review it. */
async function openChangeRequest() {
  await inTx((tx) => memberRepository.upsert(tx, ORG, 'reviewer', 'edit', new Date().toISOString()));
  const space = await buildSpace(t, { org: ORG });
  const cr = await inTx(async (tx) =>
    changeRequestCreator(tx, { space: await tx.findOneOrFail(Space, { id: space.id }), createdBy: 'author' }),
  );
  await inTx(async (tx) =>
    reviewersRequester(tx, {
      space: await tx.findOneOrFail(Space, { id: space.id }),
      facts,
      changeRequest: await tx.findOneOrFail(ChangeRequest, { id: cr.id }),
      users: ['reviewer'],
      requestedBy: 'author',
    }),
  );
  return { spaceId: space.id, crId: cr.id, revisionId: cr.revisionId };
}
const review = (
  spaceId: string,
  crId: string,
  reviewer: string,
  status: ChangeRequestReviewStatus,
  extra: Pick<ReviewSubmitterProps, 'comment'> = {},
) =>
  inTx(async (tx) =>
    reviewSubmitter(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      changeRequest: await tx.findOneOrFail(ChangeRequest, { id: crId }),
      reviewer,
      status,
      ...extra,
    }),
  );

describe('reviewSubmitter', () => {
  it("reviews the current revision, answering the reviewer's request and keeping who asked", async () => {
    const { spaceId, crId, revisionId } = await openChangeRequest();
    const r = await review(spaceId, crId, 'reviewer', 'changes-requested', { comment: { markdown: 'Fix the intro' } });
    expect(await t.em().fork().findOneOrFail(ChangeRequestReview, { id: r.id })).toMatchObject({
      changeRequestId: crId,
      reviewer: 'reviewer',
      requestedBy: 'author',
      status: 'changes-requested',
      comment: 'Fix the intro',
      revisionId,
    });
    expect(await reviewsRepository.requestsOf(t.em(), crId, ['reviewer'])).toEqual([]);
    const events = (await t.outboxEvents('change-request.reviewed')).map((e) => e.data as { review: string });
    expect(events.filter((d) => d.review === r.id)).toEqual([
      {
        space: spaceId,
        organization: ORG,
        changeRequest: crId,
        review: r.id,
        reviewer: 'reviewer',
        status: 'changes-requested',
        revision: revisionId,
      },
    ]);
  });

  it('takes an unrequested review too, an empty comment as none, and keeps only the latest review of a reviewer current', async () => {
    const { spaceId, crId, revisionId } = await openChangeRequest();
    const first = await review(spaceId, crId, 'reviewer', 'changes-requested', { comment: '' });
    const passerby = await review(spaceId, crId, 'passerby', 'approved', { comment: 'LGTM' });
    expect(await t.em().fork().findOneOrFail(ChangeRequestReview, { id: first.id })).toMatchObject({ comment: null });
    expect(await t.em().fork().findOneOrFail(ChangeRequestReview, { id: passerby.id })).toMatchObject({
      requestedBy: null,
      comment: 'LGTM',
    });
    const second = await review(spaceId, crId, 'reviewer', 'approved');
    expect(await reviewsRepository.currentReviewIds(t.em(), crId, revisionId)).toEqual(
      new Set([second.id, passerby.id]),
    );
  });

  it('refuses a review of a merged change request (409), writing nothing', async () => {
    const { spaceId, crId } = await openChangeRequest();
    await inTx(async (tx) => {
      const cr = await tx.findOneOrFail(ChangeRequest, { id: crId });
      cr.status = 'merged';
    });
    const err = await failureOf(review(spaceId, crId, 'reviewer', 'approved'));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'conflict',
      message: 'The change request is merged: it can no longer change',
    });
    expect(await t.em().count(ChangeRequestReview, { changeRequestId: crId })).toBe(0);
    expect((await reviewsRepository.requestsOf(t.em(), crId, ['reviewer'])).map((r) => r.userId)).toEqual(['reviewer']);
  });
});
