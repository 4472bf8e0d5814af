import { describe, expect, it } from 'vitest';
import { compareOrderKeys, migrate, orderKeyBetween, sql, sqlRun } from '@quire/kit';
import { useMigrationTest } from '@quire/kit/testing';
import { migrations } from './index.ts';

const NAME = '0017_tree_order_keys';

describe('migration 0017: spaces and collections ordered by keys', () => {
  const t = useMigrationTest('tree-order-keys', 'content', migrations, NAME);

  it('keeps each parent’s order (spaces and collections together) as valid keys, past 62 and 3,844 items', async () => {
    const before = await t.before();
    const em = before.em.fork();
    const now = new Date();
    // In o1's top level: collection C at 2, spaces at 1 and 3 (ids against their order); in C: 70 spaces.
    await sqlRun(
      em,
      `insert into :schema.collection (id, organization_id, parent_id, position, title, created_at, updated_at)
       values ('c', 'o1', null, 2, 'C', ?, ?)`,
      [now, now],
    );
    const space = (id: string, parent: string | null, position: number, org = 'o1') =>
      sqlRun(
        em,
        `insert into :schema.space (id, organization_id, parent_id, position, title, visibility, revision_id, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'private', 'r1', ?, ?)`,
        [id, org, parent, position, id, now, now],
      );
    await space('z-first', null, 1);
    await space('a-last', null, 3);
    for (let i = 0; i < 70; i++) await space(`in-${String(i).padStart(2, '0')}`, 'c', 1000 - i);
    await sqlRun(
      em,
      `insert into :schema.space (id, organization_id, parent_id, position, title, visibility, revision_id, created_at, updated_at)
       select 'big-' || g, 'o2', null, g, 'big', 'private', 'r1', now(), now() from generate_series(1, 3900) g`,
    );

    const after = await t.after();
    expect(await migrate(after)).toEqual([NAME]);
    const ordered = (org: string, parent: string | null) =>
      sql<{ id: string; ord: string }>(
        after.em.fork(),
        `select id, ord from (select id, ord, organization_id, parent_id from :schema.space
           union all select id, ord, organization_id, parent_id from :schema.collection) t
         where organization_id = ? and parent_id is not distinct from ? order by ord, id`,
        [org, parent],
      );
    expect((await ordered('o1', null)).map((r) => r.id)).toEqual(['z-first', 'c', 'a-last']);
    const inC = await ordered('o1', 'c');
    expect(inC.map((r) => r.id)).toEqual(Array.from({ length: 70 }, (_, i) => `in-${String(69 - i).padStart(2, '0')}`));
    const big = (await ordered('o2', null)).map((r) => r.ord);
    expect(big).toHaveLength(3900);
    // Byte order is the stored order, and every key is one the kit can place another after or between.
    for (const keys of [inC.map((r) => r.ord), big]) {
      expect([...keys].sort(compareOrderKeys)).toEqual(keys);
      expect(new Set(keys).size).toBe(keys.length);
      for (const i of [0, 61, 62, keys.length - 2])
        if (keys[i + 1]) expect(orderKeyBetween(keys[i], keys[i + 1]) > keys[i]!).toBe(true);
      expect(orderKeyBetween(keys.at(-1), null) > keys.at(-1)!).toBe(true);
    }
  });
});
