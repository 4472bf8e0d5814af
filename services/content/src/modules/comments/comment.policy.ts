import type { Actor } from '@quire/contracts';
import { definePolicy, forbidden, type AccessLevel } from '@quire/kit';

/** What decides a caller's rights on a comment or reply: their role on the space, and whether they wrote it. */
export interface CommentFacts {
  /** The caller's level on the comment's space (null: not visible). */
  level: AccessLevel | null;
  /** The caller wrote the comment (or reply). */
  author: boolean;
}

/**
 * Comments and replies: readers read; the `comment` role (or higher) posts, replies, reacts, resolves and
 * reopens; authors (still holding `comment`) edit and delete their own; space admins delete any.
 */
export const commentPolicy = definePolicy({
  resource: 'Comment',
  role: (_actor: Actor, facts: CommentFacts) => facts.level,
  actions: {
    view: 'read',
    post: 'comment',
    reply: 'comment',
    react: 'comment',
    resolve: 'comment',
    /** Edit the body: the author only (checked beside the level). */
    edit: 'comment',
    /** Delete: the author, or any space admin (`deleteAny`). */
    delete: 'comment',
    deleteAny: 'admin',
  },
  describe: {
    view: 'Viewing comments',
    post: 'Posting comments',
    reply: 'Replying to comments',
    react: 'Reacting to comments',
    resolve: 'Resolving or reopening comments',
    edit: 'Editing comments',
    delete: 'Deleting comments',
    deleteAny: "Deleting other users' comments",
  },
  permissions: { view: 'read', reply: 'comment' },
});
export type CommentAction = keyof typeof commentPolicy.actions;

/** Whether the caller may `action` on the comment (or reply): the level table, plus authorship for edit and delete. */
export function commentAllows(actor: Actor, facts: CommentFacts, action: CommentAction): boolean {
  if (!commentPolicy.allows(actor, facts, action)) return false;
  if (action === 'edit') return facts.author;
  if (action === 'delete') return facts.author || commentPolicy.allows(actor, facts, 'deleteAny');
  return true;
}

/** 404 when the space is not visible, 403 when the caller may not `action` (not the author, or the role is too low). */
export function assertComment(actor: Actor, facts: CommentFacts, action: CommentAction): void {
  commentPolicy.assert(actor, facts, action);
  if (commentAllows(actor, facts, action)) return;
  throw forbidden(
    action === 'edit' ? 'Only its author can edit a comment' : 'Only its author or a space admin can delete a comment',
  );
}

/** The `permissions` object of a comment or reply as the caller sees it. */
export function commentPermissions(
  actor: Actor,
  facts: CommentFacts,
): { view: boolean; edit: boolean; reply: boolean; delete: boolean } {
  return {
    ...commentPolicy.permissions(facts.level),
    edit: commentAllows(actor, facts, 'edit'),
    delete: commentAllows(actor, facts, 'delete'),
  };
}
