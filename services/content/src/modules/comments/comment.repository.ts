import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { List } from '@quire/contracts';
import { marks, notFound, pageOfList, paginate, sql, sqlRun, type EntityManager, type PageRequest } from '@quire/kit';
import { Comment, CommentReply, type IComment, type ICommentReply } from './comment.entity.ts';

/** Where comments live: a space's own, or a change request's. */
export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

export interface ReactionRow {
  subjectId: string;
  emoji: string;
  userId: string;
  reactedAt: Date;
}

export interface CommentListFilter {
  status?: 'all' | 'open' | 'resolved' | undefined;
  targetPage?: string | undefined;
  authors?: string[] | undefined;
}

/** Comments, replies and reactions: all their SQL. */
export const commentRepository = {
  /** A comment of the scope (404 otherwise); `lock` holds its row until the mutation commits. */
  async find(em: EntityManager, scope: CommentScope, commentId: string, lock = false): Promise<IComment> {
    const where = { id: commentId, spaceId: scope.spaceId, changeRequestId: scope.changeRequestId };
    const comment = await em.findOne(
      Comment,
      where,
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {},
    );
    if (!comment) throw notFound('Comment');
    return comment;
  },

  async findReply(em: EntityManager, commentId: string, replyId: string): Promise<ICommentReply> {
    const reply = await em.findOne(CommentReply, { id: replyId, commentId });
    if (!reply) throw notFound('Comment reply');
    return reply;
  },

  /** A page of the scope's comments that pass the filter, newest first unless `order` says `asc`. */
  commentsPage(
    em: EntityManager,
    scope: CommentScope,
    req: CommentListFilter & PageRequest & { order?: 'asc' | 'desc' | undefined },
  ): Promise<List<IComment>> {
    const where: FilterQuery<IComment> = {
      spaceId: scope.spaceId,
      changeRequestId: scope.changeRequestId,
      ...(req.status && req.status !== 'all' ? { status: req.status } : {}),
      ...(req.targetPage ? { pageId: req.targetPage } : {}),
      ...(req.authors?.length ? { postedBy: { $in: req.authors } } : {}),
    };
    const order = req.order ?? 'desc';
    return paginate(em, Comment, where, { postedAt: order, id: order }, req, (c) => c);
  },

  /** A page of a comment's replies, oldest first. */
  repliesPage(em: EntityManager, commentId: string, req: PageRequest): Promise<List<ICommentReply>> {
    return paginate(em, CommentReply, { commentId }, { postedAt: 'asc', id: 'asc' }, req, (r) => r);
  },

  /** Moves the count of open comments of the scope (atomic: the row update serializes concurrent moves). */
  async countOpen(em: EntityManager, scope: CommentScope, delta: number): Promise<void> {
    if (delta === 0) return;
    if (scope.changeRequestId)
      await sqlRun(em, `update :schema.change_request set comments = comments + ? where id = ?`, [
        delta,
        scope.changeRequestId,
      ]);
    else await sqlRun(em, `update :schema.space set comments = comments + ? where id = ?`, [delta, scope.spaceId]);
  },

  async countReplies(em: EntityManager, commentId: string, delta: number): Promise<void> {
    await sqlRun(em, `update :schema.comment set replies = replies + ? where id = ?`, [delta, commentId]);
  },

  /** Adds reactions (one per user per emoji: adding one again changes nothing). */
  async react(
    em: EntityManager,
    commentId: string,
    subjectId: string,
    userId: string,
    emojis: string[],
    at: Date,
  ): Promise<number> {
    if (!emojis.length) return 0;
    return sqlRun(
      em,
      `insert into :schema.comment_reaction (comment_id, subject_id, emoji, user_id, reacted_at) values ${emojis.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       on conflict (subject_id, emoji, user_id) do nothing`,
      emojis.flatMap((e) => [commentId, subjectId, e, userId, at]),
    );
  },

  async unreact(em: EntityManager, subjectId: string, userId: string, emojis: string[]): Promise<number> {
    if (!emojis.length) return 0;
    return sqlRun(
      em,
      `delete from :schema.comment_reaction where subject_id = ? and user_id = ? and emoji in (${marks(emojis.length)})`,
      [subjectId, userId, ...emojis],
    );
  },

  /** Reactions of comments or replies, oldest first. */
  async reactionsOf(em: EntityManager, subjectIds: string[]): Promise<ReactionRow[]> {
    if (!subjectIds.length) return [];
    const rows = await sql<{ subject_id: string; emoji: string; user_id: string; reacted_at: Date | string }>(
      em,
      `select subject_id, emoji, user_id, reacted_at from :schema.comment_reaction where subject_id in (${marks(subjectIds.length)}) order by reacted_at, emoji, user_id`,
      subjectIds,
    );
    return rows.map((r) => ({
      subjectId: r.subject_id,
      emoji: r.emoji,
      userId: r.user_id,
      reactedAt: new Date(r.reacted_at),
    }));
  },

  /**
   * The users who posted comments or replies in the scope, first commenter first (ties by id), paged by a
   * keyset cursor over (first post, user id).
   */
  async commenters(
    em: EntityManager,
    scope: CommentScope,
    req: { page?: string | undefined; limit?: number | undefined },
  ): Promise<List<string>> {
    const rows = await sql<{ user_id: string; first_at: Date | string }>(
      em,
      `select user_id, min(posted_at) as first_at from (
         select c.posted_by as user_id, c.posted_at from :schema.comment c where c.space_id = ? and c.change_request_id is not distinct from ?
         union all
         select r.posted_by, r.posted_at from :schema.comment_reply r join :schema.comment c on c.id = r.comment_id where c.space_id = ? and c.change_request_id is not distinct from ?
       ) a group by user_id order by first_at, user_id`,
      [scope.spaceId, scope.changeRequestId, scope.spaceId, scope.changeRequestId],
    );
    const page = pageOfList(rows, (r) => [new Date(r.first_at).toISOString(), r.user_id], req);
    return { ...page, items: page.items.map((r) => r.user_id) };
  },

  async deleteReactions(em: EntityManager, subjectId: string): Promise<void> {
    await sqlRun(em, `delete from :schema.comment_reaction where subject_id = ?`, [subjectId]);
  },
};
