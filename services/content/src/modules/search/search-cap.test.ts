import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { sql } from '@quire/kit';
import { eventually, orgAdmin, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { contentService } from '../../service.ts';
import { indexedRevision, insertPage, mergeChanges } from './search.fixtures.ts';

// The smallest cap the setting takes.
const CAP = 10;
const t = useTestService(contentService, (env) => loadContentConfig({ ...env, QUIRE_SEARCH_CANDIDATES: String(CAP) }), {
  label: 'search-cap',
});

const ORG = 'org-search-cap';
const admin = orgAdmin(ORG);

describe('QUIRE_SEARCH_CANDIDATES', () => {
  it('ranks at most that many pages, those whose title matches first, and pages through them', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Capped' }, admin);
    const revision = await mergeChanges(
      t,
      space.id,
      [
        // Twelve pages mention the word in their text (each a different number of times), three in their title only;
        // the title matches come last in the index's order.
        ...Array.from({ length: 12 }, (_, i) => insertPage(`Text ${i}`, `Notes ${'walrus '.repeat(i + 1)}here.`)),
        ...Array.from({ length: 3 }, (_, i) => insertPage(`Walrus ${i}`, 'Nothing else.')),
      ],
      admin,
    );
    await eventually(
      async () => (await indexedRevision(t, space.id)) === revision,
      5_000,
      'the index to reach the merge',
    );

    const search = (extra: { limit?: number; page?: string } = {}) =>
      t.call(ops.searchSpaceContent, { spaceId: space.id, query: 'walrus', ...extra }, admin);
    const all = await search();
    // Fifteen pages match; ten are ranked and counted: the three title matches, then seven of the text matches.
    expect(all.count).toBe(CAP);
    expect(all.items.map((i) => i.rank)).toEqual(Array.from({ length: CAP }, (_, i) => i + 1));
    expect(all.items.slice(0, 3).map((i) => [i.title.replace(/\d/, 'n'), i.resultType])).toEqual([
      ['Walrus n', 'page'],
      ['Walrus n', 'page'],
      ['Walrus n', 'page'],
    ]);
    expect(all.items.slice(3).every((i) => i.title.startsWith('Text ') && i.resultType === 'section')).toBe(true);
    // Ranked by score among the candidates: more mentions first.
    const scores = all.items.map((i) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // Paged, the same ten in the same order, the count the same on every page.
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await search({ limit: 4, ...(page ? { page } : {}) });
      expect(res.count).toBe(CAP);
      seen.push(...res.items.map((i) => i.id));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((i) => i.id));
  });

  it('a large index change leaves the space partition with planner statistics (autovacuum may be off)', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Analyzed' }, admin);
    const revision = await mergeChanges(
      t,
      space.id,
      Array.from({ length: 40 }, (_, i) => insertPage(`Page ${i}`, `Text ${i}.`)),
      admin,
    );
    await eventually(
      async () => (await indexedRevision(t, space.id)) === revision,
      5_000,
      'the index to reach the merge',
    );
    const [part] = await sql<{ reltuples: number; analyzed: string | null }>(
      t.em(),
      `select c.reltuples, (select last_analyze::text from pg_stat_user_tables s where s.relid = c.oid) as analyzed
         from pg_class c where c.oid = (select p.tableoid from :schema.search_page p where p.space_id = ? limit 1)`,
      [space.id],
    );
    // The partition has statistics (never analyzed: -1, no last_analyze). The other spaces of this file may share it
    // (partitions are by space id), and when one of them had it analyzed already, 40 pages are not a tenth of it
    // or 100 rows: then they are counted since that analysis, not now.
    expect(Number(part!.reltuples)).toBeGreaterThan(0);
    expect(part!.analyzed).not.toBeNull();
    // The documents and sections shared by every space too (the results' sections are looked up there): analyzed at
    // least once (never analyzed: -1; later only when a tenth of them or more was written, at least 100).
    for (const table of ['search_document', 'search_section']) {
      const [shared] = await sql<{ reltuples: number }>(
        t.em(),
        'select c.reltuples from pg_class c where c.oid = to_regclass(?)',
        [`"${t.em().config.get('schema')}".${table}`],
      );
      expect(Number(shared!.reltuples), table).toBeGreaterThan(0);
    }
  });
});
