import { ops, type Comment, type CommentReply, type Member, type Reaction, type User } from '@quire/contracts';
import { usersByIds } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { presentPageHeading } from '../content/content.presenter.ts';
import { markdownToDocument } from '@quire/document/model';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { treeIndex } from '../revisions/revision-tree.ts';
import type { IComment, ICommentReply } from './comment.entity.ts';
import { commentFacts, type CommentTarget } from './comment.loader.ts';
import { commentPermissions } from './comment.policy.ts';
import { commentRepository, type ReactionRow } from './comment.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor' | 'peers' | 'requestId' | 'urls'>;
export type BodyFormat = 'markdown' | 'document' | undefined;

/**
 * The body as asked: markdown, or the JSON document. The contract describes a comment's document loosely (a
 * JSON object of blocks): the document model's interfaces, which have no index signature, are such objects.
 */
const bodyOf = (markdown: string, format: BodyFormat): Comment['body'] =>
  format === 'document' ? (markdownToDocument(markdown) as unknown as Comment['body']) : { markdown };

/** Reactions per subject, grouped by emoji in order of first reaction. */
function groupReactions(rows: ReactionRow[], users: Map<string, User>): Map<string, Reaction[]> {
  const out = new Map<string, Map<string, Reaction>>();
  for (const r of rows) {
    const bySubject = out.get(r.subjectId) ?? new Map<string, Reaction>();
    out.set(r.subjectId, bySubject);
    const reaction = bySubject.get(r.emoji) ?? { emoji: r.emoji, count: 0, users: [] };
    bySubject.set(r.emoji, reaction);
    reaction.count += 1;
    reaction.users.push({ user: users.get(r.userId)!, reactedAt: r.reactedAt.toISOString() });
  }
  return new Map([...out].map(([k, v]) => [k, [...v.values()]]));
}

/**
 * What a comment and a reply both show of a post (`posted`: its id, who posted it and when, its edit, its reactions),
 * and the users `userIds` and the reactions name: the users in one call to org-admin, the reactions in one query.
 */
async function postsOf(ctx: Ctx, posts: (IComment | ICommentReply)[], userIds: string[]) {
  const reactions = await commentRepository.reactionsOf(
    ctx.em,
    posts.map((p) => p.id),
  );
  const users = await usersByIds(ctx, [...userIds, ...reactions.map((r) => r.userId)]);
  const byPost = groupReactions(reactions, users);
  const posted = (p: IComment | ICommentReply) => ({
    id: p.id,
    postedBy: users.get(p.postedBy)!,
    postedAt: p.postedAt.toISOString(),
    ...(p.editedAt ? { editedAt: p.editedAt.toISOString() } : {}),
    reactions: byPost.get(p.id) ?? [],
  });
  return { users, posted };
}

const base = (ctx: CommentTarget) =>
  ctx.changeRequest ? `/spaces/${ctx.space.id}/change-requests/${ctx.changeRequest.id}` : `/spaces/${ctx.space.id}`;

/** Comments as the caller sees them: users in one call to org-admin, reactions in one query, pages from the target's current revision. */
export async function presentComments(
  ctx: Ctx,
  target: CommentTarget,
  comments: IComment[],
  format?: BodyFormat,
): Promise<Comment[]> {
  const { users, posted } = await postsOf(
    ctx,
    comments,
    comments.flatMap((c) => (c.resolvedBy ? [c.postedBy, c.resolvedBy] : [c.postedBy])),
  );
  const tree = comments.some((c) => c.pageId)
    ? await revisionRepository.treeInSpace(ctx.em, target.space.id, target.revisionId)
    : undefined;
  const paths = tree ? treeIndex(tree.pages).paths : new Map<string, string>();
  return comments.map((c) => {
    const page = c.pageId ? tree?.pages.get(c.pageId) : undefined;
    return {
      object: 'comment',
      ...posted(c),
      replies: c.replies,
      body: bodyOf(c.body, format),
      target: {
        space: c.spaceId,
        revision: c.revisionId,
        ...(c.changeRequestId ? { changeRequest: c.changeRequestId } : {}),
        ...(c.nodeId ? { node: { id: c.nodeId } } : {}),
        ...(c.quoteText
          ? { quote: { text: c.quoteText, ...(c.quoteOffset !== null ? { offset: c.quoteOffset } : {}) } }
          : {}),
        ...(c.pageId
          ? {
              page: page
                ? {
                    ...presentPageHeading(page),
                    path: paths.get(page.id) ?? page.slug,
                    outdated: (page.documentHash ?? null) !== c.pageDocument,
                  }
                : { id: c.pageId, title: c.pageTitle ?? '', outdated: true },
            }
          : {}),
      },
      urls: { location: ctx.urls.api(`${base(target)}/comments/${c.id}`) },
      permissions: commentPermissions(ctx.actor, commentFacts(ctx, target, c.postedBy)),
      status: c.status,
      ...(c.resolvedAt ? { resolvedAt: c.resolvedAt.toISOString() } : {}),
      ...(c.resolvedBy ? { resolvedBy: users.get(c.resolvedBy)! } : {}),
    };
  });
}

export async function presentReplies(
  ctx: Ctx,
  target: CommentTarget,
  comment: IComment,
  replies: ICommentReply[],
  format?: BodyFormat,
): Promise<CommentReply[]> {
  const { posted } = await postsOf(
    ctx,
    replies,
    replies.map((r) => r.postedBy),
  );
  return replies.map((r) => ({
    object: 'comment-reply',
    ...posted(r),
    body: bodyOf(r.body, format),
    urls: { location: ctx.urls.api(`${base(target)}/comments/${comment.id}/replies/${r.id}`) },
    permissions: commentPermissions(ctx.actor, commentFacts(ctx, target, r.postedBy)),
  }));
}

/** Commenters as organization members, from org-admin (which owns them) in one call; users no longer members are left out. */
export async function presentCommenters(ctx: Ctx, target: CommentTarget, userIds: string[]): Promise<Member[]> {
  if (!userIds.length) return [];
  const { items } = await ctx.peers.asService(
    ops.getMembersByIds,
    { organizationId: target.space.organizationId, ids: userIds },
    ctx.requestId,
  );
  return items;
}
