import type { CommentEdit } from '../../commands/comment-writer.ts';
import type { ContentContext } from '../../trpc.ts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../change-requests/change-request.repository.ts';
import { loadSpaceFor, type LoadedSpace } from '../spaces/space.loader.ts';
import type { IComment, ICommentReply } from './comment.entity.ts';
import { resolveMentions } from './comment.mentions.ts';
import { assertComment, type CommentAction, type CommentFacts } from './comment.policy.ts';
import { commentRepository, type CommentScope } from './comment.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/** Where the comment operations act: a space, or one of its change requests (`changeRequestId` given). */
export interface CommentTargetInput {
  spaceId: string;
  changeRequestId?: string;
}

export interface CommentTarget extends LoadedSpace {
  changeRequest: IChangeRequest | undefined;
  scope: CommentScope;
  /** The revision comments are posted on now: the change request's, or the space's live one. */
  revisionId: string;
}

/** The space (or change request) whose comments the caller reads (`view`) or writes (`comment`: live spaces only). */
export async function loadCommentTarget(
  ctx: Ctx,
  input: CommentTargetInput,
  action: 'view' | 'comment',
): Promise<CommentTarget> {
  const loaded = await loadSpaceFor(ctx, input.spaceId, action);
  const changeRequest =
    input.changeRequestId !== undefined
      ? await changeRequestRepository.findInSpace(ctx.em, loaded.space.id, input.changeRequestId)
      : undefined;
  return {
    ...loaded,
    changeRequest,
    scope: { spaceId: loaded.space.id, changeRequestId: changeRequest?.id ?? null },
    revisionId: changeRequest?.revisionId ?? loaded.space.revisionId,
  };
}

export const commentFacts = (ctx: Ctx, target: CommentTarget, postedBy: string): CommentFacts => ({
  level: target.role,
  author: ctx.actor.kind === 'user' && ctx.actor.userId === postedBy,
});

/**
 * A comment the caller may do every one of `actions` on, in its target. Writes lock the comment's row until the mutation
 * commits, so concurrent resolves, reopens and deletes move the open counters once.
 */
export async function loadCommentFor(
  ctx: Ctx,
  input: CommentTargetInput & { commentId: string },
  ...actions: CommentAction[]
): Promise<CommentTarget & { comment: IComment }> {
  const write = actions.some((a) => a !== 'view');
  const target = await loadCommentTarget(ctx, input, write ? 'comment' : 'view');
  const comment = await commentRepository.find(ctx.em, target.scope, input.commentId, write);
  for (const action of actions) assertComment(ctx.actor, commentFacts(ctx, target, comment.postedBy), action);
  return { ...target, comment };
}

/** A reply the caller may do every one of `actions` on (writes lock its comment, as for the comment's own writes: a concurrent delete of the comment waits, or wins with a 404). */
export async function loadReplyFor(
  ctx: Ctx,
  input: CommentTargetInput & { commentId: string; commentReplyId: string },
  ...actions: CommentAction[]
): Promise<CommentTarget & { comment: IComment; reply: ICommentReply }> {
  const write = actions.some((a) => a !== 'view');
  const target = await loadCommentTarget(ctx, input, write ? 'comment' : 'view');
  const comment = await commentRepository.find(ctx.em, target.scope, input.commentId, write);
  const reply = await commentRepository.findReply(ctx.em, comment.id, input.commentReplyId);
  for (const action of actions) assertComment(ctx.actor, commentFacts(ctx, target, reply.postedBy), action);
  return { ...target, comment, reply };
}

/** What an update asks: resolving, editing the body, reacting. */
export const commentUpdateActions = (input: {
  resolved?: boolean | undefined;
  body?: unknown;
  addedReactions?: string[] | undefined;
  removedReactions?: string[] | undefined;
}): CommentAction[] => [
  'react',
  ...(input.resolved !== undefined ? (['resolve'] as const) : []),
  ...(input.body !== undefined ? (['edit'] as const) : []),
];
/** The edit an update asks, a new body's mentions resolved against the space's organization. */
export const loadCommentEdit = async (
  ctx: ContentContext,
  organizationId: string,
  input: {
    body?: { markdown: string } | undefined;
    addedReactions?: string[] | undefined;
    removedReactions?: string[] | undefined;
  },
): Promise<CommentEdit> => ({
  body: input.body ? await resolveMentions(ctx, organizationId, input.body.markdown) : undefined,
  addedReactions: input.addedReactions,
  removedReactions: input.removedReactions,
});
