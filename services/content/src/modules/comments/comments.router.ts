import { ops } from '@quire/contracts';
import type { Handler } from '@quire/kit';
import { implement, type ContentContext } from '../../trpc.ts';
import {
  commentCreator,
  commentDeleter,
  commentReplyCreator,
  commentReplyDeleter,
  commentReplyUpdater,
  commentUpdater,
} from '../../commands/comment-writer.ts';
import {
  commentUpdateActions,
  loadCommentEdit,
  loadCommentFor,
  loadCommentTarget,
  loadReplyFor,
} from './comment.loader.ts';
import { resolveMentions } from './comment.mentions.ts';
import { presentCommenters, presentComments, presentReplies } from './comment.presenter.ts';
import { commentRepository } from './comment.repository.ts';

/**
 * The handlers, written once for both targets: typed by the space operations, they also serve the change
 * request ones, whose inputs add `changeRequestId` (the loader's target).
 */
type H<Op extends keyof typeof ops> = Handler<(typeof ops)[Op], ContentContext>;

const list: H<'listCommentsInSpace'> = async ({ input, ctx }) => {
  const target = await loadCommentTarget(ctx, input, 'view');
  const page = await commentRepository.commentsPage(ctx.em, target.scope, input);
  return { ...page, items: await presentComments(ctx, target, page.items, input.format) };
};
const create: H<'postCommentInSpace'> = async ({ input, ctx }) => {
  const target = await loadCommentTarget(ctx, input, 'comment');
  const comment = await commentCreator(ctx.em, {
    target,
    postedBy: ctx.actor.userId,
    body: await resolveMentions(ctx, target.space.organizationId, input.body.markdown),
    pageId: input.page,
    nodeId: input.node,
    quote: input.quote,
  });
  return (await presentComments(ctx, target, [comment]))[0]!;
};
const get: H<'getCommentInSpace'> = async ({ input, ctx }) => {
  const { comment, ...target } = await loadCommentFor(ctx, input, 'view');
  return (await presentComments(ctx, target, [comment], input.format))[0]!;
};
const update: H<'updateCommentInSpace'> = async ({ input, ctx }) => {
  const { comment, ...target } = await loadCommentFor(ctx, input, ...commentUpdateActions(input));
  await commentUpdater(ctx.em, {
    target,
    comment,
    by: ctx.actor.userId,
    resolved: input.resolved,
    change: await loadCommentEdit(ctx, target.space.organizationId, input),
  });
  return (await presentComments(ctx, target, [comment]))[0]!;
};
const remove: H<'deleteCommentInSpace'> = async ({ input, ctx }) => {
  const { comment, ...target } = await loadCommentFor(ctx, input, 'delete');
  await commentDeleter(ctx.em, { target, comment });
};
const listReplies: H<'listCommentRepliesInSpace'> = async ({ input, ctx }) => {
  const { comment, ...target } = await loadCommentFor(ctx, input, 'view');
  const page = await commentRepository.repliesPage(ctx.em, comment.id, input);
  return { ...page, items: await presentReplies(ctx, target, comment, page.items, input.format) };
};
const createReply: H<'postCommentReplyInSpace'> = async ({ input, ctx }) => {
  const { comment, ...target } = await loadCommentFor(ctx, input, 'reply');
  const reply = await commentReplyCreator(ctx.em, {
    target,
    comment,
    postedBy: ctx.actor.userId,
    body: await resolveMentions(ctx, target.space.organizationId, input.body.markdown),
  });
  return (await presentReplies(ctx, target, comment, [reply], input.format))[0]!;
};
const getReply: H<'getCommentReplyInSpace'> = async ({ input, ctx }) => {
  const { comment, reply, ...target } = await loadReplyFor(ctx, input, 'view');
  return (await presentReplies(ctx, target, comment, [reply], input.format))[0]!;
};
const updateReply: H<'updateCommentReplyInSpace'> = async ({ input, ctx }) => {
  const { comment, reply, ...target } = await loadReplyFor(ctx, input, ...commentUpdateActions(input));
  await commentReplyUpdater(ctx.em, {
    comment,
    reply,
    by: ctx.actor.userId,
    change: await loadCommentEdit(ctx, target.space.organizationId, input),
  });
  return (await presentReplies(ctx, target, comment, [reply]))[0]!;
};
const deleteReply: H<'deleteCommentReplyInSpace'> = async ({ input, ctx }) => {
  const { comment, reply, ...target } = await loadReplyFor(ctx, input, 'delete');
  await commentReplyDeleter(ctx.em, { target, comment, reply });
};

const commenters: H<'listCommentersInSpace'> = async ({ input, ctx }) => {
  const target = await loadCommentTarget(ctx, input, 'view');
  const page = await commentRepository.commenters(ctx.em, target.scope, input);
  return { ...page, items: await presentCommenters(ctx, target, page.items) };
};

/** Comments and replies on spaces and on change requests: one handler per operation pair. */
export const commentProcedures = {
  listCommentsInSpace: implement(ops.listCommentsInSpace, list),
  postCommentInSpace: implement(ops.postCommentInSpace, create),
  getCommentInSpace: implement(ops.getCommentInSpace, get),
  updateCommentInSpace: implement(ops.updateCommentInSpace, update),
  deleteCommentInSpace: implement(ops.deleteCommentInSpace, remove),
  listCommentRepliesInSpace: implement(ops.listCommentRepliesInSpace, listReplies),
  postCommentReplyInSpace: implement(ops.postCommentReplyInSpace, createReply),
  getCommentReplyInSpace: implement(ops.getCommentReplyInSpace, getReply),
  updateCommentReplyInSpace: implement(ops.updateCommentReplyInSpace, updateReply),
  deleteCommentReplyInSpace: implement(ops.deleteCommentReplyInSpace, deleteReply),
  listCommentersInSpace: implement(ops.listCommentersInSpace, commenters),
  listCommentsInChangeRequest: implement(ops.listCommentsInChangeRequest, list),
  postCommentInChangeRequest: implement(ops.postCommentInChangeRequest, create),
  getCommentInChangeRequest: implement(ops.getCommentInChangeRequest, get),
  updateCommentInChangeRequest: implement(ops.updateCommentInChangeRequest, update),
  deleteCommentInChangeRequest: implement(ops.deleteCommentInChangeRequest, remove),
  listCommentRepliesInChangeRequest: implement(ops.listCommentRepliesInChangeRequest, listReplies),
  postCommentReplyInChangeRequest: implement(ops.postCommentReplyInChangeRequest, createReply),
  getCommentReplyInChangeRequest: implement(ops.getCommentReplyInChangeRequest, getReply),
  updateCommentReplyInChangeRequest: implement(ops.updateCommentReplyInChangeRequest, updateReply),
  deleteCommentReplyInChangeRequest: implement(ops.deleteCommentReplyInChangeRequest, deleteReply),
  listCommentersInChangeRequest: implement(ops.listCommentersInChangeRequest, commenters),
};
