import { ChangeRequestReviewStatus } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { apiError, useCast } from './harness.ts';

const { p, acme, reader, editor, reviewer, other } = useCast({
  reader: ['rita@acme.io', 'read', 'Rita'],
  editor: ['ed@acme.io', 'edit', 'Ed'],
  reviewer: ['rev@acme.io', 'review', 'Rev'],
});

async function newChangeRequest(title: string) {
  const space = (await p.client(acme.token).orgs.createSpace(acme.organization.id, { title })).data;
  const cr = (await p.client(editor.token).spaces.createChangeRequest(space.id, { subject: 'Draft' })).data;
  return { space, cr };
}

describe('requested reviewers through the official client', () => {
  it('requests members (a draft becomes open, the subject changes), idempotently, lists them paged, withdraws them', async () => {
    const { space, cr } = await newChangeRequest('Reviewed');
    const api = p.client(editor.token);
    const asked = await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [reviewer.user.id, reader.user.id],
      subject: 'Ready for review',
    });
    expect(asked.status).toBe(200);
    expect(asked.data.users).toEqual([
      expect.objectContaining({
        object: 'change-request-requested-reviewer',
        kind: 'user',
        revision: cr.revision,
        user: expect.objectContaining({ id: reviewer.user.id, displayName: 'Rev' }),
        requestedBy: expect.objectContaining({ id: editor.user.id, displayName: 'Ed' }),
      }),
      expect.objectContaining({
        kind: 'user',
        user: expect.objectContaining({ id: reader.user.id, displayName: 'Rita' }),
      }),
    ]);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data).toMatchObject({
      subject: 'Ready for review',
      status: 'open',
    });

    // Asking again (by someone else) keeps the pending request as it was.
    const again = await p
      .client(acme.token)
      .spaces.requestReviewersForChangeRequest(space.id, String(cr.number), { users: [reviewer.user.id] });
    expect(again.data.users).toEqual([asked.data.users![0]]);

    const first = (await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { limit: 1 })).data;
    expect(first).toMatchObject({ count: 2, items: [{ kind: 'user' }], next: { page: expect.any(String) } });
    const second = (
      await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id, { limit: 1, page: first.next!.page })
    ).data;
    expect(second.next).toBeUndefined();
    // Oldest request first; the two of one call in no particular order.
    expect([...first.items, ...second.items].map((r) => r.kind === 'user' && r.user.id).sort()).toEqual(
      [reviewer.user.id, reader.user.id].sort(),
    );
    // Readers see who is requested.
    expect(
      (await p.client(reader.token).spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.count,
    ).toBe(2);

    expect((await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reader.user.id)).status).toBe(
      205,
    );
    expect((await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reader.user.id)).status).toBe(
      205,
    );
    const left = (await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data;
    expect(left.items.map((r) => r.kind === 'user' && r.user.id)).toEqual([reviewer.user.id]);
  });

  it('refuses users who are not members able to read the space, and callers who cannot edit', async () => {
    const { space, cr } = await newChangeRequest('Picky');
    const api = p.client(editor.token);
    expect(await apiError(api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [] }))).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: users: Too small/),
    });
    expect(
      await apiError(
        api.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
          users: Array.from({ length: 51 }, () => reviewer.user.id),
        }),
      ),
    ).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: users: Too big/),
    });
    expect(
      await apiError(
        api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user.id, other.user.id] }),
      ),
    ).toMatchObject({
      code: 400,
      message: `Invalid request: users.1: ${other.user.id} is not a member of the organization`,
    });
    expect(
      await apiError(api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: ['nobody'] })),
    ).toMatchObject({ code: 400, message: 'Invalid request: users.0: nobody is not a member of the organization' });
    expect(
      await apiError(
        api.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
          users: [reviewer.user.id],
          subject: 'x'.repeat(101),
        }),
      ),
    ).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: subject: Too big/),
    });
    // Nothing was requested by the refused calls.
    expect((await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.count).toBe(0);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.status).toBe('draft');

    // A space closed to plain members: the reader cannot read it, so cannot be asked to review it.
    await p.client(acme.token).spaces.updateSpaceById(space.id, { defaultLevel: null } as never);
    expect(
      await apiError(
        p.client(acme.token).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reader.user.id] }),
      ),
    ).toMatchObject({
      code: 400,
      message: `Invalid request: users.0: ${reader.user.id} cannot read the space`,
    });

    const open = await newChangeRequest('Open');
    expect(
      await apiError(
        p
          .client(reader.token)
          .spaces.requestReviewersForChangeRequest(open.space.id, open.cr.id, { users: [reviewer.user.id] }),
      ),
    ).toMatchObject({
      code: 403,
      message: 'Editing the content needs the `edit` role on the space',
    });
    expect(
      await apiError(
        p
          .client(reader.token)
          .spaces.removeRequestedReviewerFromChangeRequest(open.space.id, open.cr.id, reviewer.user.id),
      ),
    ).toMatchObject({ code: 403 });
    const asOther = p.client(other.token);
    expect(
      await apiError(asOther.spaces.getRequestedReviewersByChangeRequestId(open.space.id, open.cr.id)),
    ).toMatchObject({ code: 404, message: 'Space not found' });
    expect(
      await apiError(
        asOther.spaces.requestReviewersForChangeRequest(open.space.id, open.cr.id, { users: [other.user.id] }),
      ),
    ).toMatchObject({ code: 404 });
    expect(await apiError(api.spaces.getRequestedReviewersByChangeRequestId(open.space.id, '999'))).toMatchObject({
      code: 404,
      message: 'Change request not found',
    });
  });
});

describe('reviews through the official client', () => {
  it('submits reviews that answer the request, marks superseded ones outdated, lists and gets them', async () => {
    const { space, cr } = await newChangeRequest('Approvals');
    await p
      .client(editor.token)
      .spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user.id] });
    const api = p.client(reviewer.token);

    const approved = await api.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'approved',
      comment: { markdown: 'Looks **good**' },
    } as never);
    expect(approved.status).toBe(201);
    expect(approved.data).toMatchObject({
      object: 'change-request-review',
      revision: cr.revision,
      reviewer: { id: reviewer.user.id, displayName: 'Rev' },
      requestedBy: { id: editor.user.id, displayName: 'Ed' },
      status: 'approved',
      outdated: false,
      commentMarkdown: 'Looks **good**',
      urls: {
        location: `http://quire.test/v1/spaces/${space.id}/change-requests/${cr.id}/reviews/${approved.data.id}`,
      },
    });
    expect(approved.data).not.toHaveProperty('comment');
    // The review answered the request.
    expect((await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data.count).toBe(0);

    // A second review by the same reviewer, unrequested now, supersedes the first.
    const changes = (
      await api.spaces.submitChangeRequestReview(space.id, cr.id, {
        status: ChangeRequestReviewStatus.ChangesRequested,
      })
    ).data;
    expect(changes).toMatchObject({ status: 'changes-requested', outdated: false });
    expect(changes).not.toHaveProperty('requestedBy');
    expect(changes).not.toHaveProperty('commentMarkdown');
    // The organization admin reviews too (a plain string comment is taken as markdown).
    const admin = (
      await p
        .client(acme.token)
        .spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved', comment: 'Fine by me' } as never)
    ).data;
    expect(admin).toMatchObject({ commentMarkdown: 'Fine by me', outdated: false });

    expect((await api.spaces.getChangeRequestReviewById(space.id, cr.id, approved.data.id)).data).toMatchObject({
      id: approved.data.id,
      outdated: true,
      requestedBy: { id: editor.user.id },
    });
    const all = (await p.client(reader.token).spaces.getReviewsByChangeRequestId(space.id, cr.id)).data;
    expect(all.count).toBe(3);
    expect(all.items.map((r) => [r.id, r.outdated])).toEqual([
      [admin.id, false],
      [changes.id, false],
      [approved.data.id, true],
    ]);
    expect(
      (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: true })).data.items.map((r) => r.id),
    ).toEqual([approved.data.id]);
    expect(
      (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false })).data.items.map((r) => r.id),
    ).toEqual([admin.id, changes.id]);
    const paged = (await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { limit: 2 })).data;
    expect(paged).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    expect(
      (
        await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { limit: 2, page: paged.next!.page })
      ).data.items.map((r) => r.id),
    ).toEqual([approved.data.id]);

    // Once the change request's content moves on (what the content editing does to its head revision), every review is outdated.
    await p.sql('update content.change_request set revision_id = $1 where id = $2', ['moved-on-revision', cr.id]);
    expect((await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false })).data.count).toBe(0);
    expect((await api.spaces.getChangeRequestReviewById(space.id, cr.id, admin.id)).data.outdated).toBe(true);
    const fresh = (
      await api.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved })
    ).data;
    expect(fresh).toMatchObject({ revision: 'moved-on-revision', outdated: false });
  });

  it('lets reviewers and requested users review, refuses the others, validates, and keeps merged change requests read-only', async () => {
    const { space, cr } = await newChangeRequest('Guarded reviews');
    const asReader = p.client(reader.token);
    expect(
      await apiError(
        asReader.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved }),
      ),
    ).toMatchObject({
      code: 403,
      message: 'Reviewing change requests needs the `review` role on the space',
    });
    expect(
      await apiError(
        p
          .client(editor.token)
          .spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved }),
      ),
    ).toMatchObject({ code: 403 });
    // GitBook: a requested reviewer may review without the `review` role.
    await p.client(editor.token).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reader.user.id] });
    const byReader = await asReader.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'changes-requested',
      comment: { markdown: 'Typo in the title' },
    } as never);
    expect(byReader.status).toBe(201);
    expect(byReader.data).toMatchObject({ reviewer: { id: reader.user.id }, requestedBy: { id: editor.user.id } });
    // The request is answered: a second review needs the role again.
    expect(
      await apiError(
        asReader.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved }),
      ),
    ).toMatchObject({ code: 403 });

    const api = p.client(reviewer.token);
    expect(
      await apiError(api.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'lgtm' } as never)),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: status/) });
    expect(
      await apiError(
        api.spaces.submitChangeRequestReview(space.id, cr.id, {
          status: 'approved',
          comment: { document: { object: 'document', nodes: [] } },
        } as never),
      ),
    ).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: comment/),
    });
    expect(
      await apiError(
        api.spaces.submitChangeRequestReview(space.id, cr.id, {
          status: 'approved',
          comment: 'x'.repeat(10_001),
        } as never),
      ),
    ).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: comment/),
    });
    expect(await apiError(api.spaces.getChangeRequestReviewById(space.id, cr.id, 'nope'))).toMatchObject({
      code: 404,
      message: 'Review not found',
    });
    // A review is found only under its own change request.
    const elsewhere = await newChangeRequest('Elsewhere');
    expect(
      await apiError(api.spaces.getChangeRequestReviewById(elsewhere.space.id, elsewhere.cr.id, byReader.data.id)),
    ).toMatchObject({ code: 404, message: 'Review not found' });
    const asOther = p.client(other.token);
    expect(await apiError(asOther.spaces.getReviewsByChangeRequestId(space.id, cr.id))).toMatchObject({
      code: 404,
      message: 'Space not found',
    });
    expect(await apiError(asOther.spaces.getChangeRequestReviewById(space.id, cr.id, byReader.data.id))).toMatchObject({
      code: 404,
    });
    expect(
      await apiError(
        asOther.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved }),
      ),
    ).toMatchObject({ code: 404 });

    // Merged (what the merge does to the row): reviewers and reviews no longer change.
    await p
      .client(editor.token)
      .spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewer.user.id] });
    await p.sql(`update content.change_request set status = 'merged' where id = $1`, [cr.id]);
    expect(
      await apiError(
        api.spaces.submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved }),
      ),
    ).toMatchObject({ code: 409, message: 'The change request is merged: it can no longer change' });
    expect(
      await apiError(
        p.client(editor.token).spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reader.user.id] }),
      ),
    ).toMatchObject({ code: 409 });
    expect(
      await apiError(
        p.client(editor.token).spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.user.id),
      ),
    ).toMatchObject({ code: 409 });
    expect((await api.spaces.getReviewsByChangeRequestId(space.id, cr.id)).data.count).toBe(1);
  });
});

describe('contributors through the official client', () => {
  it('lists the users who edited the change request, first contributor first, with their revision counts', async () => {
    const { space, cr } = await newChangeRequest('Contributed');
    const api = p.client(reader.token);
    expect((await api.spaces.getContributorsByChangeRequestId(space.id, cr.id)).data).toEqual({ count: 0, items: [] });

    // What the content editing records for each edit: a revision of the change request by its author, and the contributor row.
    const edit = async (userId: string, at: string) => {
      await p.sql(
        `insert into content.revision (id, space_id, type, created_at, created_by, change_request_id) values ($1, $2, 'edits', $3, $4, $5)`,
        [`rev-${userId}-${at}`, space.id, at, userId, cr.id],
      );
      await p.sql(
        `insert into content.change_request_contributor (change_request_id, user_id, first_at, last_at) values ($1, $2, $3, $3)
         on conflict (change_request_id, user_id) do update set last_at = excluded.last_at`,
        [cr.id, userId, at],
      );
    };
    await edit(editor.user.id, '2030-01-01T10:00:00.000Z');
    await edit(acme.user.id, '2030-01-01T11:00:00.000Z');
    await edit(editor.user.id, '2030-01-01T12:00:00.000Z');

    const list = (await api.spaces.getContributorsByChangeRequestId(space.id, cr.id)).data;
    expect(list).toEqual({
      count: 2,
      items: [
        {
          user: expect.objectContaining({ object: 'user', id: editor.user.id, displayName: 'Ed' }),
          updatedAt: '2030-01-01T12:00:00.000Z',
          count: 2,
          actionType: 'edit',
        },
        {
          user: expect.objectContaining({ id: acme.user.id, displayName: 'Ann' }),
          updatedAt: '2030-01-01T11:00:00.000Z',
          count: 1,
          actionType: 'edit',
        },
      ],
    });
    // The change request list filters by the same contributors.
    expect(
      (
        await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft', contributor: acme.user.id } as never)
      ).data.items.map((c) => c.id),
    ).toEqual([cr.id]);
    expect(
      await apiError(p.client(other.token).spaces.getContributorsByChangeRequestId(space.id, cr.id)),
    ).toMatchObject({ code: 404, message: 'Space not found' });
  });
});
