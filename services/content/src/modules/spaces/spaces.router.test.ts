import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { OutboxEvent, TimerJobRunner } from '@quire/kit';
import { eventually, failureOf, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';

const admin = userActor('admin-user', [{ organization: 'org1', role: 'admin' }]);
const creator = userActor('creator', [{ organization: 'org1', role: 'create' }]);
const reader = userActor('reader', [{ organization: 'org1', role: 'read' }]);
const guest = userActor('guest', [{ organization: 'org1', role: null }]);
const stranger = userActor('stranger', [{ organization: 'org2', role: 'admin' }]);

const t = useTestService(contentService, loadContentConfig, { label: 'content' });

describe('spaces', () => {
  it('creates a space with its first revision and a space.created event', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Handbook', emoji: '📘' }, creator);
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      organization: 'org1',
      visibility: 'private',
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
    });
    expect(space.urls.location).toBe(`http://quire.test/v1/spaces/${space.id}`);
    expect(space.permissions).toMatchObject({ view: true, edit: true, admin: false });
    const rev = await t.svc.deps.orm.em
      .getConnection()
      .execute<{ id: string }[]>(`select id from content.revision where space_id = ?`, [space.id]);
    expect(rev.map((r: { id: string }) => r.id)).toEqual([space.revision]);
    const events = await t.svc.deps.orm.em.fork().find(OutboxEvent, { type: 'space.created' });
    expect(events.map((e) => (e.payload as { data: { space: string } }).data.space)).toContain(space.id);
  });

  it('computes permissions per caller and hides spaces from outsiders', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Policies' }, admin);
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, admin)).permissions.admin).toBe(true);
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, reader)).permissions).toMatchObject({
      view: true,
      edit: false,
      comment: false,
    });
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: space.id }, stranger))).toBe('not_found');
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: space.id }, guest))).toBe('not_found');
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: 'nope' }, admin))).toBe('not_found');
  });

  it('lets only create+ members create spaces', async () => {
    expect(await reasonOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x' }, reader))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x' }, stranger))).toBe('not_found');
    expect(
      (await failureOf(t.call(ops.createSpace, { organizationId: 'org1', title: 'x'.repeat(51) }, admin))).message,
    ).toMatch(/title/);
    expect((await failureOf(t.call(ops.createSpace, { organizationId: 'org1', parent: 'col' }, admin))).message).toBe(
      'Collection not found',
    );
    const elsewhere = await t.call(ops.createCollection, { organizationId: 'org2', title: 'Theirs' }, stranger);
    expect(
      (await failureOf(t.call(ops.createSpace, { organizationId: 'org1', parent: elsewhere.id }, admin))).message,
    ).toBe('Collection not found');
  });

  it('lists the organization spaces a caller can see, paged', async () => {
    const org = 'org-list';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    for (let i = 0; i < 5; i++) await t.call(ops.createSpace, { organizationId: org, title: `S${i}` }, a);
    const page1 = await t.call(ops.listSpaces, { organizationId: org, limit: 3 }, a);
    expect(page1.count).toBe(5);
    expect(page1.next).toBeDefined();
    expect(page1.items.map((s) => s.title)).toEqual(['S0', 'S1', 'S2']);
    const page2 = await t.call(ops.listSpaces, { organizationId: org, limit: 3, page: page1.next!.page }, a);
    expect(page2.items.map((s) => s.title)).toEqual(['S3', 'S4']);
    expect(page2.next).toBeUndefined();
    expect(
      await t.call(ops.listSpaces, { organizationId: org }, userActor('g', [{ organization: org, role: null }])),
    ).toEqual({ count: 0, items: [] });
    expect(await reasonOf(t.call(ops.listSpaces, { organizationId: org }, stranger))).toBe('not_found');
  });

  it('rejects calls without a valid signed actor', async () => {
    const res = await fetch(`${t.url}/trpc/spaces.get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"spaceId":"x"}',
    });
    expect(res.status).toBe(401);
    const forged = await fetch(`${t.url}/trpc/spaces.get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-quire-actor': 'e30.AAAA' },
      body: '{"spaceId":"x"}',
    });
    expect(forged.status).toBe(401);
  });
});

describe('spaces.countForMembers (internal)', () => {
  it('counts the spaces each member can access, for services only', async () => {
    const org = 'org-count';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    await t.call(ops.createSpace, { organizationId: org, title: 'One' }, a);
    await t.call(ops.createSpace, { organizationId: org, title: 'Two' }, a);
    const closedCol = await t.call(ops.createCollection, { organizationId: org, title: 'Closed' }, a);
    await t.call(ops.updateCollectionById, { collectionId: closedCol.id, defaultLevel: null }, a);
    await t.call(ops.createSpace, { organizationId: org, title: 'Hidden', parent: closedCol.id }, a);
    const deleted = await t.call(ops.createSpace, { organizationId: org, title: 'Gone' }, a);
    await t.call(ops.deleteSpaceById, { spaceId: deleted.id }, a);
    const res = await t.call(
      ops.countMemberSpaces,
      {
        organizationId: org,
        members: [
          { userId: 'a', role: 'admin' },
          { userId: 'r', role: 'read' },
          { userId: 'g', role: null },
        ],
      },
      { kind: 'service', service: 'org-admin' },
    );
    expect(res.counts).toEqual({ a: 3, r: 2, g: 0 });
    // The same rule as the member's own list.
    const listed = await t.call(
      ops.listSpaces,
      { organizationId: org },
      userActor('r', [{ organization: org, role: 'read' }]),
    );
    expect(listed.count).toBe(2);
    expect(await reasonOf(t.call(ops.countMemberSpaces, { organizationId: org, members: [] }, a))).toBe('forbidden');
  });
});

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.svc.deps.orm.em.getConnection().execute<T[]>(text, params);
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1_000);
const eventsOf = async (type: string, key: string, id: string) =>
  (await t.svc.deps.orm.em.fork().find(OutboxEvent, { type }, { orderBy: { seq: 'asc' } }))
    .map((e) => (e.payload as { data: Record<string, unknown> }).data)
    .filter((d) => d[key] === id);

describe('PATCH /spaces/{spaceId}', () => {
  it('lets space admins change settings, emits space.updated with the changed fields', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Before' }, admin);
    const updated = await t.call(
      ops.updateSpaceById,
      {
        spaceId: space.id,
        title: 'After',
        emoji: '🚀',
        editMode: 'locked',
        defaultLevel: 'comment',
        visibility: 'unlisted',
      },
      admin,
    );
    expect(updated).toMatchObject({
      title: 'After',
      emoji: '🚀',
      editMode: 'locked',
      defaultLevel: 'comment',
      visibility: 'unlisted',
      urls: { published: `http://quire.test/s/${space.id}` },
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(space.updatedAt));
    expect(await t.call(ops.getSpaceById, { spaceId: space.id }, admin)).toMatchObject({
      title: 'After',
      visibility: 'unlisted',
    });
    expect(await eventsOf('space.updated', 'space', space.id)).toEqual([
      expect.objectContaining({ title: 'After', fields: ['title', 'emoji', 'editMode', 'defaultLevel', 'visibility'] }),
    ]);
    // Same values again: nothing changes, no event.
    await t.call(ops.updateSpaceById, { spaceId: space.id, title: 'After' }, admin);
    expect(await eventsOf('space.updated', 'space', space.id)).toHaveLength(1);
  });

  it('swaps emoji and icon, and removes them with null', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Icons', emoji: '📘' }, admin);
    const withIcon = await t.call(
      ops.updateSpaceById,
      { spaceId: space.id, icon: 'https://cdn.example.com/i.png' },
      admin,
    );
    expect(withIcon).toMatchObject({ emoji: '', urls: { icon: 'https://cdn.example.com/i.png' } });
    const bare = await t.call(ops.updateSpaceById, { spaceId: space.id, icon: null, emoji: null }, admin);
    expect(bare.emoji).toBe('');
    expect(bare.urls.icon).toBeUndefined();
    expect(
      (
        await failureOf(
          t.call(ops.updateSpaceById, { spaceId: space.id, emoji: '🚀', icon: 'https://x.io/i.png' }, admin),
        )
      ).message,
    ).toMatch(/icon: give `emoji` or `icon`/);
  });

  it('enforces the limits and the in-collection rule (400 naming the field)', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Limits' }, admin);
    expect(
      await failureOf(t.call(ops.updateSpaceById, { spaceId: space.id, title: 'x'.repeat(51) }, admin)),
    ).toMatchObject({ reason: 'invalid_input', message: expect.stringMatching(/title: Too big/) });
    expect(
      (await failureOf(t.call(ops.updateSpaceById, { spaceId: space.id, emoji: 'x'.repeat(51) }, admin))).message,
    ).toMatch(/emoji: Too big/);
    expect(
      (await failureOf(t.call(ops.updateSpaceById, { spaceId: space.id, visibility: 'secret' as never }, admin)))
        .message,
    ).toMatch(/visibility/);
    expect(
      (await failureOf(t.call(ops.updateSpaceById, { spaceId: space.id, defaultLevel: 'owner' as never }, admin)))
        .message,
    ).toMatch(/defaultLevel/);
    expect(
      await failureOf(t.call(ops.updateSpaceById, { spaceId: space.id, visibility: 'in-collection' }, admin)),
    ).toMatchObject({
      reason: 'invalid_input',
      message: 'visibility: `in-collection` is only for a space inside a collection',
    });
    const col = await t.call(ops.createCollection, { organizationId: 'org1', title: 'Home' }, admin);
    const inside = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Inside', parent: col.id }, admin);
    expect(
      (await t.call(ops.updateSpaceById, { spaceId: inside.id, visibility: 'in-collection' }, admin)).visibility,
    ).toBe('in-collection');
    // Leaving the collection drops the visibility only a collection defines.
    expect((await t.call(ops.moveSpace, { spaceId: inside.id, parent: null }, admin)).visibility).toBe('private');
  });

  it('is for space admins: 403 for members below, 404 for outsiders', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Guarded' }, admin);
    expect(await reasonOf(t.call(ops.updateSpaceById, { spaceId: space.id, title: 'x' }, reader))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.updateSpaceById, { spaceId: space.id, title: 'x' }, creator))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.updateSpaceById, { spaceId: space.id, title: 'x' }, stranger))).toBe('not_found');
    // A space level of `admin` makes every member its admin.
    await t.call(ops.updateSpaceById, { spaceId: space.id, defaultLevel: 'admin' }, admin);
    expect(
      (await t.call(ops.updateSpaceById, { spaceId: space.id, title: 'By reader' }, reader)).permissions.admin,
    ).toBe(true);
  });
});

describe('delete, restore and purge', () => {
  it('deletes to the trash (205): hidden from lists, GET shows deletedAt, DELETE again changes nothing', async () => {
    const org = 'org-trash';
    const a = userActor('ta', [{ organization: org, role: 'admin' }]);
    const space = await t.call(ops.createSpace, { organizationId: org, title: 'Doomed' }, a);
    expect(await t.call(ops.deleteSpaceById, { spaceId: space.id }, a)).toBeUndefined();
    const got = await t.call(ops.getSpaceById, { spaceId: space.id }, a);
    expect(got.deletedAt).toBeDefined();
    expect(Date.now() - Date.parse(got.deletedAt!)).toBeLessThan(60_000);
    expect((await t.call(ops.listSpaces, { organizationId: org }, a)).items.map((s) => s.id)).not.toContain(space.id);
    await t.call(ops.deleteSpaceById, { spaceId: space.id }, a);
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, a)).deletedAt).toBe(got.deletedAt);
    expect(await eventsOf('space.deleted', 'space', space.id)).toHaveLength(1);
    // Only restore (or GET/DELETE) works on a deleted space.
    expect(await reasonOf(t.call(ops.updateSpaceById, { spaceId: space.id, title: 'x' }, a))).toBe('not_found');
    expect(await reasonOf(t.call(ops.duplicateSpace, { spaceId: space.id }, a))).toBe('not_found');
    const restored = await t.call(ops.restoreSpace, { spaceId: space.id }, a);
    expect(restored.deletedAt).toBeUndefined();
    expect((await t.call(ops.listSpaces, { organizationId: org }, a)).items.map((s) => s.id)).toContain(space.id);
    expect(await eventsOf('space.restored', 'space', space.id)).toHaveLength(1);
  });

  it('restores within 7 days (6 days: 200) and refuses after (8 days: 412)', async () => {
    const six = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Six days' }, admin);
    const eight = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Eight days' }, admin);
    await sql(`update content.space set deleted_at = ? where id = ?`, [daysAgo(6), six.id]);
    await sql(`update content.space set deleted_at = ? where id = ?`, [daysAgo(8), eight.id]);
    expect((await t.call(ops.restoreSpace, { spaceId: six.id }, admin)).deletedAt).toBeUndefined();
    expect(await failureOf(t.call(ops.restoreSpace, { spaceId: eight.id }, admin))).toMatchObject({
      reason: 'precondition_failed',
      message: 'The space was deleted more than 7 days ago and can no longer be restored',
    });
    // Still visible with deletedAt until the purge.
    expect((await t.call(ops.getSpaceById, { spaceId: eight.id }, admin)).deletedAt).toBeDefined();
  });

  it('lets only space admins delete and restore', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Keep' }, admin);
    expect(await reasonOf(t.call(ops.deleteSpaceById, { spaceId: space.id }, reader))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.deleteSpaceById, { spaceId: space.id }, stranger))).toBe('not_found');
    await t.call(ops.deleteSpaceById, { spaceId: space.id }, admin);
    expect(await reasonOf(t.call(ops.restoreSpace, { spaceId: space.id }, reader))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.restoreSpace, { spaceId: space.id }, stranger))).toBe('not_found');
  });

  it('purges spaces deleted over 7 days ago with their revisions, once, through the job', async () => {
    const old = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Purge me' }, admin);
    const recent = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Not yet' }, admin);
    await sql(`update content.space set deleted_at = ? where id = ?`, [daysAgo(8), old.id]);
    await sql(`update content.space set deleted_at = ? where id = ?`, [daysAgo(6), recent.id]);
    const runner = t.svc.jobs;
    if (!(runner instanceof TimerJobRunner)) throw new Error('expected the standalone (timer) job runner');
    await runner.enqueue('content-purge-spaces');
    await runner.idle();
    expect(await reasonOf(t.call(ops.getSpaceById, { spaceId: old.id }, admin))).toBe('not_found');
    expect(await sql(`select id from content.revision where space_id = ?`, [old.id])).toEqual([]);
    expect((await t.call(ops.getSpaceById, { spaceId: recent.id }, admin)).deletedAt).toBeDefined();
    expect(await eventsOf('space.purged', 'space', old.id)).toEqual([{ space: old.id, organization: 'org1' }]);
    expect(await eventsOf('space.purged', 'space', recent.id)).toEqual([]);
    // Idempotent: running again purges nothing more.
    await runner.enqueue('content-purge-spaces');
    await runner.idle();
    expect(await eventsOf('space.purged', 'space', old.id)).toHaveLength(1);
  });
});

describe('POST /spaces/{spaceId}/duplicate', () => {
  it('copies settings and content right after the source, titled "Copy of …"', async () => {
    const org = 'org-dup';
    const a = userActor('da', [{ organization: org, role: 'admin' }]);
    const first = await t.call(ops.createSpace, { organizationId: org, title: 'First', emoji: '📗' }, a);
    const last = await t.call(ops.createSpace, { organizationId: org, title: 'Last' }, a);
    await t.call(
      ops.updateSpaceById,
      { spaceId: first.id, visibility: 'public', defaultLevel: 'read', editMode: 'locked' },
      a,
    );
    const copy = await t.call(ops.duplicateSpace, { spaceId: first.id }, a);
    expect(copy).toMatchObject({
      title: 'Copy of First',
      emoji: '📗',
      visibility: 'public',
      defaultLevel: 'read',
      editMode: 'locked',
      organization: org,
      comments: 0,
      changeRequests: 0,
    });
    expect(copy.id).not.toBe(first.id);
    expect(copy.revision).not.toBe(first.revision);
    const [rev] = await sql<{ space_id: string; parents: string[]; type: string }>(
      `select space_id, parents, type from content.revision where id = ?`,
      [copy.revision],
    );
    expect(rev).toMatchObject({ space_id: copy.id, parents: [], type: 'edits' });
    expect((await t.call(ops.listSpaces, { organizationId: org }, a)).items.map((s) => s.title)).toEqual([
      'First',
      'Copy of First',
      'Last',
    ]);
    expect(last.id).toBeDefined();
    expect(await eventsOf('space.created', 'space', copy.id)).toEqual([
      expect.objectContaining({ duplicatedFrom: first.id, title: 'Copy of First' }),
    ]);
    const long = await t.call(ops.createSpace, { organizationId: org, title: 'L'.repeat(50) }, a);
    expect((await t.call(ops.duplicateSpace, { spaceId: long.id }, a)).title).toBe(`Copy of ${'L'.repeat(42)}`);
  });

  it('needs to see the source and to create where the copy goes', async () => {
    const space = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Source' }, admin);
    expect((await t.call(ops.duplicateSpace, { spaceId: space.id }, creator)).title).toBe('Copy of Source');
    expect(await reasonOf(t.call(ops.duplicateSpace, { spaceId: space.id }, reader))).toBe('forbidden');
    expect(await reasonOf(t.call(ops.duplicateSpace, { spaceId: space.id }, stranger))).toBe('not_found');
  });
});

describe('POST /spaces/{spaceId}/move', () => {
  const org = 'org-move';
  const a = userActor('ma', [{ organization: org, role: 'admin' }]);
  const titles = async (collectionId?: string) =>
    collectionId
      ? (await t.call(ops.listSpacesInCollectionById, { collectionId }, a)).items.map((s) => s.title)
      : (await t.call(ops.listSpaces, { organizationId: org }, a)).items.filter((s) => !s.parent).map((s) => s.title);

  it('reorders siblings before/after one another and lists them in that order', async () => {
    const [s1, s2, s3] = [
      await t.call(ops.createSpace, { organizationId: org, title: 'A' }, a),
      await t.call(ops.createSpace, { organizationId: org, title: 'B' }, a),
      await t.call(ops.createSpace, { organizationId: org, title: 'C' }, a),
    ];
    expect(await titles()).toEqual(['A', 'B', 'C']);
    await t.call(ops.moveSpace, { spaceId: s3!.id, position: { before: { type: 'space', space: s1!.id } } }, a);
    expect(await titles()).toEqual(['C', 'A', 'B']);
    await t.call(ops.moveSpace, { spaceId: s3!.id, position: { after: { type: 'space', space: s1!.id } } }, a);
    expect(await titles()).toEqual(['A', 'C', 'B']);
    // Many moves into the same gap: the group is renumbered, the order stays right.
    for (let i = 0; i < 20; i++) {
      const mover = i % 2 ? s3! : s2!;
      const anchor = i % 2 ? s2! : s3!;
      await t.call(ops.moveSpace, { spaceId: mover.id, position: { after: { type: 'space', space: anchor.id } } }, a);
    }
    expect(await titles()).toEqual(['A', 'B', 'C']);
    const ev = await eventsOf('space.updated', 'space', s3!.id);
    expect(ev[0]).toMatchObject({ fields: ['position'] });
  });

  it('moves into and out of collections, paging correctly in tree order', async () => {
    const col = await t.call(ops.createCollection, { organizationId: org, title: 'Box' }, a);
    const made = [];
    for (const title of ['P', 'Q', 'R', 'S', 'T'])
      made.push(await t.call(ops.createSpace, { organizationId: org, title, parent: col.id }, a));
    const moved = await t.call(
      ops.moveSpace,
      { spaceId: made[4]!.id, position: { before: { type: 'space', space: made[0]!.id } } },
      a,
    );
    expect(moved.parent).toBe(col.id);
    const page1 = await t.call(ops.listSpacesInCollectionById, { collectionId: col.id, limit: 2 }, a);
    const page2 = await t.call(
      ops.listSpacesInCollectionById,
      { collectionId: col.id, limit: 2, page: page1.next!.page },
      a,
    );
    const page3 = await t.call(
      ops.listSpacesInCollectionById,
      { collectionId: col.id, limit: 2, page: page2.next!.page },
      a,
    );
    expect([...page1.items, ...page2.items, ...page3.items].map((s) => s.title)).toEqual(['T', 'P', 'Q', 'R', 'S']);
    expect(page3.next).toBeUndefined();
    expect(page1.count).toBe(5);
    // Out to the top level, after a given space; then `position` alone names the destination.
    const top = await t.call(ops.createSpace, { organizationId: org, title: 'Top' }, a);
    const out = await t.call(
      ops.moveSpace,
      { spaceId: made[0]!.id, parent: null, position: { after: { type: 'space', space: top.id } } },
      a,
    );
    expect(out.parent).toBeUndefined();
    expect(await titles(col.id)).toEqual(['T', 'Q', 'R', 'S']);
    const back = await t.call(
      ops.moveSpace,
      { spaceId: made[0]!.id, position: { after: { type: 'space', space: made[1]!.id } } },
      a,
    );
    expect(back.parent).toBe(col.id);
    expect(await titles(col.id)).toEqual(['T', 'Q', 'P', 'R', 'S']);
    expect((await eventsOf('space.updated', 'space', made[0]!.id)).map((e) => e.fields)).toEqual([
      ['parent', 'position'],
      ['parent', 'position'],
    ]);
  });

  it('refuses bad destinations with a 400 naming the field', async () => {
    const s = await t.call(ops.createSpace, { organizationId: org, title: 'Lonely' }, a);
    const elsewhere = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Far' }, admin);
    expect((await failureOf(t.call(ops.moveSpace, { spaceId: s.id }, a))).message).toMatch(
      /parent: give `parent`, `position` or both/,
    );
    expect((await failureOf(t.call(ops.moveSpace, { spaceId: s.id, parent: 'nope' }, a))).message).toBe(
      'parent: no collection nope in this organization',
    );
    expect(
      (
        await failureOf(
          t.call(ops.moveSpace, { spaceId: s.id, position: { after: { type: 'space', space: elsewhere.id } } }, a),
        )
      ).message,
    ).toBe(`position.after: no space ${elsewhere.id} in this organization`);
    expect(
      (
        await failureOf(
          t.call(ops.moveSpace, { spaceId: s.id, position: { before: { type: 'space', space: s.id } } }, a),
        )
      ).message,
    ).toBe('position.before: an item cannot be placed relative to itself');
    const col = await t.call(ops.createCollection, { organizationId: org, title: 'Other box' }, a);
    const inCol = await t.call(ops.createSpace, { organizationId: org, title: 'In box', parent: col.id }, a);
    expect(
      (
        await failureOf(
          t.call(
            ops.moveSpace,
            { spaceId: s.id, parent: null, position: { after: { type: 'space', space: inCol.id } } },
            a,
          ),
        )
      ).message,
    ).toMatch(/^position.after: space \w+ is not in the destination \(the top level\)$/);
    expect(
      (
        await failureOf(
          t.call(
            ops.moveSpace,
            {
              spaceId: s.id,
              position: { after: { type: 'space', space: 'x' }, before: { type: 'space', space: 'y' } },
            },
            a,
          ),
        )
      ).message,
    ).toMatch(/position: give exactly one of `before` or `after`/);
  });

  it('takes space admin, plus create on the destination', async () => {
    const s = await t.call(ops.createSpace, { organizationId: 'org1', title: 'Mobile' }, admin);
    const closed = await t.call(ops.createCollection, { organizationId: 'org1', title: 'Read only' }, admin);
    await t.call(ops.updateCollectionById, { collectionId: closed.id, defaultLevel: 'read' }, admin);
    expect(await reasonOf(t.call(ops.moveSpace, { spaceId: s.id, parent: closed.id }, reader))).toBe('forbidden');
    await t.call(ops.updateSpaceById, { spaceId: s.id, defaultLevel: 'admin' }, admin);
    // Space admin now, but only `read` on the destination collection.
    expect(await failureOf(t.call(ops.moveSpace, { spaceId: s.id, parent: closed.id }, creator))).toMatchObject({
      reason: 'forbidden',
      message: expect.stringMatching(/create/),
    });
    expect((await t.call(ops.moveSpace, { spaceId: s.id, parent: closed.id }, admin)).parent).toBe(closed.id);
  });
});

describe('POST /spaces/{spaceId}/transfer', () => {
  const both = userActor('both', [
    { organization: 'org-src', role: 'admin' },
    { organization: 'org-dst', role: 'admin' },
  ]);
  it('moves a space and its content to another organization, with space.transferred', async () => {
    const col = await t.call(ops.createCollection, { organizationId: 'org-src', title: 'Source box' }, both);
    const space = await t.call(
      ops.createSpace,
      { organizationId: 'org-src', title: 'Traveller', parent: col.id },
      both,
    );
    await t.call(ops.updateSpaceById, { spaceId: space.id, visibility: 'in-collection' }, both);
    const moved = await t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-dst' }, both);
    expect(moved).toMatchObject({
      id: space.id,
      organization: 'org-dst',
      revision: space.revision,
      visibility: 'private',
      permissions: { admin: true },
    });
    expect(moved.parent).toBeUndefined();
    expect((await t.call(ops.listSpaces, { organizationId: 'org-dst' }, both)).items.map((s) => s.id)).toEqual([
      space.id,
    ]);
    expect((await t.call(ops.listSpaces, { organizationId: 'org-src' }, both)).items.map((s) => s.id)).not.toContain(
      space.id,
    );
    expect(await sql(`select id from content.revision where space_id = ?`, [space.id])).toHaveLength(1);
    expect(await eventsOf('space.transferred', 'space', space.id)).toEqual([
      { space: space.id, organization: 'org-dst', previousOrganization: 'org-src', title: 'Traveller' },
    ]);
  });

  it('needs the admin role in both organizations', async () => {
    const adminHereOnly = userActor('h', [
      { organization: 'org-src', role: 'admin' },
      { organization: 'org-dst', role: 'edit' },
    ]);
    const space = await t.call(ops.createSpace, { organizationId: 'org-src', title: 'Stays' }, both);
    expect(
      await failureOf(t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-dst' }, adminHereOnly)),
    ).toMatchObject({
      reason: 'forbidden',
      message: 'Transferring a space needs the admin role in the target organization',
    });
    expect(await reasonOf(t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-nowhere' }, both))).toBe(
      'forbidden',
    );
    expect(await reasonOf(t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-src' }, both))).toBe(
      'conflict',
    );
    expect(await reasonOf(t.call(ops.transferSpace, { spaceId: space.id, organization: 'org-dst' }, stranger))).toBe(
      'not_found',
    );
    expect((await t.call(ops.getSpaceById, { spaceId: space.id }, both)).organization).toBe('org-src');
  });
});

describe('GET /orgs/{organizationId}/members/{userId}/spaces', () => {
  const org = 'org-members';
  const boss = userActor('boss', [{ organization: org, role: 'admin' }]);
  const rita = userActor('rita', [{ organization: org, role: 'read' }]);

  it("lists a member's spaces with the member's role on each, paged and ordered", async () => {
    await t.call(ops.createSpace, { organizationId: org, title: 'Open' }, boss);
    const closed = await t.call(ops.createSpace, { organizationId: org, title: 'Closed' }, boss);
    const raised = await t.call(ops.createSpace, { organizationId: org, title: 'Raised' }, boss);
    await t.call(ops.updateSpaceById, { spaceId: closed.id, defaultLevel: null }, boss);
    await t.call(ops.updateSpaceById, { spaceId: raised.id, defaultLevel: 'edit' }, boss);
    // Rita asks about herself: her own memberships answer.
    const mine = await t.call(
      ops.listSpacesForOrganizationMember,
      { organizationId: org, userId: 'rita', order: 'asc' },
      rita,
    );
    expect(mine.items.map((i) => [i.space.title, i.permission])).toEqual([
      ['Open', 'read'],
      ['Raised', 'edit'],
    ]);
    expect(mine.items[1]!.space.permissions.edit).toBe(true);
    // The admin asks about Rita: the membership projection (from member.* events) answers.
    await t.svc.deps.bus.publish('org-admin.member.added', {
      id: `ev-${org}`,
      type: 'member.added',
      occurredAt: new Date().toISOString(),
      data: { organization: org, user: 'rita', role: 'read' },
    });
    const byAdmin = await eventually(async () => {
      const r = await t
        .call(ops.listSpacesForOrganizationMember, { organizationId: org, userId: 'rita' }, boss)
        .catch(() => undefined);
      return r;
    });
    expect(byAdmin.items.map((i) => i.space.title)).toEqual(['Raised', 'Open']);
    expect(byAdmin.items[0]!.space.permissions.admin).toBe(true);
    const paged = await t.call(
      ops.listSpacesForOrganizationMember,
      { organizationId: org, userId: 'rita', order: 'asc', limit: 1 },
      boss,
    );
    expect(paged).toMatchObject({
      count: 2,
      items: [{ space: { title: 'Open' } }],
      next: { page: expect.any(String) },
    });
    const all = await t.call(ops.listSpacesForOrganizationMember, { organizationId: org, userId: 'boss' }, boss);
    expect(all.items.map((i) => i.permission)).toEqual(['admin', 'admin', 'admin']);
  });

  it('is for the member themself or an admin; unknown members are 404', async () => {
    expect(
      await reasonOf(t.call(ops.listSpacesForOrganizationMember, { organizationId: org, userId: 'boss' }, rita)),
    ).toBe('forbidden');
    expect(
      await reasonOf(t.call(ops.listSpacesForOrganizationMember, { organizationId: org, userId: 'rita' }, stranger)),
    ).toBe('not_found');
    expect(
      (await failureOf(t.call(ops.listSpacesForOrganizationMember, { organizationId: org, userId: 'ghost' }, boss)))
        .message,
    ).toBe('Member not found');
  });
});
