import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { placeInTree } from './sibling-order.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'tree' });

/** The spaces of an organization in their stored order, with their order keys. */
const positions = async (org: string) =>
  (
    await t.svc.deps.orm.em
      .getConnection()
      .execute<{ title: string; ord: string }[]>(
        `select title, ord from content.space where organization_id = ? order by ord, id`,
        [org],
      )
  ).map((r) => [r.title, r.ord]);
const titles = async (org: string) => (await positions(org)).map(([title]) => title);

describe('sibling order', () => {
  it('appends after the last key, puts an item between its neighbours, and never renumbers the others', async () => {
    const org = 'tree-1';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    const x = await t.call(ops.createSpace, { organizationId: org, title: 'X' }, a);
    const y = await t.call(ops.createSpace, { organizationId: org, title: 'Y' }, a);
    expect(await positions(org)).toEqual([
      ['X', 'a0'],
      ['Y', 'a1'],
    ]);
    const z = await t.call(ops.createSpace, { organizationId: org, title: 'Z' }, a);
    await t.call(ops.moveSpace, { spaceId: z.id, position: { after: { type: 'space', space: x.id } } }, a);
    expect(await titles(org)).toEqual(['X', 'Z', 'Y']);
    const between = (await positions(org))[1]![1] as string;
    expect(between > 'a0' && between < 'a1').toBe(true);
    await t.call(ops.moveSpace, { spaceId: z.id, position: { before: { type: 'space', space: x.id } } }, a);
    expect(await positions(org)).toEqual([
      ['Z', 'Zz'],
      ['X', 'a0'],
      ['Y', 'a1'],
    ]);
    // Many moves into the same place keep the order right; only the moved item's key changes.
    for (let i = 0; i < 40; i++)
      await t.call(
        ops.moveSpace,
        { spaceId: (i % 2 ? z : y).id, position: { after: { type: 'space', space: x.id } } },
        a,
      );
    const final = await positions(org);
    expect(final.map(([title]) => title)).toEqual(['X', 'Z', 'Y']);
    expect(final[0]).toEqual(['X', 'a0']);
    expect(new Set(final.map(([, key]) => key)).size).toBe(3);
  });

  it('keeps the order of a deleted collection’s children where they go, after the parent’s own', async () => {
    const org = 'tree-3';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    await t.call(ops.createSpace, { organizationId: org, title: 'First' }, a);
    const col = await t.call(ops.createCollection, { organizationId: org, title: 'Col' }, a);
    for (const title of ['C1', 'C2', 'C3'])
      await t.call(ops.createSpace, { organizationId: org, title, parent: col.id }, a);
    await t.call(ops.deleteCollectionById, { collectionId: col.id }, a);
    expect(await titles(org)).toEqual(['First', 'C1', 'C2', 'C3']);
  });

  it('serializes concurrent placements in one parent (advisory lock): no two items share a position', async () => {
    const org = 'tree-2';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.call(ops.createSpace, { organizationId: org, title: `C${i}` }, a)),
    );
    const list = await positions(org);
    expect(list).toHaveLength(12);
    expect(new Set(list.map(([, p]) => p)).size).toBe(12);
  });

  it('appends after the last of spaces and collections alike, leaving out the item moved and trashed spaces', async () => {
    const org = 'tree-4';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    await t.call(ops.createSpace, { organizationId: org, title: 'S1' }, a);
    const col = await t.call(ops.createCollection, { organizationId: org, title: 'Col' }, a);
    const last = await t.call(ops.createSpace, { organizationId: org, title: 'Last' }, a);
    await t.call(ops.deleteSpaceById, { spaceId: last.id }, a);
    const em = t.svc.deps.orm.em.fork();
    await em.transactional(async (tx) => {
      // After the collection (a1): the trashed space's key (a2) is not a sibling's.
      expect(await placeInTree(tx, { organizationId: org, parentId: null })).toBe('a2');
      // The collection moved last: after the space before it, not after itself.
      expect(
        await placeInTree(tx, { organizationId: org, parentId: null, item: { kind: 'collection', id: col.id } }),
      ).toBe('a1');
      expect(await placeInTree(tx, { organizationId: org, parentId: col.id })).toBe('a0');
    });
  });

  it('places at the end of an empty parent and refuses pointers outside the group', async () => {
    const em = t.svc.deps.orm.em.fork();
    await em.transactional(async (tx) => {
      expect(await placeInTree(tx, { organizationId: 'tree-empty', parentId: null })).toBe('a0');
      expect(
        (
          await failureOf(
            placeInTree(tx, {
              organizationId: 'tree-empty',
              parentId: null,
              position: { after: { type: 'collection', collection: 'c' } },
            }),
          )
        ).message,
      ).toBe('position.after: collection c is not in the destination (the top level)');
    });
  });
});
