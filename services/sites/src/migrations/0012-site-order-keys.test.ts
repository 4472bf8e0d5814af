import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareOrderKeys, createOrm, migrate, orderKeyBetween, sql, sqlRun, type Orm } from '@quire/kit';
import { createTestDatabase, type TestDatabase } from '@quire/kit/testing';
import { migrations } from './index.ts';

const NAME = '0012_site_order_keys';
const at = migrations.findIndex((m) => m.name === NAME);

describe('migration 0012: site sections, section groups and site spaces ordered by keys', () => {
  let db: TestDatabase;
  const orms: Orm[] = [];
  const open = async (list: typeof migrations) => {
    const orm = await createOrm({ url: db.url, schema: 'sites', entities: [], migrations: list });
    orms.push(orm);
    return orm;
  };
  beforeAll(async () => {
    db = await createTestDatabase('site-order-keys');
  });
  afterAll(async () => {
    for (const orm of orms) await orm.close();
    await db?.drop();
  });

  it('keeps each level’s order (sections and groups together; site spaces per section) as valid keys', async () => {
    const before = await open(migrations.slice(0, at));
    await migrate(before);
    const em = before.em.fork();
    const now = new Date();
    for (const site of ['s1', 's2'])
      await sqlRun(
        em,
        `insert into :schema.site (id, organization_id, type, title, basename, visibility, created_at, updated_at)
         values (?, 'o1', 'basic', ?, ?, 'public', ?, ?)`,
        [site, site, site, now, now],
      );
    const group = (id: string, site: string, parent: string | null, position: number) =>
      sqlRun(
        em,
        `insert into :schema.site_section_group (id, site_id, parent_id, title, position, created_at)
         values (?, ?, ?, ?, ?, ?)`,
        [id, site, parent, id, position, now],
      );
    const section = (id: string, site: string, group: string | null, position: number) =>
      sqlRun(
        em,
        `insert into :schema.site_section (id, site_id, title, path, section_group_id, position, created_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
        [id, site, id, id, group, position, now],
      );
    const siteSpace = (id: string, site: string, sec: string | null, position: number) =>
      sqlRun(
        em,
        `insert into :schema.site_space (id, site_id, section_id, space_id, path, position, created_at)
         values (?, ?, ?, 'sp', ?, ?, ?)`,
        [id, site, sec, id, position, now],
      );
    // s1's root: section z-first at 1, group g at 2, section a-last at 3 (ids against their order); in g: 70 sections.
    await section('z-first', 's1', null, 1);
    await group('g', 's1', null, 2);
    await section('a-last', 's1', null, 3);
    for (let i = 0; i < 70; i++) await section(`in-${String(i).padStart(2, '0')}`, 's1', 'g', 1000 - i);
    // s2's root: two sections at one position (ties by id), then a group; site spaces of a section and of the root.
    await section('b', 's2', null, 5);
    await section('a', 's2', null, 5);
    await group('h', 's2', null, 9);
    for (let i = 0; i < 65; i++) await siteSpace(`ss-${String(i).padStart(2, '0')}`, 's2', 'a', 100 - i);
    await siteSpace('root-2', 's2', null, 7);
    await siteSpace('root-1', 's2', null, 3);

    const after = await open(migrations.slice(0, at + 1));
    expect(await migrate(after)).toEqual([NAME]);
    const navItems = (site: string, level: string | null) =>
      sql<{ id: string; ord: string }>(
        after.em.fork(),
        `select id, ord from (select id, ord, site_id, section_group_id as level from :schema.site_section
           union all select id, ord, site_id, parent_id from :schema.site_section_group) t
         where site_id = ? and level is not distinct from ? order by ord, id`,
        [site, level],
      );
    const siteSpaces = (site: string, sec: string | null) =>
      sql<{ id: string; ord: string }>(
        after.em.fork(),
        `select id, ord from :schema.site_space where site_id = ? and section_id is not distinct from ? order by ord, id`,
        [site, sec],
      );
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(await navItems('s1', null))).toEqual(['z-first', 'g', 'a-last']);
    const inG = await navItems('s1', 'g');
    expect(ids(inG)).toEqual(Array.from({ length: 70 }, (_, i) => `in-${String(69 - i).padStart(2, '0')}`));
    expect(ids(await navItems('s2', null))).toEqual(['a', 'b', 'h']);
    const inA = await siteSpaces('s2', 'a');
    expect(ids(inA)).toEqual(Array.from({ length: 65 }, (_, i) => `ss-${String(64 - i).padStart(2, '0')}`));
    expect(await siteSpaces('s2', null)).toEqual([
      { id: 'root-1', ord: 'a0' },
      { id: 'root-2', ord: 'a1' },
    ]);
    // Byte order is the stored order, and every key is one the kit can place another after or between.
    for (const keys of [inG.map((r) => r.ord), inA.map((r) => r.ord)]) {
      expect([...keys].sort(compareOrderKeys)).toEqual(keys);
      expect(new Set(keys).size).toBe(keys.length);
      for (const i of [0, 61, 62, keys.length - 2])
        if (keys[i + 1]) expect(orderKeyBetween(keys[i], keys[i + 1]) > keys[i]!).toBe(true);
      expect(orderKeyBetween(keys.at(-1), null) > keys.at(-1)!).toBe(true);
    }
  });
});
