import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { sql } from '@quire/kit';
import { buildSpace, failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { editContent } from '../modules/change-requests/content-edit.fixtures.ts';
import { Comment, CommentReply } from '../modules/comments/comment.entity.ts';
import { revisionRepository } from '../modules/revisions/revision.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import {
  commentCreator,
  commentDeleter,
  commentReplyCreator,
  commentReplyDeleter,
  commentReplyUpdater,
  commentUpdater,
} from './comment-writer.ts';

const ORG = 'comments';
const t = useTestService(contentService, loadContentConfig, { label: 'comment-writer' });

/** The target the loader builds: the space itself, or one of its change requests. */
async function targetOf(em: EntityManager, spaceId: string, crId?: string) {
  const space = await em.findOneOrFail(Space, { id: spaceId });
  const changeRequest = crId ? await em.findOneOrFail(ChangeRequest, { id: crId }) : undefined;
  return {
    space,
    changeRequest,
    scope: { spaceId, changeRequestId: changeRequest?.id ?? null },
    revisionId: changeRequest?.revisionId ?? space.revisionId,
  };
}
const body = (markdown: string, mentions: string[] = []) => ({ markdown, mentions });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const openCount = async (spaceId: string, crId?: string) =>
  crId
    ? (await t.em().findOneOrFail(ChangeRequest, { id: crId })).comments
    : (await t.em().findOneOrFail(Space, { id: spaceId })).comments;
const eventsOf = async (spaceId: string) =>
  (await t.outboxEvents())
    .filter((e) => (e.data as { space?: string }).space === spaceId && e.type.startsWith('comment'))
    .map((e) => ({
      type: e.type,
      ...(e.data as { fields?: string[]; mentions?: string[] } & Record<string, unknown>),
    }));
const reactions = (subjectId: string) =>
  sql<{ emoji: string; user_id: string }>(
    t.em(),
    'select emoji, user_id from :schema.comment_reaction where subject_id = ? order by emoji, user_id',
    [subjectId],
  );

describe('commentCreator', () => {
  it('posts an open comment on a page of a change request, keeping the page as it was, and counts it open', async () => {
    const space = await buildSpace(t, { org: ORG });
    const cr = await editContent(
      t,
      space.id,
      undefined,
      [{ operation: 'insert_page', title: 'Intro', document: {} }],
      'u1',
    );
    const [page] = (await revisionRepository.treeInSpace(t.em(), space.id, cr.revisionId)).pages.values();
    const comment = await inTx(async (tx) =>
      commentCreator(tx, {
        target: await targetOf(tx, space.id, cr.id),
        postedBy: 'u1',
        body: body('Hi @[Ann](u2)', ['u2']),
        pageId: page!.id,
        nodeId: 'n1',
      }),
    );
    expect(await t.em().findOneOrFail(Comment, { id: comment.id })).toMatchObject({
      changeRequestId: cr.id,
      revisionId: cr.revisionId,
      pageId: page!.id,
      pageTitle: 'Intro',
      nodeId: 'n1',
      status: 'open',
      body: 'Hi @[Ann](u2)',
      mentions: ['u2'],
    });
    expect(await openCount(space.id, cr.id)).toBe(1);
    expect(await openCount(space.id)).toBe(0);
    expect(await eventsOf(space.id)).toEqual([
      expect.objectContaining({
        type: 'comment.created',
        comment: comment.id,
        changeRequest: cr.id,
        page: page!.id,
        postedBy: 'u1',
        mentions: ['u2'],
      }),
    ]);
  });

  it('refuses a page that is not in the target revision (400), writing nothing', async () => {
    const space = await buildSpace(t, { org: ORG });
    const err = await failureOf(
      inTx(async (tx) =>
        commentCreator(tx, { target: await targetOf(tx, space.id), postedBy: 'u1', body: body('x'), pageId: 'nope' }),
      ),
    );
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'invalid_input',
      message: "Invalid request: page: no page nope in the space's revision",
    });
    expect(await t.em().count(Comment, { spaceId: space.id })).toBe(0);
    expect(await openCount(space.id)).toBe(0);
    expect(await eventsOf(space.id)).toEqual([]);
  });
});

describe('commentCreator quotes', () => {
  it('keeps the text selected in a node and where it starts', async () => {
    const space = await buildSpace(t, { org: ORG });
    const comment = await inTx(async (tx) =>
      commentCreator(tx, {
        target: await targetOf(tx, space.id),
        postedBy: 'u1',
        body: body('Say it plainer'),
        nodeId: 'n1',
        quote: { text: 'synergistic', offset: 12 },
      }),
    );
    expect(await t.em().findOneOrFail(Comment, { id: comment.id })).toMatchObject({
      nodeId: 'n1',
      quoteText: 'synergistic',
      quoteOffset: 12,
    });
  });

  it('refuses a quote without a node (400), writing nothing', async () => {
    const space = await buildSpace(t, { org: ORG });
    const err = await failureOf(
      inTx(async (tx) =>
        commentCreator(tx, {
          target: await targetOf(tx, space.id),
          postedBy: 'u1',
          body: body('x'),
          quote: { text: 'floating' },
        }),
      ),
    );
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'invalid_input',
      message: 'Invalid request: quote: a quote needs a node',
    });
    expect(await t.em().count(Comment, { spaceId: space.id })).toBe(0);
    expect(await openCount(space.id)).toBe(0);
  });
});

describe('commentUpdater', () => {
  it('resolves and reopens once each, moving the open counter; edits the body; reactions once per user and emoji', async () => {
    const space = await buildSpace(t, { org: ORG });
    const posted = await inTx(async (tx) =>
      commentCreator(tx, { target: await targetOf(tx, space.id), postedBy: 'u1', body: body('first') }),
    );
    const update = (
      by: string,
      props: { resolved?: boolean; change?: Parameters<typeof commentUpdater>[1]['change'] },
    ) =>
      inTx(async (tx) =>
        commentUpdater(tx, {
          target: await targetOf(tx, space.id),
          comment: await tx.findOneOrFail(Comment, { id: posted.id }),
          by,
          resolved: props.resolved,
          change: props.change ?? {},
        }),
      );
    expect(await openCount(space.id)).toBe(1);
    await update('u2', { resolved: true });
    await update('u2', { resolved: true }); // already resolved: nothing moves
    expect(await openCount(space.id)).toBe(0);
    expect(await t.em().findOneOrFail(Comment, { id: posted.id })).toMatchObject({
      status: 'resolved',
      resolvedBy: 'u2',
    });
    await update('u3', { resolved: false });
    await update('u3', { resolved: false });
    expect(await openCount(space.id)).toBe(1);
    expect(await t.em().findOneOrFail(Comment, { id: posted.id })).toMatchObject({ status: 'open', resolvedBy: null });

    await update('u1', { change: { body: body('edited @[Bo](u4)', ['u4']), addedReactions: ['👍', '👍', '🎉'] } });
    await update('u2', { change: { addedReactions: ['👍'] } });
    await update('u1', { change: { body: body('edited @[Bo](u4)', ['u4']), addedReactions: ['👍'] } }); // no change
    await update('u1', { change: { removedReactions: ['🎉'] } });
    const stored = await t.em().findOneOrFail(Comment, { id: posted.id });
    expect(stored).toMatchObject({ body: 'edited @[Bo](u4)', mentions: ['u4'] });
    expect(stored.editedAt).toBeInstanceOf(Date);
    expect(await reactions(posted.id)).toEqual([
      { emoji: '👍', user_id: 'u1' },
      { emoji: '👍', user_id: 'u2' },
    ]);
    expect((await eventsOf(space.id)).map(({ type, fields, mentions }) => ({ type, fields, mentions }))).toEqual([
      { type: 'comment.created', fields: undefined, mentions: [] },
      { type: 'comment.resolved', fields: undefined, mentions: undefined },
      { type: 'comment.reopened', fields: undefined, mentions: undefined },
      { type: 'comment.updated', fields: ['body', 'reactions'], mentions: ['u4'] },
      { type: 'comment.updated', fields: ['reactions'], mentions: undefined },
      { type: 'comment.updated', fields: ['reactions'], mentions: undefined },
    ]);
  });
});

describe('replies and deletion', () => {
  it('counts replies, deletes a reply with its reactions, and a comment with everything under it', async () => {
    const space = await buildSpace(t, { org: ORG });
    const comment = await inTx(async (tx) =>
      commentCreator(tx, { target: await targetOf(tx, space.id), postedBy: 'u1', body: body('c') }),
    );
    const reply = (by: string) =>
      inTx(async (tx) =>
        commentReplyCreator(tx, {
          target: await targetOf(tx, space.id),
          comment: await tx.findOneOrFail(Comment, { id: comment.id }),
          postedBy: by,
          body: body(`from ${by}`),
        }),
      );
    const r1 = await reply('u2');
    const r2 = await reply('u3');
    expect((await t.em().findOneOrFail(Comment, { id: comment.id })).replies).toBe(2);
    await inTx(async (tx) =>
      commentReplyUpdater(tx, {
        comment: await tx.findOneOrFail(Comment, { id: comment.id }),
        reply: await tx.findOneOrFail(CommentReply, { id: r1.id }),
        by: 'u1',
        change: { body: body('from u2, edited'), addedReactions: ['👀'] },
      }),
    );
    expect(await t.em().findOneOrFail(CommentReply, { id: r1.id })).toMatchObject({ body: 'from u2, edited' });
    expect(await reactions(r1.id)).toEqual([{ emoji: '👀', user_id: 'u1' }]);

    await inTx(async (tx) =>
      commentReplyDeleter(tx, {
        target: await targetOf(tx, space.id),
        comment: await tx.findOneOrFail(Comment, { id: comment.id }),
        reply: await tx.findOneOrFail(CommentReply, { id: r1.id }),
      }),
    );
    expect(await reactions(r1.id)).toEqual([]);
    expect((await t.em().findOneOrFail(Comment, { id: comment.id })).replies).toBe(1);

    await inTx(async (tx) =>
      commentUpdater(tx, {
        target: await targetOf(tx, space.id),
        comment: await tx.findOneOrFail(Comment, { id: comment.id }),
        by: 'u2',
        change: { addedReactions: ['👍'] },
      }),
    );
    await inTx(async (tx) =>
      commentDeleter(tx, {
        target: await targetOf(tx, space.id),
        comment: await tx.findOneOrFail(Comment, { id: comment.id }),
      }),
    );
    expect(await t.em().count(Comment, { id: comment.id })).toBe(0);
    expect(await t.em().count(CommentReply, { id: r2.id })).toBe(0);
    expect(await reactions(comment.id)).toEqual([]);
    expect(await openCount(space.id)).toBe(0);
    expect((await eventsOf(space.id)).map((e) => e.type)).toEqual([
      'comment.created',
      'comment-reply.created',
      'comment-reply.created',
      'comment-reply.deleted',
      'comment.updated',
      'comment.deleted',
    ]);
  });

  it('deleting a resolved comment leaves the open counter as it is', async () => {
    const space = await buildSpace(t, { org: ORG });
    const keep = await inTx(async (tx) =>
      commentCreator(tx, { target: await targetOf(tx, space.id), postedBy: 'u1', body: body('keep') }),
    );
    const gone = await inTx(async (tx) =>
      commentCreator(tx, { target: await targetOf(tx, space.id), postedBy: 'u1', body: body('gone') }),
    );
    await inTx(async (tx) =>
      commentUpdater(tx, {
        target: await targetOf(tx, space.id),
        comment: await tx.findOneOrFail(Comment, { id: gone.id }),
        by: 'u1',
        resolved: true,
        change: {},
      }),
    );
    await inTx(async (tx) =>
      commentDeleter(tx, {
        target: await targetOf(tx, space.id),
        comment: await tx.findOneOrFail(Comment, { id: gone.id }),
      }),
    );
    expect(await openCount(space.id)).toBe(1);
    expect(await t.em().count(Comment, { id: keep.id })).toBe(1);
  });
});
