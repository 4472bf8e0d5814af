import { z } from 'zod';
import { IdSchema, listOf, OrderSchema, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId, userId } from '../params.ts';
import { MemberSchema } from '../schemas/member.ts';
import {
  CommentBodyInputSchema,
  CommentFormatSchema,
  CommentReplySchema,
  CommentSchema,
  CommentStatusFilterSchema,
  ReactionEmojiSchema,
  MAX_REACTIONS_PER_UPDATE,
} from '../schemas/comment.ts';

const commentId = IdSchema.describe('The unique id of the comment');
const commentReplyId = IdSchema.describe('The unique id of the comment reply');
const format = CommentFormatSchema;
const reactions = (what: string) =>
  z
    .array(ReactionEmojiSchema)
    .max(MAX_REACTIONS_PER_UPDATE)
    .optional()
    .describe(`Emojis ${what} (max ${MAX_REACTIONS_PER_UPDATE}; one reaction per user per emoji)`);

const listShape = {
  ...PageQueryShape,
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

const listComments = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.list`,
    input: z.object({ ...t.where, ...listShape }),
    output: listOf(CommentSchema),
    http: {
      route: `GET ${t.base}/comments`,
      operationId,
      summary: `List the comments on ${t.on}, newest first by default`,
    },
  });

const postComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.create`,
    input: z.object({
      ...t.where,
      page: IdSchema.optional().describe('The page commented on (in the current revision)'),
      node: IdSchema.optional().describe('The node commented on (kept as given)'),
      body: CommentBodyInputSchema,
    }),
    output: CommentSchema,
    http: { route: `POST ${t.base}/comments`, operationId, summary: `Post a comment on ${t.on}` },
  });

const getComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.get`,
    input: z.object({ ...t.where, commentId, format }),
    output: CommentSchema,
    http: { route: `GET ${t.base}/comments/{commentId}`, operationId, summary: `Get a comment on ${t.on}` },
  });

const updateComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.update`,
    input: z.object({
      ...t.where,
      commentId,
      resolved: z.boolean().optional().describe('Resolve (true) or reopen (false) the comment'),
      ...updateShape,
    }),
    output: CommentSchema,
    http: {
      route: `PUT ${t.base}/comments/{commentId}`,
      operationId,
      summary: `Resolve, reopen, edit or react to a comment on ${t.on}`,
    },
  });

const deleteComment = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.noun}.delete`,
    input: z.object({ ...t.where, commentId }),
    output: z.void(),
    http: {
      route: `DELETE ${t.base}/comments/{commentId}`,
      status: 205,
      operationId,
      summary: `Delete a comment on ${t.on}, with its replies`,
    },
  });

const listReplies = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.list`,
    input: z.object({ ...t.where, commentId, ...PageQueryShape, format }),
    output: listOf(CommentReplySchema),
    http: {
      route: `GET ${t.base}/comments/{commentId}/replies`,
      operationId,
      summary: 'List the replies to a comment, oldest first',
    },
  });

const postReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.create`,
    input: z.object({ ...t.where, commentId, format, body: CommentBodyInputSchema }),
    output: CommentReplySchema,
    http: { route: `POST ${t.base}/comments/{commentId}/replies`, operationId, summary: 'Reply to a comment' },
  });

const getReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.get`,
    input: z.object({ ...t.where, commentId, commentReplyId, format }),
    output: CommentReplySchema,
    http: {
      route: `GET ${t.base}/comments/{commentId}/replies/{commentReplyId}`,
      operationId,
      summary: 'Get a reply to a comment',
    },
  });

const updateReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.update`,
    input: z.object({ ...t.where, commentId, commentReplyId, ...updateShape }),
    output: CommentReplySchema,
    http: {
      route: `PUT ${t.base}/comments/{commentId}/replies/{commentReplyId}`,
      operationId,
      summary: 'Edit or react to a reply',
    },
  });

const deleteReply = <S extends z.ZodRawShape>(t: Target<S>, operationId: string) =>
  t.op({
    id: `${t.replyNoun}.delete`,
    input: z.object({ ...t.where, commentId, commentReplyId }),
    output: z.void(),
    http: {
      route: `DELETE ${t.base}/comments/{commentId}/replies/{commentReplyId}`,
      status: 205,
      operationId,
      summary: 'Delete a reply',
    },
  });

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
