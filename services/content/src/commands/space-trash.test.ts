import { describe, expect, it, vi } from 'vitest';
import { ops } from '@quire/contracts';
import { OutboxEvent } from '@quire/kit';
import { failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { contentService } from '../service.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { purgeDeletedSpaces } from '../jobs/purge-deleted-spaces.job.ts';
import { RESTORE_WINDOW_DAYS, spaceDeleter, spaceRestorer } from './space-trash.ts';

type Em = ReturnType<typeof t.em>;
// As the mold does: the space is loaded in the command's transaction (outside one it is a read-only snapshot).
const deleteSpace = (em: Em, id: string, now: Date) =>
  em.transactional(async (tx) => spaceDeleter(tx, { space: await load(id, tx), now }));
const restoreSpace = (em: Em, id: string, now: Date) =>
  em.transactional(async (tx) => spaceRestorer(tx, { space: await load(id, tx), now }));

const t = useTestService(contentService, loadContentConfig, { label: 'trash' });

const day = 24 * 3600 * 1_000;
const a = userActor('a', [{ organization: 'trash', role: 'admin' }]);
const load = async (id: string, em: Em = t.svc.deps.orm.em.fork()) => (await spaceRepository.findById(em, id))!;

describe('the trash, with an injected clock', () => {
  it('keeps the restore window at 7 days', () => expect(RESTORE_WINDOW_DAYS).toBe(7));

  it('restores at 6 days, refuses at 8 (412)', async () => {
    const t0 = new Date('2030-01-01T00:00:00Z');
    const s = await t.call(ops.createSpace, { organizationId: 'trash', title: 'Clocked' }, a);
    const em = t.svc.deps.orm.em.fork();
    await deleteSpace(em, s.id, t0);
    expect((await load(s.id)).deletedAt).toEqual(t0);
    expect(
      await failureOf(restoreSpace(t.svc.deps.orm.em.fork(), s.id, new Date(t0.getTime() + 8 * day))),
    ).toMatchObject({ reason: 'precondition_failed' });
    const restored = await restoreSpace(t.svc.deps.orm.em.fork(), s.id, new Date(t0.getTime() + 6 * day));
    expect(restored.deletedAt).toBeNull();
    expect((await load(s.id)).deletedAt).toBeNull();
  });

  it('purges only past the window, each with space.purged in the same transaction, idempotently', async () => {
    const t0 = new Date('2030-02-01T00:00:00Z');
    const s1 = await t.call(ops.createSpace, { organizationId: 'trash', title: 'P1' }, a);
    const s2 = await t.call(ops.createSpace, { organizationId: 'trash', title: 'P2' }, a);
    await deleteSpace(t.svc.deps.orm.em.fork(), s1.id, t0);
    await deleteSpace(t.svc.deps.orm.em.fork(), s2.id, new Date(t0.getTime() + 2 * day));
    const em = () => t.svc.deps.orm.em.fork();
    expect(await purgeDeletedSpaces(em(), new Date(t0.getTime() + 7 * day - 1))).toEqual([]);
    // The purge skips a space whose row another transaction has locked (`for update skip locked`: a concurrent purge,
    // or the foreign-key check of a write that references the space, such as its search indexing, which CI once
    // caught in the act); the job's next run gets it, and so does this test's.
    const purgedBy = (at: Date, ids: string[]) =>
      vi.waitFor(async () => expect(await purgeDeletedSpaces(em(), at, 1)).toEqual(ids), { timeout: 15_000 });
    await purgedBy(new Date(t0.getTime() + 8 * day), [s1.id]);
    expect(await purgeDeletedSpaces(em(), new Date(t0.getTime() + 8 * day))).toEqual([]);
    await purgedBy(new Date(t0.getTime() + 30 * day), [s2.id]);
    expect(await spaceRepository.findById(em(), s1.id)).toBeNull();
    const purged = (await em().find(OutboxEvent, { type: 'space.purged' })).map(
      (e) => (e.payload as { data: { space: string } }).data.space,
    );
    expect(purged.sort()).toEqual([s1.id, s2.id].sort());
  });
});
