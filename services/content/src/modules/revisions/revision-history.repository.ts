import { LRUCache } from 'lru-cache';
import { entityFromRow, sql, type EntityManager } from '@quire/kit';
import { ChangeRequest, type IChangeRequest } from '../change-requests/change-request.entity.ts';
import type { GitRevisionRow } from '../git/git-connection.repository.ts';
import { Revision, type IRevision } from '../spaces/space.entity.ts';

/**
 * A space's main line, from a revision back: the revision, its first parent, that one's first parent…, as long as
 * they are revisions of the space outside any change request (merges, the first revision). A recursive statement
 * over the primary key; a chain yields one row per step, in order, so a `limit` stops the walk early.
 */
const LINE = `with recursive line(id, parents, depth) as (
    select r.id, r.parents, 1 from :schema.revision r
     where r.id = ? and r.space_id = ? and r.change_request_id is null
    union all
    select r.id, r.parents, l.depth + 1 from line l
      join :schema.revision r on r.id = l.parents->>0 and r.space_id = ? and r.change_request_id is null
  )`;

/**
 * How many revisions the main line from a revision holds, by space and revision id: fixed for good (revisions and
 * their parents never change), so each head is counted once, not on every page of its history.
 */
const lineLengths = new LRUCache<string, number>({ max: 20_000 });

/** The history of a space's live content (the revisions that were live), read along its main line. */
export const revisionHistoryRepository = {
  /** Up to `limit` revisions of the main line from `from` (itself first), newest first. */
  async lineFrom(em: EntityManager, spaceId: string, from: string, limit: number): Promise<IRevision[]> {
    const rows = await sql<Record<string, unknown> & { depth: number }>(
      em,
      `${LINE}
       select r.*, l.depth from (select id, depth from line limit ?) l
         join :schema.revision r on r.id = l.id
        order by l.depth`,
      [from, spaceId, spaceId, limit],
    );
    return rows.map(({ depth: _depth, ...row }) => entityFromRow(em, Revision, row));
  },

  /** How many revisions the main line from `from` holds (counted once per head: `lineLengths`). */
  async countFrom(em: EntityManager, spaceId: string, from: string): Promise<number> {
    const key = `${spaceId}/${from}`;
    const known = lineLengths.get(key);
    if (known !== undefined) return known;
    const [row] = await sql<{ n: string }>(em, `${LINE} select count(*) as n from line`, [from, spaceId, spaceId]);
    const n = Number(row?.n ?? 0);
    // An empty line (a revision not of this space) is not kept: it is the caller's mistake, not a fact to remember.
    if (n > 0) lineLengths.set(key, n);
    return n;
  },

  /** The change requests whose merge made these revisions, by revision id. */
  async mergedInto(em: EntityManager, spaceId: string, revisionIds: string[]): Promise<Map<string, IChangeRequest>> {
    if (!revisionIds.length) return new Map();
    const crs = await em.find(ChangeRequest, { spaceId, revisionMerged: { $in: revisionIds } });
    return new Map(crs.map((cr) => [cr.revisionMerged!, cr]));
  },

  /** The Git commits these revisions were imported from (Git Sync), by revision id. */
  async commitsOf(em: EntityManager, revisionIds: string[]): Promise<Map<string, GitRevisionRow>> {
    if (!revisionIds.length) return new Map();
    const rows = await sql<GitRevisionRow>(
      em,
      'select * from :schema.git_revision where revision_id = any(?::text[])',
      [`{${revisionIds.join(',')}}`],
    );
    return new Map(rows.map((r) => [r.revision_id, r]));
  },
};
