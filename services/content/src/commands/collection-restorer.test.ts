import { beforeAll, describe, expect, it } from 'vitest';
import { ops, type Role } from '@quire/contracts';
import { sql, type EntityManager } from '@quire/kit';
import { failureOf, orgAdmin, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../env.ts';
import { purgeDeletedSpaces } from '../jobs/purge-deleted-spaces.job.ts';
import { Collection } from '../modules/collections/collection.entity.ts';
import { deletedCollectionRepository } from '../modules/collections/deleted-collection.repository.ts';
import { stubOrganizationMembers } from '../modules/members/member.testing.ts';
import { Space } from '../modules/spaces/space.entity.ts';
import { contentService } from '../service.ts';
import { collectionDeleter } from './collection-deleter.ts';
import { collectionRestorer } from './collection-restorer.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'collection-restorer' });
const day = 24 * 3600 * 1_000;

const ORG = 'org-ctrash';
/** The organization with its admin, an editor, a reader and another organization's admin. */
const org = () => ({
  id: ORG,
  admin: orgAdmin(ORG),
  editor: userActor('editor', [{ organization: ORG, role: 'edit' }]),
  reader: userActor('reader', [{ organization: ORG, role: 'read' }]),
  stranger: orgAdmin('org-elsewhere'),
});
const members = new Map<string, Role | null>([
  [`admin-of-${ORG}`, 'admin'],
  ['editor', 'edit'],
  ['reader', 'read'],
]);
beforeAll(() => stubOrganizationMembers(t, ORG, members));
/** The live children of a parent (null: the top level) in their order, as titles. */
async function childrenOf(organizationId: string, parentId: string | null) {
  const em = t.em().fork();
  const [spaces, collections] = await Promise.all([
    em.find(Space, { organizationId, parentId, deletedAt: null }),
    em.find(Collection, { organizationId, parentId }),
  ]);
  return [...spaces, ...collections]
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : 1))
    .map((x) => x.title);
}
/** A user's role on a collection, written as `inviteToCollection` does. */
const grant = (collection: string, user: string, role: Role) =>
  t.svc.deps.orm.em.getConnection().execute(
    `insert into content.collection_grant (collection_id, organization_id, principal_kind, principal_id, role, granted_at)
       values (?, ?, 'user', ?, ?, now())`,
    [collection, ORG, user, role],
  );
const grantsOf = (id: string) =>
  sql<{ principal_id: string; role: string }>(
    t.em().fork() as EntityManager,
    `select principal_id, role from :schema.collection_grant where collection_id = ? order by principal_id`,
    [id],
  );

describe('collectionRestorer', () => {
  it('recreates the collection with its id, fields, place and grants, and moves back what is still where it went', async () => {
    const o = org();
    const make = (title: string, parent?: string) =>
      t.call(ops.createCollection, { organizationId: o.id, title, parent }, o.admin);
    const space = (title: string, parent?: string) =>
      t.call(ops.createSpace, { organizationId: o.id, title, parent }, o.admin);
    const parent = await make('Parent');
    await space('Before', parent.id);
    const doomed = await make('Doomed', parent.id);
    await space('After', parent.id);
    await t.call(
      ops.updateCollectionById,
      { collectionId: doomed.id, description: 'Kept', defaultLevel: 'inherit' },
      o.admin,
    );
    await grant(doomed.id, 'member-x', 'edit');
    const first = await space('First', doomed.id);
    const sub = await make('Sub', doomed.id);
    const wanderer = await space('Wanderer', doomed.id);
    const last = await space('Last', doomed.id);

    await t.call(ops.deleteCollectionById, { collectionId: doomed.id }, o.admin);
    expect(await childrenOf(o.id, parent.id)).toEqual(['Before', 'After', 'First', 'Sub', 'Wanderer', 'Last']);
    expect(await grantsOf(doomed.id)).toEqual([]);
    // moved elsewhere after the delete: it stays where it was put
    await t.call(ops.moveSpace, { spaceId: wanderer.id, parent: null }, o.admin);

    const restored = await t.call(ops.restoreCollection, { collectionId: doomed.id }, o.admin);
    expect(restored).toMatchObject({
      id: doomed.id,
      title: 'Doomed',
      description: 'Kept',
      defaultLevel: 'inherit',
      parent: parent.id,
      permissions: { admin: true },
    });
    expect(await childrenOf(o.id, parent.id)).toEqual(['Before', 'Doomed', 'After']);
    expect(await childrenOf(o.id, doomed.id)).toEqual(['First', 'Sub', 'Last']);
    expect(await childrenOf(o.id, null)).toContain('Wanderer');
    expect(await grantsOf(doomed.id)).toEqual([{ principal_id: 'member-x', role: 'edit' }]);
    const events = (await t.outboxEvents('collection.restored')).map((e) => e.data as { collection: string });
    expect(events.filter((e) => e.collection === doomed.id)).toEqual([
      {
        collection: doomed.id,
        organization: o.id,
        title: 'Doomed',
        parent: parent.id,
        movedSpaces: [first.id, last.id],
        movedCollections: [sub.id],
      },
    ]);
    // out of the trash, and restoring it again finds nothing
    const trash = await t.call(ops.listDeletedCollections, { organizationId: o.id }, o.admin);
    expect(trash.items.map((c) => c.id)).not.toContain(doomed.id);
    expect(await reasonOf(t.call(ops.restoreCollection, { collectionId: doomed.id }, o.admin))).toBe('not_found');
  });

  it('goes back to the top level when its parent is gone, and a space it made private is in-collection again', async () => {
    const o = org();
    const top = await t.call(ops.createCollection, { organizationId: o.id, title: 'Top' }, o.admin);
    const inner = await t.call(ops.createCollection, { organizationId: o.id, title: 'Inner', parent: top.id }, o.admin);
    const shared = await t.call(ops.createSpace, { organizationId: o.id, title: 'Shared', parent: top.id }, o.admin);
    await t
      .em()
      .fork()
      .transactional(async (tx) => {
        (await tx.findOneOrFail(Space, { id: shared.id })).visibility = 'in-collection';
      });
    await t.call(ops.deleteCollectionById, { collectionId: top.id }, o.admin);
    expect((await t.em().fork().findOneOrFail(Space, { id: shared.id })).visibility).toBe('private');
    await t.call(ops.deleteCollectionById, { collectionId: inner.id }, o.admin);

    const list = await t.call(ops.listDeletedCollections, { organizationId: o.id, limit: 2 }, o.admin);
    expect(list.items.map((c) => [c.title, c.movedSpaces, c.movedCollections])).toEqual([
      ['Inner', 0, 0],
      ['Top', 1, 1],
    ]);
    expect(list.items[0]).not.toHaveProperty('parent');

    const back = await t.call(ops.restoreCollection, { collectionId: inner.id }, o.admin);
    expect(back).not.toHaveProperty('parent');
    expect(await childrenOf(o.id, null)).toEqual(expect.arrayContaining(['Inner', 'Shared']));
    expect((await t.em().fork().findOneOrFail(Collection, { id: inner.id })).parentId).toBeNull();
    await t.call(ops.restoreCollection, { collectionId: top.id }, o.admin);
    // Inner came back where Top's delete had put it (its own delete kept that place): it goes back into Top too
    expect(await childrenOf(o.id, top.id)).toEqual(['Inner', 'Shared']);
    expect((await t.em().fork().findOneOrFail(Space, { id: shared.id })).visibility).toBe('in-collection');
  });

  it('leaves where it is what left the organization since (a transfer keeps the order key)', async () => {
    const o = org();
    const box = await t.call(ops.createCollection, { organizationId: o.id, title: 'Box' }, o.admin);
    const away = await t.call(ops.createSpace, { organizationId: o.id, title: 'Away', parent: box.id }, o.admin);
    await t.call(ops.deleteCollectionById, { collectionId: box.id }, o.admin);
    await t.svc.deps.orm.em
      .getConnection()
      .execute(`update content.space set organization_id = 'org-other' where id = ?`, [away.id]);
    await t.call(ops.restoreCollection, { collectionId: box.id }, o.admin);
    expect(await t.em().fork().findOneOrFail(Space, { id: away.id })).toMatchObject({
      organizationId: 'org-other',
      parentId: null,
    });
  });

  it('lets only who may restore it see it and restore it (404 outside, 403 below admin or where it goes)', async () => {
    const o = org();
    const theirs = await t.call(ops.createCollection, { organizationId: o.id, title: 'Editor is admin' }, o.admin);
    const mine = await t.call(ops.createCollection, { organizationId: o.id, title: 'Admin only' }, o.admin);
    await grant(theirs.id, 'editor', 'admin');
    await t.call(ops.deleteCollectionById, { collectionId: mine.id }, o.admin);
    await t.call(ops.deleteCollectionById, { collectionId: theirs.id }, o.editor);
    const all = (await t.call(ops.listDeletedCollections, { organizationId: o.id }, o.admin)).items;
    const [byEditor, byAdmin] = all;
    expect(byEditor).toMatchObject({ id: theirs.id, title: 'Editor is admin', permissions: { admin: true } });
    expect(byEditor!.deletedBy?.displayName).toBe('editor');
    expect(byAdmin!.deletedBy?.displayName).toBe(`admin-of-${ORG}`);
    expect(Date.parse(byAdmin!.purgeAt) - Date.parse(byAdmin!.deletedAt)).toBe(7 * day);
    // a member sees the collections it is an admin of (by its kept grant); a reader none; another organization: 404
    const editors = (await t.call(ops.listDeletedCollections, { organizationId: o.id }, o.editor)).items;
    expect(editors.map((c) => c.id)).toEqual([theirs.id]);
    expect((await t.call(ops.listDeletedCollections, { organizationId: o.id }, o.reader)).items).toEqual([]);
    expect(await reasonOf(t.call(ops.listDeletedCollections, { organizationId: o.id }, o.stranger))).toBe('not_found');
    expect(await reasonOf(t.call(ops.restoreCollection, { collectionId: mine.id }, o.stranger))).toBe('not_found');
    expect(await reasonOf(t.call(ops.restoreCollection, { collectionId: mine.id }, o.reader))).toBe('forbidden');
    // the editor is an admin of it, but may not create at the top level (the organization's `edit` role): 403
    expect(await reasonOf(t.call(ops.restoreCollection, { collectionId: theirs.id }, o.editor))).toBe('forbidden');
    expect(await t.call(ops.restoreCollection, { collectionId: mine.id }, o.admin)).toMatchObject({ id: mine.id });
  });

  it('restores within 7 days, refuses after (412), and the purge empties the trash past the window', async () => {
    const o = org();
    const t0 = new Date('2030-03-01T00:00:00Z');
    const make = async (title: string) => {
      const c = await t.call(ops.createCollection, { organizationId: o.id, title }, o.admin);
      await t
        .em()
        .fork()
        .transactional(async (tx) =>
          collectionDeleter(tx, { collection: await tx.findOneOrFail(Collection, { id: c.id }), now: t0 }),
        );
      return c.id;
    };
    const [late, kept] = [await make('Late'), await make('Kept')];
    const restore = (id: string, at: number) =>
      t
        .em()
        .fork()
        .transactional(async (tx) => {
          const deleted = (await deletedCollectionRepository.findById(tx, id))!;
          return collectionRestorer(tx, { deleted, parentId: null, now: new Date(t0.getTime() + at * day) });
        });
    expect(await failureOf(restore(late, 8))).toMatchObject({ reason: 'precondition_failed' });
    expect(await restore(kept, 6)).toMatchObject({ id: kept, title: 'Kept' });
    await purgeDeletedSpaces(t.em().fork(), new Date(t0.getTime() + 7 * day - 1));
    expect(await deletedCollectionRepository.findById(t.em().fork(), late)).not.toBeNull();
    await purgeDeletedSpaces(t.em().fork(), new Date(t0.getTime() + 8 * day));
    expect(await deletedCollectionRepository.findById(t.em().fork(), late)).toBeNull();
  });
});
