import { describe, expect, it } from 'vitest';
import { apiError, changeRequestWith, mergeChanges, useCast } from './harness.ts';

const { p, acme, reader, commenter, editor, other } = useCast({
  reader: ['rita@acme.io', 'read', 'Rita'],
  commenter: ['cid@acme.io', 'comment', 'Cid'],
  editor: ['ed@acme.io', 'edit', 'Ed'],
});

/** A space with one page (merged from a change request), and the page. */
async function spaceWithPage(title: string) {
  const api = p.client(acme.token);
  const space = (await api.orgs.createSpace(acme.organization.id, { title })).data;
  await mergeChanges(api, space.id, [
    { operation: 'insert_page', title: 'Notes', document: { markdown: 'Some **notes**.\n' } },
  ]);
  const page = (await api.spaces.listPages(space.id)).data.pages[0]!;
  return { space, page };
}

describe('space comments through the official client', () => {
  it('posts, gets, lists (filters, order, paging), resolves and reopens with the space counter', async () => {
    const { space, page } = await spaceWithPage('Commented');
    const api = p.client(commenter.token);
    const posted = await api.spaces.postCommentInSpace(space.id, {
      page: page.id,
      node: 'node-1',
      body: { markdown: 'Typo here' },
    } as never);
    expect(posted.status).toBe(200);
    expect(posted.data).toMatchObject({
      object: 'comment',
      postedBy: { id: commenter.user.id, displayName: 'Cid' },
      body: { markdown: 'Typo here' },
      status: 'open',
      replies: 0,
      reactions: [],
      target: {
        space: space.id,
        revision: expect.any(String),
        node: { id: 'node-1' },
        page: { id: page.id, title: 'Notes', path: 'notes', outdated: false },
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.data.urls.location).toMatch(new RegExp(`/v1/spaces/${space.id}/comments/${posted.data.id}$`));
    const second = (
      await p.client(acme.token).spaces.postCommentInSpace(space.id, { body: { markdown: 'General remark' } } as never)
    ).data;
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(2);

    // As another caller: no edit, and format=document gives the JSON document.
    const got = (
      await p.client(editor.token).spaces.getCommentInSpace(space.id, posted.data.id, { format: 'document' } as never)
    ).data;
    expect(got.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(got.body).toMatchObject({ object: 'document', nodes: [expect.objectContaining({ type: 'paragraph' })] });
    expect((await p.client(acme.token).spaces.getCommentInSpace(space.id, posted.data.id)).data.permissions).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: true,
    });

    const all = (await api.spaces.listCommentsInSpace(space.id)).data;
    expect(all.count).toBe(2);
    expect(all.items.map((c) => c.id)).toEqual([second.id, posted.data.id]);
    expect(
      (await api.spaces.listCommentsInSpace(space.id, { order: 'asc' } as never)).data.items.map((c) => c.id),
    ).toEqual([posted.data.id, second.id]);
    expect(
      (await api.spaces.listCommentsInSpace(space.id, { targetPage: page.id } as never)).data.items.map((c) => c.id),
    ).toEqual([posted.data.id]);
    expect(
      (await api.spaces.listCommentsInSpace(space.id, { authors: [acme.user.id] } as never)).data.items.map(
        (c) => c.id,
      ),
    ).toEqual([second.id]);
    const first = (await api.spaces.listCommentsInSpace(space.id, { limit: 1 })).data;
    expect(first).toMatchObject({ count: 2, items: [{ id: second.id }], next: { page: expect.any(String) } });
    const rest = (await api.spaces.listCommentsInSpace(space.id, { limit: 1, page: first.next!.page })).data;
    expect(rest.items.map((c) => c.id)).toEqual([posted.data.id]);
    expect(rest.next).toBeUndefined();

    const resolved = (
      await p.client(editor.token).spaces.updateCommentInSpace(space.id, posted.data.id, { resolved: true })
    ).data;
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolvedBy: { id: editor.user.id },
      resolvedAt: expect.any(String),
    });
    await p.client(editor.token).spaces.updateCommentInSpace(space.id, posted.data.id, { resolved: true });
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(1);
    expect(
      (await api.spaces.listCommentsInSpace(space.id, { status: 'resolved' } as never)).data.items.map((c) => c.id),
    ).toEqual([posted.data.id]);
    expect(
      (await api.spaces.listCommentsInSpace(space.id, { status: 'open' } as never)).data.items.map((c) => c.id),
    ).toEqual([second.id]);
    const reopened = (await api.spaces.updateCommentInSpace(space.id, posted.data.id, { resolved: false })).data;
    expect(reopened.status).toBe('open');
    expect((reopened as { resolvedBy?: unknown }).resolvedBy).toBeUndefined();
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(2);
  });

  it('keeps the quote of a comment on a selection (Quire-only), and refuses a quote without a node', async () => {
    const { space, page } = await spaceWithPage('Quoted');
    const api = p.client(commenter.token);
    const posted = await api.spaces.postCommentInSpace(space.id, {
      page: page.id,
      node: 'b1.0/0',
      quote: { text: 'notes', offset: 5 },
      body: { markdown: 'Which notes?' },
    } as never);
    expect(posted.status).toBe(200);
    expect(posted.data.target).toMatchObject({ node: { id: 'b1.0/0' }, quote: { text: 'notes', offset: 5 } });
    const listed = (await api.spaces.listCommentsInSpace(space.id)).data.items;
    expect(listed.map((c) => (c.target as { quote?: unknown }).quote)).toEqual([{ text: 'notes', offset: 5 }]);
    expect(
      await apiError(
        api.spaces.postCommentInSpace(space.id, {
          page: page.id,
          quote: { text: 'notes' },
          body: { markdown: 'Where?' },
        } as never),
      ),
    ).toMatchObject({ code: 400, message: expect.stringContaining('quote') });
    expect(
      await apiError(
        api.spaces.postCommentInSpace(space.id, {
          node: 'n',
          quote: { text: '' },
          body: { markdown: 'Empty' },
        } as never),
      ),
    ).toMatchObject({ code: 400 });
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(1);
  });

  it('edits (author only), reacts once per user per emoji, deletes (author or admin) with the counter', async () => {
    const { space } = await spaceWithPage('Reacted');
    const api = p.client(commenter.token);
    const c = (await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'First' } } as never)).data;
    const edited = (
      await api.spaces.updateCommentInSpace(space.id, c.id, {
        body: { markdown: 'First, edited' },
        addedReactions: ['👍', '👍'],
      } as never)
    ).data;
    expect(edited).toMatchObject({ body: { markdown: 'First, edited' }, editedAt: expect.any(String) });
    await p.client(editor.token).spaces.updateCommentInSpace(space.id, c.id, { addedReactions: ['👍', '🎉'] } as never);
    const reacted = (await api.spaces.updateCommentInSpace(space.id, c.id, { addedReactions: ['👍'] } as never)).data;
    expect(reacted.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: [
          expect.objectContaining({
            user: expect.objectContaining({ id: commenter.user.id }),
            reactedAt: expect.any(String),
          }),
          expect.objectContaining({ user: expect.objectContaining({ id: editor.user.id }) }),
        ],
      },
      {
        emoji: '🎉',
        count: 1,
        users: [expect.objectContaining({ user: expect.objectContaining({ id: editor.user.id }) })],
      },
    ]);
    const unreacted = (
      await p
        .client(editor.token)
        .spaces.updateCommentInSpace(space.id, c.id, { removedReactions: ['👍', '🎉'] } as never)
    ).data;
    expect(unreacted.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);

    expect(
      await apiError(
        p.client(editor.token).spaces.updateCommentInSpace(space.id, c.id, { body: { markdown: 'hijack' } } as never),
      ),
    ).toMatchObject({ code: 403 });
    expect(
      await apiError(api.spaces.updateCommentInSpace(space.id, c.id, { addedReactions: ['not an emoji'] } as never)),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/addedReactions/) });
    expect(
      await apiError(
        p.client(reader.token).spaces.updateCommentInSpace(space.id, c.id, { addedReactions: ['👍'] } as never),
      ),
    ).toMatchObject({ code: 403 });
    expect(
      await apiError(p.client(reader.token).spaces.postCommentInSpace(space.id, { body: { markdown: 'x' } } as never)),
    ).toMatchObject({ code: 403 });
    expect(await apiError(p.client(other.token).spaces.getCommentInSpace(space.id, c.id))).toMatchObject({ code: 404 });
    expect(
      await apiError(api.spaces.postCommentInSpace(space.id, { page: 'nope', body: { markdown: 'x' } } as never)),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/page/) });
    expect(await apiError(api.spaces.postCommentInSpace(space.id, {} as never))).toMatchObject({
      code: 400,
      message: expect.stringMatching(/body/),
    });
    expect((await p.client(reader.token).spaces.getCommentInSpace(space.id, c.id)).data.permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });

    expect(await apiError(p.client(editor.token).spaces.deleteCommentInSpace(space.id, c.id))).toMatchObject({
      code: 403,
    });
    const mine = (
      await p.client(editor.token).spaces.postCommentInSpace(space.id, { body: { markdown: 'mine' } } as never)
    ).data;
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(2);
    expect((await p.client(editor.token).spaces.deleteCommentInSpace(space.id, mine.id)).status).toBe(205);
    expect((await p.client(acme.token).spaces.deleteCommentInSpace(space.id, c.id)).status).toBe(205);
    expect(await apiError(api.spaces.getCommentInSpace(space.id, c.id))).toMatchObject({ code: 404 });
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(0);
  });

  it('replies: post, list paged, get, edit, react, delete; they go with their comment', async () => {
    const { space } = await spaceWithPage('Replied');
    const api = p.client(commenter.token);
    const c = (await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'Question?' } } as never)).data;
    const r1 = await p
      .client(editor.token)
      .spaces.postCommentReplyInSpace(space.id, c.id, { body: { markdown: 'Answer' } } as never);
    expect(r1.status).toBe(200);
    expect(r1.data).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: editor.user.id },
      body: { markdown: 'Answer' },
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const r2 = (await api.spaces.postCommentReplyInSpace(space.id, c.id, { body: { markdown: 'Thanks' } } as never))
      .data;
    expect((await api.spaces.getCommentInSpace(space.id, c.id)).data.replies).toBe(2);
    const page1 = (await api.spaces.listCommentRepliesInSpace(space.id, c.id, { limit: 1 })).data;
    expect(page1).toMatchObject({ count: 2, items: [{ id: r1.data.id }], next: { page: expect.any(String) } });
    expect(
      (await api.spaces.listCommentRepliesInSpace(space.id, c.id, { limit: 1, page: page1.next!.page })).data.items.map(
        (r) => r.id,
      ),
    ).toEqual([r2.id]);
    expect((await api.spaces.getCommentReplyInSpace(space.id, c.id, r2.id)).data.body).toEqual({ markdown: 'Thanks' });
    const edited = (
      await api.spaces.updateCommentReplyInSpace(space.id, c.id, r2.id, {
        body: { markdown: 'Thanks!' },
        addedReactions: ['🙏'],
      } as never)
    ).data;
    expect(edited).toMatchObject({
      body: { markdown: 'Thanks!' },
      editedAt: expect.any(String),
      reactions: [{ emoji: '🙏', count: 1 }],
    });
    expect(
      await apiError(
        api.spaces.updateCommentReplyInSpace(space.id, c.id, r1.data.id, { body: { markdown: 'no' } } as never),
      ),
    ).toMatchObject({ code: 403 });
    expect(
      await apiError(
        p.client(reader.token).spaces.postCommentReplyInSpace(space.id, c.id, { body: { markdown: 'no' } } as never),
      ),
    ).toMatchObject({ code: 403 });
    expect((await api.spaces.deleteCommentReplyInSpace(space.id, c.id, r2.id)).status).toBe(205);
    expect((await api.spaces.getCommentInSpace(space.id, c.id)).data.replies).toBe(1);
    await p.client(acme.token).spaces.deleteCommentInSpace(space.id, c.id);
    expect(await apiError(api.spaces.getCommentReplyInSpace(space.id, c.id, r1.data.id))).toMatchObject({ code: 404 });
    expect(
      Number(
        (
          await p.sql<{ n: string }>('select count(*) as n from content.comment_reply where comment_id = $1', [c.id])
        )[0]!.n,
      ),
    ).toBe(0);
  });

  it('lists the commenters (comments and replies) as members, first commenter first, paged', async () => {
    const { space } = await spaceWithPage('Commenters');
    const api = p.client(commenter.token);
    expect((await api.spaces.listCommentersInSpace(space.id)).data).toEqual({ count: 0, items: [] });
    const c = (await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'one' } } as never)).data;
    await p.client(editor.token).spaces.postCommentReplyInSpace(space.id, c.id, { body: { markdown: 'two' } } as never);
    await api.spaces.postCommentInSpace(space.id, { body: { markdown: 'three' } } as never);
    const all = (await api.spaces.listCommentersInSpace(space.id)).data;
    expect(all.count).toBe(2);
    expect(all.items).toEqual([
      expect.objectContaining({
        object: 'member',
        id: commenter.user.id,
        role: 'comment',
        user: expect.objectContaining({ displayName: 'Cid' }),
      }),
      expect.objectContaining({ object: 'member', id: editor.user.id, role: 'edit' }),
    ]);
    const first = (await api.spaces.listCommentersInSpace(space.id, { limit: 1 })).data;
    expect(first).toMatchObject({ count: 2, items: [{ id: commenter.user.id }], next: { page: expect.any(String) } });
    const second = (await api.spaces.listCommentersInSpace(space.id, { limit: 1, page: first.next!.page })).data;
    expect(second.items.map((m) => m.id)).toEqual([editor.user.id]);
    expect(second.next).toBeUndefined();
    expect(await apiError(api.spaces.listCommentersInSpace(space.id, { page: 'garbage' }))).toMatchObject({
      code: 400,
      message: expect.stringMatching(/page/),
    });
    expect(await apiError(p.client(other.token).spaces.listCommentersInSpace(space.id))).toMatchObject({ code: 404 });
  });

  it('keeps the mentions of organization members, turns the others into plain text, and puts them in the events', async () => {
    const { space } = await spaceWithPage('Mentions');
    const api = p.client(commenter.token);
    const ed = editor.user.id;
    const payload = async (type: string, key: string, id: string) =>
      (
        await p.sql<{ payload: { data: { mentions?: string[] } } }>(
          `select payload from content.outbox where type = $1 and payload->'data'->>$2 = $3 order by seq`,
          [type, key, id],
        )
      ).map((r) => r.payload.data.mentions);

    const posted = (
      await api.spaces.postCommentInSpace(space.id, {
        body: {
          markdown: `Ping @[Ed](${ed}), @[Olga](${other.user.id}) and @[Ghost](nobody-here); @[Ed again](${ed}).`,
        },
      } as never)
    ).data;
    expect(posted.body).toEqual({ markdown: `Ping @[Ed](${ed}), @Olga and @Ghost; @[Ed again](${ed}).` });
    expect(posted).not.toHaveProperty('mentions');
    expect((await api.spaces.getCommentInSpace(space.id, posted.id)).data.body).toEqual({
      markdown: `Ping @[Ed](${ed}), @Olga and @Ghost; @[Ed again](${ed}).`,
    });
    expect(await p.sql('select mentions from content.comment where id = $1', [posted.id])).toEqual([
      { mentions: [ed] },
    ]);
    expect(await payload('comment.created', 'comment', posted.id)).toEqual([[ed]]);
    // In document form, a mention stays a link to the user id.
    const doc = (await api.spaces.getCommentInSpace(space.id, posted.id, { format: 'document' } as never)).data.body;
    expect(JSON.stringify(doc)).toContain(ed);
    expect(JSON.stringify(doc)).not.toContain('nobody-here');

    const plain = (
      await api.spaces.postCommentInSpace(space.id, { body: { markdown: '@[Nobody](nobody-here) only' } } as never)
    ).data;
    expect(plain.body).toEqual({ markdown: '@Nobody only' });
    expect(await payload('comment.created', 'comment', plain.id)).toEqual([[]]);

    const edited = (
      await api.spaces.updateCommentInSpace(space.id, posted.id, {
        body: { markdown: `Now @[Rita](${reader.user.id})` },
      } as never)
    ).data;
    expect(edited.body).toEqual({ markdown: `Now @[Rita](${reader.user.id})` });
    expect(await p.sql('select mentions from content.comment where id = $1', [posted.id])).toEqual([
      { mentions: [reader.user.id] },
    ]);
    expect(await payload('comment.updated', 'comment', posted.id)).toEqual([[reader.user.id]]);

    const reply = (
      await api.spaces.postCommentReplyInSpace(space.id, posted.id, {
        body: { markdown: `@[Ann](${acme.user.id}) @[Olga](${other.user.id})` },
      } as never)
    ).data;
    expect(reply.body).toEqual({ markdown: `@[Ann](${acme.user.id}) @Olga` });
    expect(reply).not.toHaveProperty('mentions');
    expect(await payload('comment-reply.created', 'reply', reply.id)).toEqual([[acme.user.id]]);
    const replyEdited = (
      await api.spaces.updateCommentReplyInSpace(space.id, posted.id, reply.id, {
        body: { markdown: `@[Ed](${ed}) @[X](nobody-here)` },
      } as never)
    ).data;
    expect(replyEdited.body).toEqual({ markdown: `@[Ed](${ed}) @X` });
    expect(await p.sql('select mentions from content.comment_reply where id = $1', [reply.id])).toEqual([
      { mentions: [ed] },
    ]);
  });

  it('records every comment event in the outbox', async () => {
    const rows = await p.sql<{ type: string }>(`select distinct type from content.outbox where type like 'comment%'`);
    expect(rows.map((r) => r.type).sort()).toEqual([
      'comment-reply.created',
      'comment-reply.deleted',
      'comment.created',
      'comment.deleted',
      'comment.reopened',
      'comment.resolved',
      'comment.updated',
    ]);
  });

  it('marks a comment outdated once its page changes', async () => {
    const { space, page } = await spaceWithPage('Outdated');
    const api = p.client(acme.token);
    const c = (
      await api.spaces.postCommentInSpace(space.id, { page: page.id, body: { markdown: 'about this' } } as never)
    ).data;
    const cr = (await api.spaces.createChangeRequest(space.id, {})).data;
    await api.spaces.updateChangeRequestContent(space.id, cr.id, {
      changes: [{ operation: 'update_page', page: page.id, document: { markdown: 'Rewritten.\n' } }],
    } as never);
    await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect((await api.spaces.getCommentInSpace(space.id, c.id)).data.target.page).toMatchObject({
      id: page.id,
      outdated: true,
    });
    const fresh = (
      await api.spaces.postCommentInSpace(space.id, { page: page.id, body: { markdown: 'on the new text' } } as never)
    ).data;
    expect(fresh.target.page).toMatchObject({ outdated: false });

    await mergeChanges(api, space.id, [{ operation: 'delete_page', page: page.id }]);
    const gone = (await api.spaces.getCommentInSpace(space.id, fresh.id)).data.target.page as Record<string, unknown>;
    expect(gone).toEqual({ id: page.id, title: 'Notes', outdated: true });
  });

  it('keeps the open count true under concurrent posts and resolves', async () => {
    const { space } = await spaceWithPage('Busy');
    const api = p.client(commenter.token);
    const posted = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.spaces.postCommentInSpace(space.id, { body: { markdown: `c${i}` } } as never),
      ),
    );
    const target = posted[0]!.data.id;
    await Promise.all(
      Array.from({ length: 4 }, () => api.spaces.updateCommentInSpace(space.id, target, { resolved: true })),
    );
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(5);

    // A resolve, a reopen and deletes racing on one comment move the counter once; replies racing a delete never 500.
    const raced = posted[1]!.data.id;
    const admin = p.client(acme.token);
    const outcomes = await Promise.allSettled([
      api.spaces.updateCommentInSpace(space.id, raced, { resolved: true }),
      admin.spaces.deleteCommentInSpace(space.id, raced),
      admin.spaces.deleteCommentInSpace(space.id, raced),
      ...Array.from({ length: 4 }, () =>
        api.spaces.postCommentReplyInSpace(space.id, raced, { body: { markdown: 'late' } } as never),
      ),
    ]);
    for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as { code?: number }).code).toBe(404);
    expect(await apiError(api.spaces.getCommentInSpace(space.id, raced))).toMatchObject({ code: 404 });
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(4);
    const open = (await api.spaces.listCommentsInSpace(space.id, { status: 'open' } as never)).data.count;
    expect(open).toBe(4);
  });
});

describe('change request comments through the official client', () => {
  it('shares the code of space comments: own list, own counter, pages of the change request', async () => {
    const { space } = await spaceWithPage('With CR');
    const api = p.client(editor.token);
    const cr = await changeRequestWith(api, space.id, [
      { operation: 'insert_page', title: 'Draft page', document: { markdown: 'New.\n' } },
    ]);
    const draftPage = (await api.spaces.listPagesInChangeRequest(space.id, cr.id)).data.pages.find(
      (pg) => pg.title === 'Draft page',
    )!;
    expect(
      await apiError(api.spaces.postCommentInSpace(space.id, { page: draftPage.id, body: { markdown: 'x' } } as never)),
    ).toMatchObject({ code: 400 });
    const c = (
      await api.spaces.postCommentInChangeRequest(space.id, cr.id, {
        page: draftPage.id,
        body: { markdown: 'On the draft' },
      } as never)
    ).data;
    expect(c).toMatchObject({ target: { changeRequest: cr.id, page: { id: draftPage.id, outdated: false } } });
    expect(c.urls.location).toMatch(new RegExp(`/change-requests/${cr.id}/comments/${c.id}$`));
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.comments).toBe(1);
    expect((await api.spaces.getSpaceById(space.id)).data.comments).toBe(0);
    expect((await api.spaces.listCommentsInSpace(space.id)).data.count).toBe(0);
    expect((await api.spaces.listCommentsInChangeRequest(space.id, cr.id)).data.items.map((x) => x.id)).toEqual([c.id]);
    expect(await apiError(api.spaces.getCommentInSpace(space.id, c.id))).toMatchObject({ code: 404 });
    const reply = (
      await api.spaces.postCommentReplyInChangeRequest(space.id, cr.id, c.id, { body: { markdown: 'ok' } } as never)
    ).data;
    expect(
      (await api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, c.id)).data.items.map((r) => r.id),
    ).toEqual([reply.id]);
    expect((await api.spaces.listCommentersInChangeRequest(space.id, cr.id)).data.items.map((m) => m.id)).toEqual([
      editor.user.id,
    ]);
    await api.spaces.updateCommentInChangeRequest(space.id, cr.id, c.id, { resolved: true });
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.comments).toBe(0);
    expect((await api.spaces.deleteCommentInChangeRequest(space.id, cr.id, c.id)).status).toBe(205);
  });
});
