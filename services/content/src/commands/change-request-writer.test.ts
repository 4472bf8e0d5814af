import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildSpace, failureOf, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { ChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import { changeRequestRepository } from '../modules/change-requests/change-request.repository.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { changeRequestContentWriter, changeRequestCreator, changeRequestUpdater } from './change-request-writer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'cr-writer' });

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const counters = async (spaceId: string) => {
  const s = await t.em().findOneOrFail(Space, { id: spaceId });
  return { all: s.changeRequests, open: s.changeRequestsOpen, draft: s.changeRequestsDraft };
};
const eventsOf = async (spaceId: string) =>
  (await t.outboxEvents())
    .filter((e) => e.type.startsWith('change-request.') && (e.data as { space?: string }).space === spaceId)
    .map((e) => ({ type: e.type, ...(e.data as Record<string, unknown>) }));
const create = (spaceId: string, subject?: string) =>
  inTx(async (tx) =>
    changeRequestCreator(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      createdBy: 'u1',
      ...(subject ? { subject } : {}),
    }),
  );
const update = (spaceId: string, crId: string, props: { subject?: string; status?: 'open' | 'draft' | 'archived' }) =>
  inTx(async (tx) =>
    changeRequestUpdater(tx, {
      space: await tx.findOneOrFail(Space, { id: spaceId }),
      changeRequest: await tx.findOneOrFail(ChangeRequest, { id: crId }),
      ...props,
    }),
  );

describe('changeRequestCreator', () => {
  it('numbers change requests in their space, as drafts on its current revision, and counts them', async () => {
    const space = await buildSpace(t, { org: 'crs' });
    const other = await buildSpace(t, { org: 'crs' });
    const one = await create(space.id, 'First');
    const two = await create(space.id);
    const elsewhere = await create(other.id);
    expect([one.number, two.number, elsewhere.number]).toEqual([1, 2, 1]);
    const stored = await t.em().findOneOrFail(ChangeRequest, { id: one.id });
    expect(stored).toMatchObject({
      status: 'draft',
      subject: 'First',
      createdBy: 'u1',
      revisionId: space.revision,
      revisionInitial: space.revision,
      revisionMerged: null,
    });
    expect(two.subject).toBe('');
    expect(await counters(space.id)).toEqual({ all: 2, open: 0, draft: 2 });
    expect(await eventsOf(space.id)).toEqual([
      expect.objectContaining({ type: 'change-request.created', changeRequest: one.id, number: 1, createdBy: 'u1' }),
      expect.objectContaining({ type: 'change-request.created', changeRequest: two.id, number: 2, createdBy: 'u1' }),
    ]);
  });
});

describe('changeRequestUpdater', () => {
  it('records each field that changed, moves the counters with the status, and nothing when nothing changes', async () => {
    const space = await buildSpace(t, { org: 'crs' });
    const cr = await create(space.id, 'Same');
    await update(space.id, cr.id, { subject: 'Same', status: 'draft' });
    expect(await eventsOf(space.id)).toHaveLength(1);
    await update(space.id, cr.id, { subject: 'New', status: 'open' });
    expect(await counters(space.id)).toEqual({ all: 1, open: 1, draft: 0 });
    await update(space.id, cr.id, { status: 'archived' });
    expect(await counters(space.id)).toEqual({ all: 1, open: 0, draft: 0 });
    expect(await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).toMatchObject({
      subject: 'New',
      status: 'archived',
    });
    expect((await eventsOf(space.id)).slice(1)).toEqual([
      expect.objectContaining({ type: 'change-request.updated', fields: ['subject'] }),
      expect.objectContaining({ type: 'change-request.status-changed', status: 'open', previousStatus: 'draft' }),
      expect.objectContaining({ type: 'change-request.status-changed', status: 'archived', previousStatus: 'open' }),
    ]);
  });

  it('refuses to change a merged change request (409), writing nothing', async () => {
    const space = await buildSpace(t, { org: 'crs' });
    const cr = await create(space.id);
    await t.em().nativeUpdate(ChangeRequest, { id: cr.id }, { status: 'merged' });
    const err = await failureOf(update(space.id, cr.id, { subject: 'x', status: 'open' }));
    expect({ reason: err.reason, message: err.message }).toEqual({
      reason: 'conflict',
      message: 'The change request is merged: it can no longer change',
    });
    expect((await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).subject).toBe('');
    expect(await eventsOf(space.id)).toHaveLength(1);
  });
});

describe('changeRequestContentWriter', () => {
  it('points the change request at its new content, adds its author as a contributor once, and says so', async () => {
    const space = await buildSpace(t, { org: 'crs' });
    const cr = await create(space.id);
    const at = new Date('2031-06-01T00:00:00Z');
    const writeContent = (userId: string, revisionId: string, now: Date) =>
      inTx(async (tx) =>
        changeRequestContentWriter(tx, {
          space: await tx.findOneOrFail(Space, { id: space.id }),
          cr: await tx.findOneOrFail(ChangeRequest, { id: cr.id }),
          revisionId,
          userId,
          now,
        }),
      );
    // The revision need not exist for the pointer to move (the caller writes it in the same transaction).
    await writeContent('u2', space.revision, at);
    await writeContent('u3', space.revision, new Date(at.getTime() + 1000));
    await writeContent('u2', space.revision, new Date(at.getTime() + 2000));
    expect((await changeRequestRepository.contributors(t.em(), cr.id)).sort()).toEqual(['u2', 'u3']);
    expect((await t.em().findOneOrFail(ChangeRequest, { id: cr.id })).updatedAt).toEqual(new Date(at.getTime() + 2000));
    expect((await eventsOf(space.id)).filter((e) => e.type === 'change-request.updated')).toEqual([
      expect.objectContaining({ changeRequest: cr.id, fields: ['content'] }),
      expect.objectContaining({ changeRequest: cr.id, fields: ['content'] }),
      expect.objectContaining({ changeRequest: cr.id, fields: ['content'] }),
    ]);
  });
});
