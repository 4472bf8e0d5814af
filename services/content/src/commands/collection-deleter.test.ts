import { describe, expect, it } from 'vitest';
import type { EntityManager } from '@quire/kit';
import { buildCollection, buildSpace, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { Collection } from '../modules/collections/collection.entity.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { collectionDeleter } from './collection-deleter.ts';

const ORG = 'collection-deleter';
const t = useTestService(contentService, loadContentConfig, { label: 'collection-deleter' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const remove = (id: string) =>
  inTx(async (tx) => collectionDeleter(tx, { collection: await tx.findOneOrFail(Collection, { id }) }));
/** The children of a parent (null: the top level) in their order, as titles. */
async function childrenOf(parentId: string | null) {
  const em = t.em().fork();
  const [spaces, collections] = await Promise.all([
    em.find(Space, { organizationId: ORG, parentId, deletedAt: null }),
    em.find(Collection, { organizationId: ORG, parentId }),
  ]);
  return [...spaces, ...collections]
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : 1))
    .map((x) => x.title);
}
const deletedEvents = async (collection: string) =>
  (await t.outboxEvents('collection.deleted'))
    .map((e) => e.data as { collection: string })
    .filter((d) => d.collection === collection);

describe('collectionDeleter', () => {
  it('moves its spaces and sub-collections up to its parent, after what the parent holds, in their order', async () => {
    const parent = await buildCollection(t, { org: ORG, title: 'Parent' });
    await buildSpace(t, { org: ORG, title: 'Already there', parent: parent.id });
    const doomed = await buildCollection(t, { org: ORG, title: 'Doomed', parent: parent.id });
    const s1 = await buildSpace(t, { org: ORG, title: 'First', parent: doomed.id });
    const sub = await buildCollection(t, { org: ORG, title: 'Sub', parent: doomed.id });
    const s2 = await buildSpace(t, { org: ORG, title: 'Second', parent: doomed.id });
    await remove(doomed.id);
    expect(await t.em().fork().findOne(Collection, { id: doomed.id })).toBeNull();
    expect(await childrenOf(parent.id)).toEqual(['Already there', 'First', 'Sub', 'Second']);
    expect(await deletedEvents(doomed.id)).toEqual([
      {
        collection: doomed.id,
        organization: ORG,
        parent: parent.id,
        movedSpaces: [s1.id, s2.id],
        movedCollections: [sub.id],
      },
    ]);
  });

  it('makes a space reaching the top level private when it was visible in its collection, and keeps a deleted one', async () => {
    const top = await buildCollection(t, { org: ORG, title: 'Top' });
    const shared = await buildSpace(t, { org: ORG, title: 'Shared', parent: top.id });
    const open = await buildSpace(t, { org: ORG, title: 'Open', parent: top.id });
    const trashed = await buildSpace(t, { org: ORG, title: 'Trashed', parent: top.id });
    await inTx(async (tx) => {
      (await tx.findOneOrFail(Space, { id: shared.id })).visibility = 'in-collection';
      (await tx.findOneOrFail(Space, { id: open.id })).visibility = 'public';
      (await tx.findOneOrFail(Space, { id: trashed.id })).deletedAt = new Date();
    });
    await remove(top.id);
    const after = async (id: string) => t.em().fork().findOneOrFail(Space, { id });
    expect(await after(shared.id)).toMatchObject({ parentId: null, visibility: 'private' });
    expect(await after(open.id)).toMatchObject({ parentId: null, visibility: 'public' });
    // In the trash, it moved too: a restore finds a home.
    expect(await after(trashed.id)).toMatchObject({ parentId: null, deletedAt: expect.any(Date) });
    const [event] = await deletedEvents(top.id);
    expect(event).toEqual({
      collection: top.id,
      organization: ORG,
      movedSpaces: [shared.id, open.id, trashed.id],
      movedCollections: [],
    });
  });
});
