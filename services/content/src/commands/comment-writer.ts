import { type CommentQuote, Events } from '@quire/contracts';
import { invalid, newId, recordEvent, type EntityManager } from '@quire/kit';
import { Comment, CommentReply, type IComment, type ICommentReply } from '../modules/comments/comment.entity.ts';
import type { CommentTarget } from '../modules/comments/comment.loader.ts';
import type { ResolvedBody } from '../modules/comments/comment.mentions.ts';
import { commentRepository } from '../modules/comments/comment.repository.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';

type Target = Pick<CommentTarget, 'space' | 'changeRequest' | 'scope' | 'revisionId'>;

const where = (t: Target) => ({
  space: t.space.id,
  organization: t.space.organizationId,
  ...(t.changeRequest ? { changeRequest: t.changeRequest.id } : {}),
});

export interface CommentCreatorProps {
  target: Target;
  postedBy: string;
  /** The body, its mentions resolved (`resolveMentions`). */
  body: ResolvedBody;
  /** A page of the target's current revision (400 otherwise). */
  pageId?: string | undefined;
  /** The node commented on, kept as given. */
  nodeId?: string | undefined;
  /** The text of the node commented on (needs `nodeId`, 400 otherwise). */
  quote?: CommentQuote | undefined;
  now?: Date;
}

/** A new open comment on a space or a change request; its target's open counter moves with it. */
export async function commentCreator(em: EntityManager, props: CommentCreatorProps): Promise<IComment> {
  const { target } = props;
  const now = props.now ?? new Date();
  if (props.quote && props.nodeId === undefined) throw invalid('Invalid request: quote: a quote needs a node');
  let page: { title: string; documentHash: string | null } | undefined;
  if (props.pageId !== undefined) {
    const tree = await revisionRepository.treeInSpace(em, target.space.id, target.revisionId);
    page = tree.pages.get(props.pageId);
    if (!page)
      throw invalid(
        `Invalid request: page: no page ${props.pageId} in the ${target.changeRequest ? "change request's" : "space's"} revision`,
      );
  }
  const comment = em.create(Comment, {
    id: newId(),
    spaceId: target.space.id,
    changeRequestId: target.scope.changeRequestId,
    postedBy: props.postedBy,
    body: props.body.markdown,
    mentions: props.body.mentions,
    revisionId: target.revisionId,
    pageId: props.pageId ?? null,
    pageTitle: page?.title ?? null,
    pageDocument: page?.documentHash ?? null,
    nodeId: props.nodeId ?? null,
    quoteText: props.quote?.text ?? null,
    quoteOffset: props.quote?.offset ?? null,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    replies: 0,
    postedAt: now,
    editedAt: null,
  });
  em.persist(comment);
  await commentRepository.countOpen(em, target.scope, 1);
  recordEvent(em, Events.commentCreated, {
    ...where(target),
    comment: comment.id,
    ...(props.pageId ? { page: props.pageId } : {}),
    postedBy: props.postedBy,
    mentions: comment.mentions,
  });
  return comment;
}

export interface CommentEdit {
  /** The new body, its mentions resolved (`resolveMentions`). */
  body?: ResolvedBody | undefined;
  addedReactions?: string[] | undefined;
  removedReactions?: string[] | undefined;
}

/** Body and reactions of a comment or a reply (`subjectId`): the names of the fields that changed. */
async function edit(
  em: EntityManager,
  commentId: string,
  subject: { id: string; body: string; mentions: string[]; editedAt?: Date | null | undefined },
  by: string,
  change: CommentEdit,
  now: Date,
): Promise<string[]> {
  const fields: string[] = [];
  if (change.body !== undefined && change.body.markdown !== subject.body) {
    subject.body = change.body.markdown;
    subject.mentions = change.body.mentions;
    subject.editedAt = now;
    fields.push('body');
  }
  const added = await commentRepository.react(
    em,
    commentId,
    subject.id,
    by,
    [...new Set(change.addedReactions ?? [])],
    now,
  );
  const removed = await commentRepository.unreact(em, subject.id, by, [...new Set(change.removedReactions ?? [])]);
  if (added + removed > 0) fields.push('reactions');
  return fields;
}

export interface CommentUpdaterProps {
  target: Target;
  /** Locked by the loader. */
  comment: IComment;
  by: string;
  resolved?: boolean | undefined;
  change: CommentEdit;
  now?: Date;
}

/** Resolves or reopens a comment (moving the open counter), edits its body (its author only: the policy), adds and removes the caller's reactions. */
export async function commentUpdater(em: EntityManager, props: CommentUpdaterProps): Promise<IComment> {
  const { target, comment, by } = props;
  const now = props.now ?? new Date();
  const fields = await edit(em, comment.id, comment, by, props.change, now);
  if (fields.length)
    recordEvent(em, Events.commentUpdated, {
      ...where(target),
      comment: comment.id,
      fields,
      ...(fields.includes('body') ? { mentions: comment.mentions } : {}),
    });
  if (props.resolved === true && comment.status === 'open') {
    Object.assign(comment, { status: 'resolved', resolvedAt: now, resolvedBy: by });
    await commentRepository.countOpen(em, target.scope, -1);
    recordEvent(em, Events.commentResolved, { ...where(target), comment: comment.id, resolvedBy: by });
  } else if (props.resolved === false && comment.status === 'resolved') {
    Object.assign(comment, { status: 'open', resolvedAt: null, resolvedBy: null });
    await commentRepository.countOpen(em, target.scope, 1);
    recordEvent(em, Events.commentReopened, { ...where(target), comment: comment.id, reopenedBy: by });
  }
  return comment;
}

/** Deletes a comment (locked by the loader) with its replies and reactions; an open one leaves the open counter. */
export async function commentDeleter(
  em: EntityManager,
  { target, comment }: { target: Target; comment: IComment },
): Promise<void> {
  if (comment.status === 'open') await commentRepository.countOpen(em, target.scope, -1);
  em.remove(comment);
  recordEvent(em, Events.commentDeleted, { ...where(target), comment: comment.id });
}

export async function commentReplyCreator(
  em: EntityManager,
  props: { target: Target; comment: IComment; postedBy: string; body: ResolvedBody; now?: Date },
): Promise<ICommentReply> {
  const now = props.now ?? new Date();
  const reply = em.create(CommentReply, {
    id: newId(),
    commentId: props.comment.id,
    postedBy: props.postedBy,
    body: props.body.markdown,
    mentions: props.body.mentions,
    postedAt: now,
    editedAt: null,
  });
  em.persist(reply);
  await commentRepository.countReplies(em, props.comment.id, 1);
  recordEvent(em, Events.commentReplyCreated, {
    ...where(props.target),
    comment: props.comment.id,
    reply: reply.id,
    postedBy: props.postedBy,
    mentions: reply.mentions,
  });
  return reply;
}

export async function commentReplyUpdater(
  em: EntityManager,
  props: { comment: IComment; reply: ICommentReply; by: string; change: CommentEdit; now?: Date },
): Promise<ICommentReply> {
  await edit(em, props.comment.id, props.reply, props.by, props.change, props.now ?? new Date());
  return props.reply;
}

export async function commentReplyDeleter(
  em: EntityManager,
  { target, comment, reply }: { target: Target; comment: IComment; reply: ICommentReply },
): Promise<void> {
  await commentRepository.deleteReactions(em, reply.id);
  await commentRepository.countReplies(em, comment.id, -1);
  em.remove(reply);
  recordEvent(em, Events.commentReplyDeleted, { ...where(target), comment: comment.id, reply: reply.id });
}
