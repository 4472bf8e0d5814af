import { describe, expect, it } from 'vitest';
import type { Role } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { buildSpace, failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import type { ContentAccessFacts } from '../modules/access/access.policy.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { reviewsRepository } from '../modules/change-requests/reviews.repository.ts';
import { memberRepository } from '../modules/members/member.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { changeRequestCreator } from './change-request-writer.ts';
import { reviewerRemover, reviewersRequester } from './change-request-reviewers.ts';

const ORG = 'reviews';
const t = useTestService(contentService, loadContentConfig, { label: 'cr-reviewers' });

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
/** Members as org-admin's events make them (a role, or null for a guest). */
const members = (entries: [string, Role | null][]) =>
  inTx(async (tx) => {
    for (const [userId, role] of entries)
      await memberRepository.upsert(tx, ORG, userId, role, new Date().toISOString());
  });
/** Space content inheriting the organization's roles (its members read it; guests do not). */
const facts: ContentAccessFacts = { organizationId: ORG, defaultLevel: 'inherit', ancestors: [] };

async function changeRequestIn(spaceId: string) {
  return inTx(async (tx) =>
    changeRequestCreator(tx, { space: await tx.findOneOrFail(Space, { id: spaceId }), createdBy: 'author' }),
  );
}
const request = (spaceId: string, crId: string, users: string[], subject?: string) =>
  inTx(async (tx) =>
    reviewersRequester(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      facts,
      changeRequest: await tx.findOneOrFail(ChangeRequest, { id: crId }),
      users,
      requestedBy: 'author',
      subject,
    }),
  );
const requested = async (crId: string) =>
  (await reviewsRepository.requestsOf(t.em(), crId, ['r1', 'r2', 'r3', 'guest', 'stranger'])).map((r) => r.userId);
const reviewEvents = async (crId: string) =>
  (await t.outboxEvents('change-request.review-requested'))
    .map((e) => e.data as { changeRequest: string; users: string[]; revision: string })
    .filter((d) => d.changeRequest === crId);

describe('reviewersRequester', () => {
  it('requests members who can read the space once each, opens a draft, and names the users newly requested', async () => {
    await members([
      ['r1', 'read'],
      ['r2', 'edit'],
    ]);
    const space = await buildSpace(t, { org: ORG });
    const cr = await changeRequestIn(space.id);
    const first = await request(space.id, cr.id, ['r1', 'r1'], 'Please review');
    expect(first.requests.map((r) => [r.userId, r.requestedBy, r.revisionId])).toEqual([
      ['r1', 'author', cr.revisionId],
    ]);
    expect(await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).toMatchObject({
      status: 'open',
      subject: 'Please review',
    });
    const second = await request(space.id, cr.id, ['r2', 'r1']);
    expect(second.requests.map((r) => r.userId)).toEqual(['r2', 'r1']);
    // r1's request stays the one made first.
    expect(second.requests[1]!.createdAt).toEqual(first.requests[0]!.createdAt);
    await request(space.id, cr.id, ['r1']);
    expect((await reviewEvents(cr.id)).map((e) => e.users)).toEqual([['r1'], ['r2']]);
    expect((await t.em().findOneOrFail(Space, { id: space.id })).changeRequestsOpen).toBe(1);
  });

  it('refuses a non-member or a member who cannot read the space (400 naming the entry), writing nothing', async () => {
    await members([
      ['r3', 'read'],
      ['guest', null],
    ]);
    const space = await buildSpace(t, { org: ORG });
    const cr = await changeRequestIn(space.id);
    const refusal = async (users: string[]) => {
      const err = await failureOf(request(space.id, cr.id, users, 'changed'));
      return { reason: err.reason, message: err.message };
    };
    expect(await refusal(['r3', 'stranger'])).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: users.1: stranger is not a member of the organization',
    });
    expect(await refusal(['guest'])).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: users.0: guest cannot read the space',
    });
    expect(await requested(cr.id)).toEqual([]);
    expect(await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).toMatchObject({ status: 'draft', subject: '' });
    expect(await reviewEvents(cr.id)).toEqual([]);
  });
});

describe('reviewerRemover', () => {
  it('withdraws a request (nothing when there is none); a merged change request refuses both (409)', async () => {
    await members([['r1', 'read']]);
    const space = await buildSpace(t, { org: ORG });
    const cr = await changeRequestIn(space.id);
    await request(space.id, cr.id, ['r1']);
    const remove = (userId: string) =>
      inTx(async (tx) =>
        reviewerRemover(tx, { changeRequest: await tx.findOneOrFail(ChangeRequest, { id: cr.id }), userId }),
      );
    await remove('r2');
    expect(await requested(cr.id)).toEqual(['r1']);
    await remove('r1');
    expect(await requested(cr.id)).toEqual([]);

    await request(space.id, cr.id, ['r1']);
    await t.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    // One at a time: a second promise made before the first is awaited could reject unhandled.
    for (const attempt of [() => remove('r1'), () => request(space.id, cr.id, ['r1'])])
      expect((await failureOf(attempt())).reason).toBe('conflict');
    expect(await requested(cr.id)).toEqual(['r1']);
  });
});
