import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { idColumn } from '@quire/kit';
import type { CommentStatus } from '@quire/contracts';

/** A comment on a space, or on a change request (`changeRequestId` set). */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comment',
  properties: {
    ...idColumn(),
    spaceId: p.string(),
    changeRequestId: p.string().nullable(),
    postedBy: p.string(),
    /** Markdown of the body. */
    body: p.string(),
    /** The members mentioned in the body (user ids). */
    mentions: p.json<string[]>().default([]),
    /** The revision commented on (the space's or the change request's, when posted). */
    revisionId: p.string(),
    pageId: p.string().nullable(),
    /** The page's title and document hash when commented on: a different document later makes the comment outdated. */
    pageTitle: p.string().nullable(),
    pageDocument: p.string().nullable(),
    nodeId: p.string().nullable(),
    /** The text of the node commented on (a selection), and where it starts in the node's plain text. */
    quoteText: p.string().nullable(),
    quoteOffset: p.integer().nullable(),
    status: p.string().$type<CommentStatus>(),
    resolvedAt: p.datetime().nullable(),
    resolvedBy: p.string().nullable(),
    /** Count of replies (moved by the reply commands in SQL). */
    replies: p.integer().default(0),
    postedAt: p.datetime(),
    editedAt: p.datetime().nullable(),
  },
});
export type IComment = InferEntity<typeof Comment>;

export const CommentReply = defineEntity({
  name: 'CommentReply',
  tableName: 'comment_reply',
  properties: {
    ...idColumn(),
    commentId: p.string(),
    postedBy: p.string(),
    body: p.string(),
    mentions: p.json<string[]>().default([]),
    postedAt: p.datetime(),
    editedAt: p.datetime().nullable(),
  },
});
export type ICommentReply = InferEntity<typeof CommentReply>;
