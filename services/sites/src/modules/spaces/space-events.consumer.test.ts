import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type EventEnvelope } from '@quire/contracts';
import { eventually, natsAvailable, userActor } from '@quire/kit/testing';
import { startSitesAndContentOverNats } from '../../test-support.ts';
import { ContentSpace } from './content-space.entity.ts';

const hasNats = await natsAvailable();

describe.skipIf(!hasNats)('space events over real NATS JetStream', () => {
  let p: Awaited<ReturnType<typeof startSitesAndContentOverNats>>;

  beforeAll(async () => {
    p = await startSitesAndContentOverNats('sitesnats');
  });
  afterAll(async () => p?.close());

  const row = (id: string) => p.sites.svc.deps.orm.em.fork().findOne(ContentSpace, { id });
  /** The projection's row of the space, once there (`what`: what is waited for). */
  const projectedRow = (id: string, what: string) => eventually(async () => (await row(id)) ?? undefined, 10_000, what);

  it('reaches the sites projection once per space, even when redelivered', async () => {
    const actor = userActor('u', [{ organization: 'org-n', role: 'admin' }]);
    const space = await p.content.call(ops.createSpace, { organizationId: 'org-n', title: 'Over NATS' }, actor);
    expect(await projectedRow(space.id, 'projection row')).toMatchObject({
      organizationId: 'org-n',
      title: 'Over NATS',
    });

    // The relay publishing the same envelope again (a retry after a crash) changes nothing.
    const [outbox] = await p.content.svc.deps.orm.em
      .getConnection()
      .execute<{ payload: EventEnvelope }[]>(
        `select payload from content.outbox where type = 'space.created' and payload->'data'->>'space' = ?`,
        [space.id],
      );
    if (!outbox) throw new Error('no outbox row');
    await p.contentBus.publish('content.space.created', outbox.payload);
    const second = await p.content.call(ops.createSpace, { organizationId: 'org-n', title: 'Second' }, actor);
    await projectedRow(second.id, 'second row');
    const processed = await p.sites.svc.deps.orm.em
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from sites.processed_event where event_id = ?`, [
        outbox.payload.id,
      ]);
    expect(processed[0]?.n).toBe(1);
    expect(await p.sites.svc.deps.orm.em.fork().count(ContentSpace, { organizationId: 'org-n' })).toBe(2);
  });

  it('follows the space through updates, transfer, delete, restore and purge', async () => {
    const both = userActor('b', [
      { organization: 'org-a', role: 'admin' },
      { organization: 'org-b', role: 'admin' },
    ]);
    const space = await p.content.call(ops.createSpace, { organizationId: 'org-a', title: 'Lifecycle' }, both);
    await projectedRow(space.id, 'created');
    await p.content.call(ops.updateSpaceById, { spaceId: space.id, title: 'Renamed' }, both);
    await p.content.call(ops.transferSpace, { spaceId: space.id, organization: 'org-b' }, both);
    await eventually(async () => (await row(space.id))?.organizationId === 'org-b', 10_000, 'transferred');
    expect(await row(space.id)).toMatchObject({ organizationId: 'org-b', title: 'Renamed', deletedAt: null });

    await p.content.call(ops.deleteSpaceById, { spaceId: space.id }, both);
    const hidden = await eventually(async () => (await row(space.id))?.deletedAt ?? undefined, 10_000, 'hidden');
    expect(hidden).toBeInstanceOf(Date);
    await p.content.call(ops.restoreSpace, { spaceId: space.id }, both);
    await eventually(async () => (await row(space.id))?.deletedAt === null, 10_000, 'restored');

    // A collection transfer re-homes its spaces too (one space.transferred each).
    const col = await p.content.call(ops.createCollection, { organizationId: 'org-b', title: 'Box' }, both);
    await p.content.call(ops.moveSpace, { spaceId: space.id, parent: col.id }, both);
    await p.content.call(ops.transferCollection, { collectionId: col.id, organization: 'org-a' }, both);
    await eventually(
      async () => (await row(space.id))?.organizationId === 'org-a',
      10_000,
      'transferred back with its collection',
    );

    // Deleted 8 days ago: the purge job removes it for good and sites drops its row.
    await p.content.call(ops.deleteSpaceById, { spaceId: space.id }, both);
    await p.content.svc.deps.orm.em
      .getConnection()
      .execute(`update content.space set deleted_at = now() - interval '8 days' where id = ?`, [space.id]);
    await p.content.svc.jobs!.enqueue('content-purge-spaces');
    await eventually(async () => ((await row(space.id)) === null ? true : undefined), 10_000, 'purged');
    const types = await p.sites.svc.deps.orm.em
      .getConnection()
      .execute<{ n: number }[]>(
        `select count(*)::int as n from sites.processed_event where consumer = 'sites-space-events'`,
      );
    expect(types[0]!.n).toBeGreaterThanOrEqual(8);
  });
});
