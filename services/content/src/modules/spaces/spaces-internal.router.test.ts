import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_OPERATIONS, ops } from '@quire/contracts';
import {
  buildSpace,
  createTestDatabase,
  failureOf,
  startTestService,
  userActor,
  type TestDatabase,
  type TestService,
} from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';

let db: TestDatabase;
let t: TestService;
const admin = userActor('gm-admin', [{ organization: 'gm1', role: 'admin' }]);
const reader = userActor('gm-reader', [{ organization: 'gm1', role: 'read' }]);
const both = userActor('gm-both', [
  { organization: 'gm1', role: 'admin' },
  { organization: 'gm2', role: 'admin' },
]);

beforeAll(async () => {
  db = await createTestDatabase('contentmany');
  t = await startTestService(contentService, loadContentConfig, db);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe('spaces.getMany', () => {
  it('returns the spaces the caller can see, as it sees them, in the order asked', async () => {
    const open = await buildSpace(t, { org: 'gm1', as: admin, title: 'Open' });
    const closed = await buildSpace(t, { org: 'gm1', as: admin, title: 'Closed' });
    await t.call(ops.updateSpaceById, { spaceId: closed.id, defaultLevel: null }, admin);
    const col = await t.call(ops.createCollection, { organizationId: 'gm1', title: 'Read only' }, admin);
    await t.call(ops.updateCollectionById, { collectionId: col.id, defaultLevel: 'read' }, admin);
    const inCol = await buildSpace(t, { org: 'gm1', as: admin, title: 'In collection', parent: col.id });
    const trashed = await buildSpace(t, { org: 'gm1', as: admin, title: 'Trashed' });
    await t.call(ops.deleteSpaceById, { spaceId: trashed.id }, admin);
    const other = await buildSpace(t, { org: 'gm2', as: both, title: 'Elsewhere' });

    const ids = [inCol.id, 'unknown', closed.id, open.id, trashed.id, other.id, open.id];
    const asReader = await t.call(ops.getSpacesByIds, { spaceIds: ids }, reader);
    expect(asReader.items.map((s) => s.id)).toEqual([inCol.id, open.id, trashed.id]);
    expect(asReader.items[0]!.permissions).toMatchObject({ view: true, edit: false });
    expect(asReader.items[2]!.deletedAt).toEqual(expect.any(String));
    const asBoth = await t.call(ops.getSpacesByIds, { spaceIds: ids }, both);
    expect(asBoth.items.map((s) => s.id)).toEqual([inCol.id, closed.id, open.id, trashed.id, other.id]);
    expect(asBoth.items.every((s) => s.permissions.admin)).toBe(true);
    expect((await t.call(ops.getSpacesByIds, { spaceIds: [] }, reader)).items).toEqual([]);
  });

  it('takes at most 1000 ids and is not routed by the gateway', async () => {
    const e = await failureOf(
      t.call(ops.getSpacesByIds, { spaceIds: Array.from({ length: 1001 }, (_, i) => `s${i}`) }, reader),
    );
    expect(e.message).toMatch(/spaceIds: Too big/);
    expect(HTTP_OPERATIONS.some((op) => op.id === 'spaces.getMany')).toBe(false);
  });
});
