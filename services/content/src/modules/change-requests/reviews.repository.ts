import type { FilterQuery } from '@mikro-orm/core';
import type { List } from '@quire/contracts';
import { marks, notFound, paginate, sql, type EntityManager, type PageRequest } from '@quire/kit';
import {
  ChangeRequestContributor,
  ChangeRequestReview,
  ChangeRequestReviewer,
  type IChangeRequestContributor,
  type IChangeRequestReview,
  type IChangeRequestReviewer,
} from './reviews.entity.ts';

/** A user's pending review request, as stored. */
export interface ReviewRequest {
  userId: string;
  requestedBy: string;
  revisionId: string;
  createdAt: Date;
}

interface ReviewerRow {
  user_id: string;
  requested_by: string;
  revision_id: string;
  /** The driver's text of a timestamptz, or a Date. */
  created_at: Date | string;
}
const toRequest = (r: ReviewerRow): ReviewRequest => ({
  userId: r.user_id,
  requestedBy: r.requested_by,
  revisionId: r.revision_id,
  createdAt: new Date(r.created_at),
});

/** Requested reviewers, reviews and contributors of change requests: all their SQL. */
export const reviewsRepository = {
  /** A page of the change request's requested reviewers, in the order they were requested. */
  reviewersPage(em: EntityManager, changeRequestId: string, req: PageRequest): Promise<List<IChangeRequestReviewer>> {
    return paginate(em, ChangeRequestReviewer, { changeRequestId }, { createdAt: 'asc', userId: 'asc' }, req, (r) => r);
  },

  /** A page of the change request's contributors, in the order they first edited it. */
  contributorsPage(
    em: EntityManager,
    changeRequestId: string,
    req: PageRequest,
  ): Promise<List<IChangeRequestContributor>> {
    return paginate(
      em,
      ChangeRequestContributor,
      { changeRequestId },
      { firstAt: 'asc', userId: 'asc' },
      req,
      (r) => r,
    );
  },

  /** Requests each user not requested yet (a pending request stays as it was); resolves to the users newly requested. */
  async request(
    em: EntityManager,
    changeRequestId: string,
    userIds: string[],
    requestedBy: string,
    revisionId: string,
    at: Date,
  ): Promise<string[]> {
    if (!userIds.length) return [];
    const rows = await sql<{ user_id: string }>(
      em,
      `insert into :schema.change_request_reviewer (change_request_id, user_id, requested_by, revision_id, created_at)
       values ${userIds.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       on conflict (change_request_id, user_id) do nothing
       returning user_id`,
      userIds.flatMap((u) => [changeRequestId, u, requestedBy, revisionId, at]),
    );
    return rows.map((r) => r.user_id);
  },

  async requestsOf(em: EntityManager, changeRequestId: string, userIds: string[]): Promise<ReviewRequest[]> {
    if (!userIds.length) return [];
    const rows = await sql<ReviewerRow>(
      em,
      `select user_id, requested_by, revision_id, created_at from :schema.change_request_reviewer where change_request_id = ? and user_id in (${marks(userIds.length)})`,
      [changeRequestId, ...userIds],
    );
    const byUser = new Map(rows.map((r) => [r.user_id, toRequest(r)]));
    return userIds.flatMap((id) => byUser.get(id) ?? []);
  },

  /** Withdraws (or answers) a user's request; resolves to the request removed, if there was one. */
  async removeRequest(em: EntityManager, changeRequestId: string, userId: string): Promise<ReviewRequest | null> {
    const [row] = await sql<ReviewerRow>(
      em,
      `delete from :schema.change_request_reviewer where change_request_id = ? and user_id = ? returning user_id, requested_by, revision_id, created_at`,
      [changeRequestId, userId],
    );
    return row ? toRequest(row) : null;
  },

  async findReview(em: EntityManager, changeRequestId: string, reviewId: string): Promise<IChangeRequestReview> {
    const review = await em.findOne(ChangeRequestReview, { id: reviewId, changeRequestId });
    if (!review) throw notFound('Review');
    return review;
  },

  /** The reviews still in force: each reviewer's latest one, when it was made on the change request's current revision. */
  async currentReviewIds(em: EntityManager, changeRequestId: string, revisionId: string): Promise<Set<string>> {
    const rows = await sql<{ id: string; revision_id: string }>(
      em,
      `select distinct on (reviewer) id, revision_id from :schema.change_request_review where change_request_id = ? order by reviewer, created_at desc, id desc`,
      [changeRequestId],
    );
    return new Set(rows.filter((r) => r.revision_id === revisionId).map((r) => r.id));
  },

  /** The filter of a change request's reviews, optionally only the outdated (or only the current) ones. */
  reviewsWhere(changeRequestId: string, current: Set<string>, outdated?: boolean): FilterQuery<IChangeRequestReview> {
    if (outdated === undefined) return { changeRequestId };
    return { changeRequestId, id: outdated ? { $nin: [...current] } : { $in: [...current] } };
  },

  /** How many revisions of the change request each user wrote. */
  async revisionCounts(em: EntityManager, changeRequestId: string, userIds: string[]): Promise<Map<string, number>> {
    if (!userIds.length) return new Map();
    const rows = await sql<{ created_by: string; n: string | number }>(
      em,
      `select created_by, count(*) as n from :schema.revision where change_request_id = ? and created_by in (${marks(userIds.length)}) group by created_by`,
      [changeRequestId, ...userIds],
    );
    return new Map(rows.map((r) => [r.created_by, Number(r.n)]));
  },
};
