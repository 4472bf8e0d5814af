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
 * The comment operations of one target (a space, or a change request): same shapes, same code, under two
 * route prefixes and two sets of GitBook operationIds.
 */
function commentOperations<S extends z.ZodRawShape>(
  kind: 'space' | 'changeRequest',
  base: `/${string}`,
  where: S,
  names: Record<string, string>,
) {
  const noun = kind === 'space' ? 'spaceComments' : 'changeRequestComments';
  const replyNoun = kind === 'space' ? 'spaceCommentReplies' : 'changeRequestCommentReplies';
  const op = operationsOf('content', { tags: [kind === 'space' ? 'comments' : 'change-request-comments'] });
  const on = kind === 'space' ? 'a space' : 'a change request';
  return {
    list: op({
      id: `${noun}.list`,
      input: z.object({ ...where, ...listShape }),
      output: listOf(CommentSchema),
      http: {
        route: `GET ${base}/comments`,
        operationId: names.list!,
        summary: `List the comments on ${on}, newest first by default`,
      },
    }),
    create: op({
      id: `${noun}.create`,
      input: z.object({
        ...where,
        page: IdSchema.optional().describe('The page commented on (in the current revision)'),
        node: IdSchema.optional().describe('The node commented on (kept as given)'),
        body: CommentBodyInputSchema,
      }),
      output: CommentSchema,
      http: { route: `POST ${base}/comments`, operationId: names.create!, summary: `Post a comment on ${on}` },
    }),
    get: op({
      id: `${noun}.get`,
      input: z.object({ ...where, commentId, format }),
      output: CommentSchema,
      http: { route: `GET ${base}/comments/{commentId}`, operationId: names.get!, summary: `Get a comment on ${on}` },
    }),
    update: op({
      id: `${noun}.update`,
      input: z.object({
        ...where,
        commentId,
        resolved: z.boolean().optional().describe('Resolve (true) or reopen (false) the comment'),
        ...updateShape,
      }),
      output: CommentSchema,
      http: {
        route: `PUT ${base}/comments/{commentId}`,
        operationId: names.update!,
        summary: `Resolve, reopen, edit or react to a comment on ${on}`,
      },
    }),
    delete: op({
      id: `${noun}.delete`,
      input: z.object({ ...where, commentId }),
      output: z.void(),
      http: {
        route: `DELETE ${base}/comments/{commentId}`,
        status: 205,
        operationId: names.delete!,
        summary: `Delete a comment on ${on}, with its replies`,
      },
    }),
    listReplies: op({
      id: `${replyNoun}.list`,
      input: z.object({ ...where, commentId, ...PageQueryShape, format }),
      output: listOf(CommentReplySchema),
      http: {
        route: `GET ${base}/comments/{commentId}/replies`,
        operationId: names.listReplies!,
        summary: 'List the replies to a comment, oldest first',
      },
    }),
    createReply: op({
      id: `${replyNoun}.create`,
      input: z.object({ ...where, commentId, format, body: CommentBodyInputSchema }),
      output: CommentReplySchema,
      http: {
        route: `POST ${base}/comments/{commentId}/replies`,
        operationId: names.createReply!,
        summary: 'Reply to a comment',
      },
    }),
    getReply: op({
      id: `${replyNoun}.get`,
      input: z.object({ ...where, commentId, commentReplyId, format }),
      output: CommentReplySchema,
      http: {
        route: `GET ${base}/comments/{commentId}/replies/{commentReplyId}`,
        operationId: names.getReply!,
        summary: 'Get a reply to a comment',
      },
    }),
    updateReply: op({
      id: `${replyNoun}.update`,
      input: z.object({ ...where, commentId, commentReplyId, ...updateShape }),
      output: CommentReplySchema,
      http: {
        route: `PUT ${base}/comments/{commentId}/replies/{commentReplyId}`,
        operationId: names.updateReply!,
        summary: 'Edit or react to a reply',
      },
    }),
    deleteReply: op({
      id: `${replyNoun}.delete`,
      input: z.object({ ...where, commentId, commentReplyId }),
      output: z.void(),
      http: {
        route: `DELETE ${base}/comments/{commentId}/replies/{commentReplyId}`,
        status: 205,
        operationId: names.deleteReply!,
        summary: 'Delete a reply',
      },
    }),
    commenters: op({
      id: `${noun}.listCommenters`,
      input: z.object({ ...where, ...PageQueryShape }),
      output: listOf(MemberSchema),
      http: {
        route: `GET ${base}/commenters`,
        operationId: names.commenters!,
        summary: `List the members who commented on ${on} (comments or replies), first commenter first`,
      },
    }),
  };
}

const space = commentOperations(
  'space',
  '/spaces/{spaceId}',
  { spaceId },
  {
    list: 'listCommentsInSpace',
    create: 'postCommentInSpace',
    get: 'getCommentInSpace',
    update: 'updateCommentInSpace',
    delete: 'deleteCommentInSpace',
    listReplies: 'listCommentRepliesInSpace',
    createReply: 'postCommentReplyInSpace',
    getReply: 'getCommentReplyInSpace',
    updateReply: 'updateCommentReplyInSpace',
    deleteReply: 'deleteCommentReplyInSpace',
    commenters: 'listCommentersInSpace',
  },
);

export const listCommentsInSpace = space.list;
export const postCommentInSpace = space.create;
export const getCommentInSpace = space.get;
export const updateCommentInSpace = space.update;
export const deleteCommentInSpace = space.delete;
export const listCommentRepliesInSpace = space.listReplies;
export const postCommentReplyInSpace = space.createReply;
export const getCommentReplyInSpace = space.getReply;
export const updateCommentReplyInSpace = space.updateReply;
export const deleteCommentReplyInSpace = space.deleteReply;
export const listCommentersInSpace = space.commenters;

const changeRequest = commentOperations(
  'changeRequest',
  '/spaces/{spaceId}/change-requests/{changeRequestId}',
  { spaceId, changeRequestId },
  {
    list: 'listCommentsInChangeRequest',
    create: 'postCommentInChangeRequest',
    get: 'getCommentInChangeRequest',
    update: 'updateCommentInChangeRequest',
    delete: 'deleteCommentInChangeRequest',
    listReplies: 'listCommentRepliesInChangeRequest',
    createReply: 'postCommentReplyInChangeRequest',
    getReply: 'getCommentReplyInChangeRequest',
    updateReply: 'updateCommentReplyInChangeRequest',
    deleteReply: 'deleteCommentReplyInChangeRequest',
    commenters: 'listCommentersInChangeRequest',
  },
);

export const listCommentsInChangeRequest = changeRequest.list;
export const postCommentInChangeRequest = changeRequest.create;
export const getCommentInChangeRequest = changeRequest.get;
export const updateCommentInChangeRequest = changeRequest.update;
export const deleteCommentInChangeRequest = changeRequest.delete;
export const listCommentRepliesInChangeRequest = changeRequest.listReplies;
export const postCommentReplyInChangeRequest = changeRequest.createReply;
export const getCommentReplyInChangeRequest = changeRequest.getReply;
export const updateCommentReplyInChangeRequest = changeRequest.updateReply;
export const deleteCommentReplyInChangeRequest = changeRequest.deleteReply;
export const listCommentersInChangeRequest = changeRequest.commenters;
