import { describe, expect, it } from 'vitest';
import { apiError, useCast } from './harness.ts';

const { p, acme, reader, editor, other } = useCast({
  reader: ['rita@acme.io', 'read'],
  editor: ['ed@acme.io', 'edit', 'Ed'],
});

describe('change requests through the official client', () => {
  it('creates numbered drafts, lists them by status, gets them by id or number, patches subject and status, keeps the space counters', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Handbook' })).data;
    const first = await p.client(editor.token).spaces.createChangeRequest(space.id, { subject: 'Fix typos' });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'Fix typos',
      createdBy: { object: 'user', id: editor.user.id, displayName: 'Ed' },
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: { location: `http://quire.test/v1/spaces/${space.id}/change-requests/${first.data.id}` },
    });
    const second = (await api.spaces.createChangeRequest(space.id, {})).data;
    expect(second).toMatchObject({ number: 2, subject: '' });
    expect((await api.spaces.getChangeRequestById(space.id, '2')).data.id).toBe(second.id);
    expect((await api.spaces.getChangeRequestById(space.id, first.data.id)).data.number).toBe(1);

    // The list shows `open` ones by default: none yet.
    expect((await api.spaces.listChangeRequestsForSpace(space.id)).data).toMatchObject({ count: 0, items: [] });
    expect(
      (await api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' } as never)).data.items.map(
        (c) => c.number,
      ),
    ).toEqual([2, 1]);
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({
      changeRequests: 2,
      changeRequestsDraft: 2,
      changeRequestsOpen: 0,
    });

    const opened = await api.spaces.updateChangeRequestById(space.id, first.data.id, {
      status: 'open',
      subject: 'Fix all typos',
    } as never);
    expect(opened.data).toMatchObject({ status: 'open', subject: 'Fix all typos' });
    expect((await api.spaces.listChangeRequestsForSpace(space.id)).data.items.map((c) => c.id)).toEqual([
      first.data.id,
    ]);
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({
      changeRequests: 2,
      changeRequestsDraft: 1,
      changeRequestsOpen: 1,
    });
    await api.spaces.updateChangeRequestById(space.id, second.id, { status: 'archived' } as never);
    expect((await api.spaces.getSpaceById(space.id)).data).toMatchObject({
      changeRequests: 2,
      changeRequestsDraft: 0,
      changeRequestsOpen: 1,
    });
    expect((await api.spaces.listChangeRequestsForSpace(space.id, { status: 'archived' } as never)).data.count).toBe(1);
  });

  it('numbers change requests without gaps or repeats under concurrency', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Busy' })).data;
    const created = await Promise.all(Array.from({ length: 12 }, () => api.spaces.createChangeRequest(space.id, {})));
    expect(created.map((c) => c.data.number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect((await api.spaces.getSpaceById(space.id)).data.changeRequests).toBe(12);
  });

  it('validates with the error shape, and keeps readers and other organizations out', async () => {
    const api = p.client(acme.token);
    const space = (await api.orgs.createSpace(acme.organization.id, { title: 'Guarded' })).data;
    const cr = (await api.spaces.createChangeRequest(space.id, {})).data;
    expect(await apiError(api.spaces.createChangeRequest(space.id, { subject: 'x'.repeat(101) }))).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^Invalid request: subject: Too big/),
    });
    expect(
      await apiError(api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'merged' } as never)),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^Invalid request: status/) });
    expect(await apiError(api.spaces.getChangeRequestById(space.id, '999'))).toMatchObject({
      code: 404,
      message: 'Change request not found',
    });
    const asReader = p.client(reader.token);
    expect((await asReader.spaces.getChangeRequestById(space.id, cr.id)).status).toBe(200);
    expect(await apiError(asReader.spaces.createChangeRequest(space.id, {}))).toMatchObject({
      code: 403,
      message: 'Editing the content needs the `edit` role on the space',
    });
    expect(
      await apiError(asReader.spaces.updateChangeRequestById(space.id, cr.id, { subject: 'mine' } as never)),
    ).toMatchObject({ code: 403 });
    const asOther = p.client(other.token);
    expect(await apiError(asOther.spaces.getChangeRequestById(space.id, cr.id))).toMatchObject({
      code: 404,
      message: 'Space not found',
    });
    expect(await apiError(asOther.spaces.listChangeRequestsForSpace(space.id))).toMatchObject({ code: 404 });
    expect(await apiError(asOther.spaces.createChangeRequest(space.id, {}))).toMatchObject({ code: 404 });
  });
});
