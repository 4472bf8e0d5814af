import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { ChangeRequestStatus } from '@quire/contracts';
import { notFound, sql, sqlRun, type EntityManager } from '@quire/kit';
import { ChangeRequest, type IChangeRequest } from './change-request.entity.ts';

/** Space counters moved by a status: every change request counts in `change_requests`, open and draft ones in theirs too. */
const COUNTER: Partial<Record<ChangeRequestStatus, string>> = {
  open: 'change_requests_open',
  draft: 'change_requests_draft',
};

export const changeRequestRepository = {
  /** A change request of the space, by id or by number (`{changeRequestId}` accepts both). */
  async findInSpace(em: EntityManager, spaceId: string, idOrNumber: string): Promise<IChangeRequest> {
    const number = /^\d{1,9}$/.test(idOrNumber) ? Number(idOrNumber) : undefined;
    const cr = await em.findOne(
      ChangeRequest,
      number !== undefined ? { spaceId, $or: [{ id: idOrNumber }, { number }] } : { spaceId, id: idOrNumber },
    );
    if (!cr) throw notFound('Change request');
    return cr;
  },

  /**
   * Locks the change request's row until commit and reloads it (the same managed entity): a merge, an update or
   * an edit that raced this one and committed first is seen, and none that follows can start before this one ends.
   */
  async lock(em: EntityManager, cr: IChangeRequest): Promise<IChangeRequest> {
    const locked = await em.findOne(
      ChangeRequest,
      { id: cr.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!locked) throw notFound('Change request');
    return locked;
  },

  /** The filter of a space's list: a status, and optionally a contributor. */
  listWhere(spaceId: string, status: ChangeRequestStatus, contributorCrIds?: string[]): FilterQuery<IChangeRequest> {
    return { spaceId, status, ...(contributorCrIds ? { id: { $in: contributorCrIds } } : {}) };
  },

  /** The revisions of the space's open change requests. */
  async openRevisionIds(em: EntityManager, spaceId: string): Promise<string[]> {
    const rows = await sql<{ revision_id: string }>(
      em,
      `select revision_id from :schema.change_request where space_id = ? and status = 'open' order by number`,
      [spaceId],
    );
    return rows.map((r) => r.revision_id);
  },

  async contributedBy(em: EntityManager, spaceId: string, userId: string): Promise<string[]> {
    const rows = await sql<{ change_request_id: string }>(
      em,
      `select c.change_request_id from :schema.change_request_contributor c join :schema.change_request cr on cr.id = c.change_request_id where c.user_id = ? and cr.space_id = ?`,
      [userId, spaceId],
    );
    return rows.map((r) => r.change_request_id);
  },

  /** The next number in the space (atomic under concurrency: the row update serializes them). */
  async nextNumber(em: EntityManager, spaceId: string): Promise<number> {
    const [row] = await sql<{ n: number }>(
      em,
      `update :schema.space set change_request_seq = change_request_seq + 1 where id = ? returning change_request_seq as n`,
      [spaceId],
    );
    if (!row) throw notFound('Space');
    return row.n;
  },

  /** Moves the space's counters for a change request entering `to` (from `from`, or newly created). */
  async count(
    em: EntityManager,
    spaceId: string,
    from: ChangeRequestStatus | null,
    to: ChangeRequestStatus,
  ): Promise<void> {
    const deltas = new Map<string, number>();
    if (from === null) deltas.set('change_requests', 1);
    const out = from && COUNTER[from];
    const into = COUNTER[to];
    if (out) deltas.set(out, (deltas.get(out) ?? 0) - 1);
    if (into) deltas.set(into, (deltas.get(into) ?? 0) + 1);
    const set = [...deltas].filter(([, d]) => d !== 0);
    if (!set.length) return;
    await sqlRun(em, `update :schema.space set ${set.map(([c]) => `${c} = ${c} + ?`).join(', ')} where id = ?`, [
      ...set.map(([, d]) => d),
      spaceId,
    ]);
  },

  /** Records that a user changed the content of a change request. */
  async addContributor(em: EntityManager, changeRequestId: string, userId: string, at: Date): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.change_request_contributor (change_request_id, user_id, first_at, last_at) values (?, ?, ?, ?)
       on conflict (change_request_id, user_id) do update set last_at = excluded.last_at`,
      [changeRequestId, userId, at, at],
    );
  },

  async contributors(em: EntityManager, changeRequestId: string): Promise<string[]> {
    return (
      await sql<{ user_id: string }>(
        em,
        `select user_id from :schema.change_request_contributor where change_request_id = ? order by first_at, user_id`,
        [changeRequestId],
      )
    ).map((r) => r.user_id);
  },
};
