import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { failureOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { placeInTree, POSITION_GAP } from './sibling-order.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'tree' });

const positions = async (org: string) =>
  (
    await t.svc.deps.orm.em
      .getConnection()
      .execute<{ title: string; position: string }[]>(
        `select title, position from content.space where organization_id = ? order by position, id`,
        [org],
      )
  ).map((r) => [r.title, Number(r.position)]);

describe('sibling order', () => {
  it('appends with gaps, takes midpoints, and renumbers a group whose gap is used up', async () => {
    const org = 'tree-1';
    const a = userActor('a', [{ organization: org, role: 'admin' }]);
    const x = await t.call(ops.createSpace, { organizationId: org, title: 'X' }, a);
    const y = await t.call(ops.createSpace, { organizationId: org, title: 'Y' }, a);
    expect(await positions(org)).toEqual([
      ['X', POSITION_GAP],
      ['Y', 2 * POSITION_GAP],
    ]);
    const z = await t.call(ops.createSpace, { organizationId: org, title: 'Z' }, a);
    await t.call(ops.moveSpace, { spaceId: z.id, position: { after: { type: 'space', space: x.id } } }, a);
    expect(await positions(org)).toEqual([
      ['X', POSITION_GAP],
      ['Z', 1.5 * POSITION_GAP],
      ['Y', 2 * POSITION_GAP],
    ]);
    await t.call(ops.moveSpace, { spaceId: z.id, position: { before: { type: 'space', space: x.id } } }, a);
    expect((await positions(org))[0]).toEqual(['Z', 0]);
    // Neighbours with no room between them: the group is renumbered GAP, 2·GAP… and the item goes between.
    await t.svc.deps.orm.em
      .getConnection()
      .execute(
        `update content.space set position = case title when 'X' then 1 when 'Y' then 2 else 3 end where organization_id = ?`,
        [org],
      );
    await t.call(ops.moveSpace, { spaceId: z.id, position: { after: { type: 'space', space: x.id } } }, a);
    expect(await positions(org)).toEqual([
      ['X', POSITION_GAP],
      ['Z', 1.5 * POSITION_GAP],
      ['Y', 2 * POSITION_GAP],
    ]);
    // Many moves into the same gap keep the order right.
    for (let i = 0; i < 20; i++)
      await t.call(
        ops.moveSpace,
        { spaceId: (i % 2 ? z : y).id, position: { after: { type: 'space', space: x.id } } },
        a,
      );
    const final = await positions(org);
    expect(final.map(([title]) => title)).toEqual(['X', 'Z', 'Y']);
    expect(new Set(final.map(([, p]) => p)).size).toBe(3);
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

  it('places at the end of an empty parent and refuses pointers outside the group', async () => {
    const em = t.svc.deps.orm.em.fork();
    await em.transactional(async (tx) => {
      expect(await placeInTree(tx, { organizationId: 'tree-empty', parentId: null })).toBe(POSITION_GAP);
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
