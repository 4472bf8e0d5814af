import { z } from 'zod';
import { IdSchema, listOf, OrderSchema, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId, userId } from '../params.ts';
import { MemberSchema } from '../schemas/member.ts';
import {
  CommentBodyInputSchema,
  CommentQuoteSchema,
  CommentFormatSchema,
  CommentReplySchema,
  CommentSchema,
  CommentStatusFilterSchema,
  ReactionEmojiSchema,
  MAX_REACTIONS_PER_UPDATE,
} from '../schemas/comment.ts';
import { resourceOps } from './resources.ts';

const commentId = IdSchema.describe('The unique id of the comment');
const commentReplyId = IdSchema.describe('The unique id of the comment reply');
const format = CommentFormatSchema;
const reactions = (what: string) =>
  z
    .array(ReactionEmojiSchema)
    .max(MAX_REACTIONS_PER_UPDATE)
    .optional()
    .describe(`Emojis ${what} (max ${MAX_REACTIONS_PER_UPDATE}; one reaction per user per emoji)`);

const listQuery = {
  order: OrderSchema.optional().describe('Order by posting time: `desc` (default) or `asc`'),
  status: CommentStatusFilterSchema.optional(),
  format,
  targetPage: IdSchema.optional().describe('Only the comments on this page'),
  authors: z
    .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(userId).max(100))
    .optional()
    .describe('Only the comments of these users (ids)'),
};
const updateShape = {
  body: CommentBodyInputSchema.optional(),
  addedReactions: reactions('to add'),
  removedReactions: reactions('to remove'),
};

/**
 * Where comments are (a space, or a change request): the comment operations of both have the same shapes and
 * code, under two route prefixes and two sets of GitBook operationIds.
 */
interface Target<S extends z.ZodRawShape> {
  op: ReturnType<typeof operationsOf<'content'>>;
  noun: 'spaceComments' | 'changeRequestComments';
  replyNoun: 'spaceCommentReplies' | 'changeRequestCommentReplies';
  base: `/${string}`;
  where: S;
  on: string;
}

function target<S extends z.ZodRawShape>(kind: 'space' | 'changeRequest', base: `/${string}`, where: S): Target<S> {
  return {
    op: operationsOf('content', { tags: [kind === 'space' ? 'comments' : 'change-request-comments'] }),
    noun: kind === 'space' ? 'spaceComments' : 'changeRequestComments',
    replyNoun: kind === 'space' ? 'spaceCommentReplies' : 'changeRequestCommentReplies',
    base,
    where,
    on: kind === 'space' ? 'a space' : 'a change request',
  };
}

/** The comments of a target, and the replies to one of its comments, as resources. */
const commentsOf = <S extends z.ZodRawShape>(t: Target<S>) =>
  resourceOps(t.op, {
    noun: t.noun,
    in: { route: t.base, params: t.where },
    path: 'comments',
    param: { commentId },
    item: CommentSchema,
  });
const repliesOf = <S extends z.ZodRawShape>(t: Target<S>) =>
  resourceOps(t.op, {
    noun: t.replyNoun,
    in: { route: `${t.base}/comments/{commentId}`, params: { ...t.where, commentId } },
    path: 'replies',
    param: { commentReplyId },
    item: CommentReplySchema,
  });

const listComments = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  commentsOf(t).list(operationId, `List the comments on ${t.on}, newest first by default`, listQuery);

const postComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.create`,
    input: z.object({
      ...t.where,
      page: IdSchema.optional().describe('The page commented on (in the current revision)'),
      node: IdSchema.optional().describe('The node commented on (kept as given)'),
      quote: CommentQuoteSchema.optional(),
      body: CommentBodyInputSchema,
    }),
    output: CommentSchema,
    http: { route: `POST ${t.base}/comments`, operationId, summary: `Post a comment on ${t.on}` },
  });

const getComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  commentsOf(t).get(operationId, `Get a comment on ${t.on}`, { format });

const updateComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  commentsOf(t).update(
    operationId,
    `Resolve, reopen, edit or react to a comment on ${t.on}`,
    { resolved: z.boolean().optional().describe('Resolve (true) or reopen (false) the comment'), ...updateShape },
    'PUT',
  );

const deleteComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  commentsOf(t).delete(operationId, `Delete a comment on ${t.on}, with its replies`, 205);

const listReplies = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  repliesOf(t).list(operationId, 'List the replies to a comment, oldest first', { format });

const postReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.create`,
    input: z.object({ ...t.where, commentId, format, body: CommentBodyInputSchema }),
    output: CommentReplySchema,
    http: { route: `POST ${t.base}/comments/{commentId}/replies`, operationId, summary: 'Reply to a comment' },
  });

const getReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  repliesOf(t).get(operationId, 'Get a reply to a comment', { format });

const updateReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  repliesOf(t).update(operationId, 'Edit or react to a reply', updateShape, 'PUT');

const deleteReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  repliesOf(t).delete(operationId, 'Delete a reply', 205);

const listCommenters = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.listCommenters`,
    input: z.object({ ...t.where, ...PageQueryShape }),
    output: listOf(MemberSchema),
    http: {
      route: `GET ${t.base}/commenters`,
      operationId,
      summary: `List the members who commented on ${t.on} (comments or replies), first commenter first`,
    },
  });

const space = target('space', '/spaces/{spaceId}', { spaceId });

export const listCommentsInSpace = listComments(space, 'listCommentsInSpace');
export const postCommentInSpace = postComment(space, 'postCommentInSpace');
export const getCommentInSpace = getComment(space, 'getCommentInSpace');
export const updateCommentInSpace = updateComment(space, 'updateCommentInSpace');
export const deleteCommentInSpace = deleteComment(space, 'deleteCommentInSpace');
export const listCommentRepliesInSpace = listReplies(space, 'listCommentRepliesInSpace');
export const postCommentReplyInSpace = postReply(space, 'postCommentReplyInSpace');
export const getCommentReplyInSpace = getReply(space, 'getCommentReplyInSpace');
export const updateCommentReplyInSpace = updateReply(space, 'updateCommentReplyInSpace');
export const deleteCommentReplyInSpace = deleteReply(space, 'deleteCommentReplyInSpace');
export const listCommentersInSpace = listCommenters(space, 'listCommentersInSpace');

const changeRequest = target('changeRequest', '/spaces/{spaceId}/change-requests/{changeRequestId}', {
  spaceId,
  changeRequestId,
});

export const listCommentsInChangeRequest = listComments(changeRequest, 'listCommentsInChangeRequest');
export const postCommentInChangeRequest = postComment(changeRequest, 'postCommentInChangeRequest');
export const getCommentInChangeRequest = getComment(changeRequest, 'getCommentInChangeRequest');
export const updateCommentInChangeRequest = updateComment(changeRequest, 'updateCommentInChangeRequest');
export const deleteCommentInChangeRequest = deleteComment(changeRequest, 'deleteCommentInChangeRequest');
export const listCommentRepliesInChangeRequest = listReplies(changeRequest, 'listCommentRepliesInChangeRequest');
export const postCommentReplyInChangeRequest = postReply(changeRequest, 'postCommentReplyInChangeRequest');
export const getCommentReplyInChangeRequest = getReply(changeRequest, 'getCommentReplyInChangeRequest');
export const updateCommentReplyInChangeRequest = updateReply(changeRequest, 'updateCommentReplyInChangeRequest');
export const deleteCommentReplyInChangeRequest = deleteReply(changeRequest, 'deleteCommentReplyInChangeRequest');
export const listCommentersInChangeRequest = listCommenters(changeRequest, 'listCommentersInChangeRequest');
