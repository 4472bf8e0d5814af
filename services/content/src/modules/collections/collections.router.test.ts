import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { failureOf, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'collections' });

const eventsOf = async (type: string, key: string, id: string) =>
  (await t.outboxEvents(type)).map((e) => e.data as Record<string, unknown>).filter((d) => d[key] === id);

/** A fresh organization per test, with an admin, a creator, a reader and a guest. */
let n = 0;
function org() {
  const id = `corg${++n}`;
  return {
    id,
    admin: userActor(`${id}-admin`, [{ organization: id, role: 'admin' }]),
    creator: userActor(`${id}-creator`, [{ organization: id, role: 'create' }]),
    reader: userActor(`${id}-reader`, [{ organization: id, role: 'read' }]),
    guest: userActor(`${id}-guest`, [{ organization: id, role: null }]),
  };
}
/** Collections A and B at the top level and A1 inside A, created by the admin of `o`. */
async function aBandA1(o: ReturnType<typeof org>) {
  const make = (title: string, parent?: string) =>
    t.call(ops.createCollection, { organizationId: o.id, title, parent }, o.admin);
  const a = await make('A');
  return { a, b: await make('B'), a1: await make('A1', a.id) };
}

const stranger = userActor('cstranger', [{ organization: 'elsewhere', role: 'admin' }]);

describe('collections CRUD', () => {
  it('creates, gets and updates a collection (201/200), with events and the caller permissions', async () => {
    const o = org();
    const c = await t.call(ops.createCollection, { organizationId: o.id, title: 'Guides' }, o.creator);
    expect(c).toMatchObject({
      object: 'collection',
      title: 'Guides',
      organization: o.id,
      defaultLevel: 'inherit',
      urls: { location: `http://quire.test/v1/collections/${c.id}`, app: `http://quire.test/o/${o.id}/c/${c.id}` },
      permissions: { view: true, admin: false, create: true, viewInviteLinks: false },
    });
    expect(c.parent).toBeUndefined();
    expect(c.description).toBeUndefined();
    expect((await t.call(ops.getCollectionById, { collectionId: c.id }, o.admin)).permissions).toEqual({
      view: true,
      admin: true,
      viewInviteLinks: true,
      create: true,
    });
    expect((await t.call(ops.getCollectionById, { collectionId: c.id }, o.reader)).permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    const updated = await t.call(
      ops.updateCollectionById,
      { collectionId: c.id, title: 'Handbooks', description: 'All of them', defaultLevel: 'comment' },
      o.admin,
    );
    expect(updated).toMatchObject({ title: 'Handbooks', description: 'All of them', defaultLevel: 'comment' });
    expect(
      (await t.call(ops.updateCollectionById, { collectionId: c.id, description: '' }, o.admin)).description,
    ).toBeUndefined();
    expect(await eventsOf('collection.created', 'collection', c.id)).toEqual([
      { collection: c.id, organization: o.id, title: 'Guides' },
    ]);
    expect((await eventsOf('collection.updated', 'collection', c.id)).map((e) => e.fields)).toEqual([
      ['title', 'description', 'defaultLevel'],
      ['description'],
    ]);
    expect((await t.call(ops.createCollection, { organizationId: o.id }, o.admin)).title).toBe('Untitled');
  });

  it('enforces the limits with a 400 naming the field', async () => {
    const o = org();
    expect(
      await failureOf(t.call(ops.createCollection, { organizationId: o.id, title: 'x'.repeat(51) }, o.admin)),
    ).toMatchObject({ reason: 'invalid_input', message: expect.stringMatching(/^Invalid request: title: Too big/) });
    const c = await t.call(ops.createCollection, { organizationId: o.id, title: 'Ok' }, o.admin);
    expect(
      (await failureOf(t.call(ops.updateCollectionById, { collectionId: c.id, description: 'd'.repeat(101) }, o.admin)))
        .message,
    ).toMatch(/description: Too big/);
    expect(
      (await failureOf(t.call(ops.updateCollectionById, { collectionId: c.id, title: 't'.repeat(51) }, o.admin)))
        .message,
    ).toMatch(/title: Too big/);
    expect(
      (
        await failureOf(
          t.call(ops.updateCollectionById, { collectionId: c.id, defaultLevel: 'boss' as never }, o.admin),
        )
      ).message,
    ).toMatch(/defaultLevel/);
    expect(
      (await t.call(ops.updateCollectionById, { collectionId: c.id, description: 'd'.repeat(100) }, o.admin))
        .description,
    ).toHaveLength(100);
  });

  it('applies the permission table: create to create, admin to update and delete, 404 outside', async () => {
    const o = org();
    const c = await t.call(ops.createCollection, { organizationId: o.id, title: 'Guarded' }, o.admin);
    expect(await reasonOf(t.call(ops.createCollection, { organizationId: o.id, title: 'No' }, o.reader))).toBe(
      'forbidden',
    );
    expect(await reasonOf(t.call(ops.createCollection, { organizationId: o.id, title: 'No' }, stranger))).toBe(
      'not_found',
    );
    expect(await reasonOf(t.call(ops.updateCollectionById, { collectionId: c.id, title: 'No' }, o.reader))).toBe(
      'forbidden',
    );
    expect(await reasonOf(t.call(ops.updateCollectionById, { collectionId: c.id, title: 'No' }, o.creator))).toBe(
      'forbidden',
    );
    expect(await reasonOf(t.call(ops.deleteCollectionById, { collectionId: c.id }, o.creator))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.moveCollection, { collectionId: c.id, parent: null }, o.creator))).toBe(
      'forbidden',
    );
    for (const who of [stranger, o.guest]) {
      expect((await failureOf(t.call(ops.getCollectionById, { collectionId: c.id }, who))).message).toBe(
        'Collection not found',
      );
      expect(await reasonOf(t.call(ops.listSpacesInCollectionById, { collectionId: c.id }, who))).toBe('not_found');
    }
    // A collection level raises or caps what members may do inside it.
    await t.call(ops.updateCollectionById, { collectionId: c.id, defaultLevel: 'create' }, o.admin);
    expect(
      (await t.call(ops.createSpace, { organizationId: o.id, title: 'By reader', parent: c.id }, o.reader)).parent,
    ).toBe(c.id);
    await t.call(ops.updateCollectionById, { collectionId: c.id, defaultLevel: 'read' }, o.admin);
    expect(
      await reasonOf(t.call(ops.createSpace, { organizationId: o.id, title: 'No', parent: c.id }, o.creator)),
    ).toBe('forbidden');
    await t.call(ops.updateCollectionById, { collectionId: c.id, defaultLevel: null }, o.admin);
    expect(await reasonOf(t.call(ops.getCollectionById, { collectionId: c.id }, o.reader))).toBe('not_found');
  });
});

describe('listing', () => {
  it('lists nested collections by default, top level only with nested=false, paged in tree order', async () => {
    const o = org();
    const { a, b, a1 } = await aBandA1(o);
    await t.call(ops.createCollection, { organizationId: o.id, title: 'A1x', parent: a1.id }, o.admin);
    expect(a1.parent).toBe(a.id);
    const all = await t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id }, o.admin);
    expect(all.count).toBe(4);
    expect(all.items.map((c) => c.title).sort()).toEqual(['A', 'A1', 'A1x', 'B']);
    const top = await t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id, nested: false }, o.admin);
    expect(top.items.map((c) => c.title)).toEqual(['A', 'B']);
    await t.call(
      ops.moveCollection,
      { collectionId: b.id, position: { before: { type: 'collection', collection: a.id } } },
      o.admin,
    );
    const p1 = await t.call(
      ops.listCollectionsInOrganizationById,
      { organizationId: o.id, nested: false, limit: 1 },
      o.admin,
    );
    const p2 = await t.call(
      ops.listCollectionsInOrganizationById,
      { organizationId: o.id, nested: false, limit: 1, page: p1.next!.page },
      o.admin,
    );
    expect([...p1.items, ...p2.items].map((c) => c.title)).toEqual(['B', 'A']);
    expect(p2.next).toBeUndefined();
    expect(await reasonOf(t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id }, stranger))).toBe(
      'not_found',
    );
    expect(await t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id }, o.guest)).toEqual({
      count: 0,
      items: [],
    });
  });

  it('hides closed collections and their inheriting content from members', async () => {
    const o = org();
    const closed = await t.call(ops.createCollection, { organizationId: o.id, title: 'Closed' }, o.admin);
    const inside = await t.call(
      ops.createCollection,
      { organizationId: o.id, title: 'Inside', parent: closed.id },
      o.admin,
    );
    const open = await t.call(ops.createCollection, { organizationId: o.id, title: 'Open' }, o.admin);
    await t.call(ops.updateCollectionById, { collectionId: closed.id, defaultLevel: null }, o.admin);
    const hidden = await t.call(ops.createSpace, { organizationId: o.id, title: 'Hidden', parent: inside.id }, o.admin);
    const shown = await t.call(
      ops.createSpace,
      { organizationId: o.id, title: 'Shown anyway', parent: inside.id },
      o.admin,
    );
    await t.call(ops.updateSpaceById, { spaceId: shown.id, defaultLevel: 'read' }, o.admin);
    await t.call(ops.createSpace, { organizationId: o.id, title: 'In open', parent: open.id }, o.admin);
    expect(
      (await t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id }, o.reader)).items.map(
        (c) => c.title,
      ),
    ).toEqual(['Open']);
    expect((await t.call(ops.listSpaces, { organizationId: o.id }, o.reader)).items.map((s) => s.title).sort()).toEqual(
      ['In open', 'Shown anyway'],
    );
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: hidden.id }, o.reader))).toBe('not_found');
    expect((await t.call(ops.getSpaceById, { spaceId: shown.id }, o.reader)).permissions).toMatchObject({
      view: true,
      edit: false,
    });
    expect(
      (await t.call(ops.listSpacesInCollectionById, { collectionId: inside.id }, o.admin)).items.map((s) => s.title),
    ).toEqual(['Hidden', 'Shown anyway']);
  });
});

describe('DELETE /collections/{collectionId}', () => {
  it('moves its spaces (deleted ones too) and sub-collections up to its parent, losing nothing (205)', async () => {
    const o = org();
    const parent = await t.call(ops.createCollection, { organizationId: o.id, title: 'Parent' }, o.admin);
    const existing = await t.call(
      ops.createSpace,
      { organizationId: o.id, title: 'Existing', parent: parent.id },
      o.admin,
    );
    const doomed = await t.call(
      ops.createCollection,
      { organizationId: o.id, title: 'Doomed', parent: parent.id },
      o.admin,
    );
    const s1 = await t.call(ops.createSpace, { organizationId: o.id, title: 'S1', parent: doomed.id }, o.admin);
    const sub = await t.call(ops.createCollection, { organizationId: o.id, title: 'Sub', parent: doomed.id }, o.admin);
    const s2 = await t.call(ops.createSpace, { organizationId: o.id, title: 'S2', parent: doomed.id }, o.admin);
    const trashed = await t.call(
      ops.createSpace,
      { organizationId: o.id, title: 'Trashed', parent: doomed.id },
      o.admin,
    );
    await t.call(ops.deleteSpaceById, { spaceId: trashed.id }, o.admin);
    expect(await t.call(ops.deleteCollectionById, { collectionId: doomed.id }, o.admin)).toBeUndefined();
    expect(await reasonOf(t.call(ops.getCollectionById, { collectionId: doomed.id }, o.admin))).toBe('not_found');
    expect(
      (await t.call(ops.listSpacesInCollectionById, { collectionId: parent.id }, o.admin)).items.map((s) => s.title),
    ).toEqual(['Existing', 'S1', 'S2']);
    expect((await t.call(ops.getCollectionById, { collectionId: sub.id }, o.admin)).parent).toBe(parent.id);
    expect((await t.call(ops.restoreSpace, { spaceId: trashed.id }, o.admin)).parent).toBe(parent.id);
    expect(existing.id).toBeDefined();
    expect(await eventsOf('collection.deleted', 'collection', doomed.id)).toEqual([
      {
        collection: doomed.id,
        organization: o.id,
        parent: parent.id,
        movedSpaces: [s1.id, s2.id, trashed.id],
        movedCollections: [sub.id],
      },
    ]);
  });

  it('at the top level, in-collection spaces become private', async () => {
    const o = org();
    const c = await t.call(ops.createCollection, { organizationId: o.id, title: 'Top' }, o.admin);
    const s = await t.call(ops.createSpace, { organizationId: o.id, title: 'Scoped', parent: c.id }, o.admin);
    await t.call(ops.updateSpaceById, { spaceId: s.id, visibility: 'in-collection' }, o.admin);
    await t.call(ops.deleteCollectionById, { collectionId: c.id }, o.admin);
    const after = await t.call(ops.getSpaceById, { spaceId: s.id }, o.admin);
    expect(after.parent).toBeUndefined();
    expect(after.visibility).toBe('private');
  });
});

describe('POST /collections/{collectionId}/move', () => {
  it('nests and reorders collections, and refuses cycles (400)', async () => {
    const o = org();
    const { a, b, a1 } = await aBandA1(o);
    const moved = await t.call(ops.moveCollection, { collectionId: b.id, parent: a1.id }, o.admin);
    expect(moved.parent).toBe(a1.id);
    expect(await failureOf(t.call(ops.moveCollection, { collectionId: a.id, parent: b.id }, o.admin))).toMatchObject({
      reason: 'invalid_input',
      message: 'parent: a collection cannot move into itself or one of its sub-collections',
    });
    expect(await reasonOf(t.call(ops.moveCollection, { collectionId: a.id, parent: a.id }, o.admin))).toBe(
      'invalid_input',
    );
    // Spaces and collections are siblings in one order.
    const s = await t.call(ops.createSpace, { organizationId: o.id, title: 'Space' }, o.admin);
    await t.call(
      ops.moveCollection,
      { collectionId: a.id, position: { after: { type: 'space', space: s.id } } },
      o.admin,
    );
    const top = await t.call(
      ops.moveCollection,
      { collectionId: b.id, parent: null, position: { before: { type: 'space', space: s.id } } },
      o.admin,
    );
    expect(top.parent).toBeUndefined();
    expect(
      (await t.call(ops.listCollectionsInOrganizationById, { organizationId: o.id, nested: false }, o.admin)).items.map(
        (c) => c.title,
      ),
    ).toEqual(['B', 'A']);
    expect((await eventsOf('collection.moved', 'collection', b.id)).map((e) => e.parent ?? null)).toEqual([
      a1.id,
      null,
    ]);
    expect(
      (
        await failureOf(
          t.call(
            ops.moveCollection,
            { collectionId: a.id, position: { after: { type: 'collection', collection: 'nope' } } },
            o.admin,
          ),
        )
      ).message,
    ).toBe('position.after: no collection nope in this organization');
  });
});

describe('POST /collections/{collectionId}/transfer', () => {
  it('moves the collection, its sub-collections and their spaces together, atomically', async () => {
    const src = org();
    const dst = org();
    const both = userActor('cboth', [
      { organization: src.id, role: 'admin' },
      { organization: dst.id, role: 'admin' },
    ]);
    const root = await t.call(ops.createCollection, { organizationId: src.id, title: 'Root' }, both);
    const child = await t.call(ops.createCollection, { organizationId: src.id, title: 'Child', parent: root.id }, both);
    const s1 = await t.call(ops.createSpace, { organizationId: src.id, title: 'In root', parent: root.id }, both);
    const s2 = await t.call(ops.createSpace, { organizationId: src.id, title: 'In child', parent: child.id }, both);
    const stay = await t.call(ops.createSpace, { organizationId: src.id, title: 'Stays' }, both);
    const moved = await t.call(ops.transferCollection, { collectionId: root.id, organization: dst.id }, both);
    expect(moved).toMatchObject({ id: root.id, organization: dst.id, permissions: { admin: true } });
    expect(await t.call(ops.getCollectionById, { collectionId: child.id }, both)).toMatchObject({
      organization: dst.id,
      parent: root.id,
    });
    expect(await t.call(ops.getSpaceById, { spaceId: s2.id }, both)).toMatchObject({
      organization: dst.id,
      parent: child.id,
    });
    expect((await t.call(ops.listSpaces, { organizationId: dst.id }, both)).items.map((s) => s.id).sort()).toEqual(
      [s1.id, s2.id].sort(),
    );
    expect((await t.call(ops.listSpaces, { organizationId: src.id }, both)).items.map((s) => s.id)).toEqual([stay.id]);
    expect((await t.call(ops.listCollectionsInOrganizationById, { organizationId: src.id }, both)).count).toBe(0);
    expect(await eventsOf('collection.transferred', 'collection', root.id)).toEqual([
      {
        collection: root.id,
        organization: dst.id,
        previousOrganization: src.id,
        collections: [root.id, child.id],
        spaces: expect.arrayContaining([s1.id, s2.id]),
      },
    ]);
    expect(await eventsOf('space.transferred', 'space', s2.id)).toEqual([
      { space: s2.id, organization: dst.id, previousOrganization: src.id, title: 'In child', collection: root.id },
    ]);
  });

  it('needs the admin role in both organizations and changes nothing otherwise', async () => {
    const src = org();
    const dst = org();
    const c = await t.call(ops.createCollection, { organizationId: src.id, title: 'Mine' }, src.admin);
    expect(
      (await failureOf(t.call(ops.transferCollection, { collectionId: c.id, organization: dst.id }, src.admin)))
        .message,
    ).toBe('Transferring a collection needs the admin role in the target organization');
    expect(
      await reasonOf(t.call(ops.transferCollection, { collectionId: c.id, organization: dst.id }, src.reader)),
    ).toBe('forbidden');
    expect(
      await reasonOf(t.call(ops.transferCollection, { collectionId: c.id, organization: dst.id }, dst.admin)),
    ).toBe('not_found');
    expect((await t.call(ops.getCollectionById, { collectionId: c.id }, src.admin)).organization).toBe(src.id);
  });
});
