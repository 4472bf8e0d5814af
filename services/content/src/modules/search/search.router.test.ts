import { describe, expect, it } from 'vitest';
import { ops, type Actor, type ContentChange } from '@quire/contracts';
import { sql } from '@quire/kit';
import { eventually, failureOf, orgAdmin, reasonOf, userActor, useTestService } from '@quire/kit/testing';
import { loadContentConfig } from '../../env.ts';
import { purgeDeletedSpaces } from '../../jobs/purge-deleted-spaces.job.ts';
import { runSearchIndex } from '../../jobs/search-index.job.ts';
import { contentService } from '../../service.ts';
import { editContent } from '../change-requests/content-edit.fixtures.ts';
import { indexedRevision, insertPage, mergeChanges } from './search.fixtures.ts';

const t = useTestService(contentService, loadContentConfig, { label: 'search' });

const ORG = 'org-search';
const admin = orgAdmin(ORG);
const reader = userActor('reader', [{ organization: ORG, role: 'read' }]);
const guest = userActor('guest', [{ organization: ORG, role: null }]);
const stranger = orgAdmin('org-other');

/** Applies changes through a merged change request; resolves once the search index has the new revision. */
async function merge(spaceId: string, changes: ContentChange[], as: Actor = admin): Promise<string> {
  const revision = await mergeChanges(t, spaceId, changes, as);
  await eventually(async () => (await indexedRevision(t, spaceId)) === revision, 5_000, 'the index to reach the merge');
  return revision;
}
const insert = insertPage;
const rows = <T>(text: string, params: unknown[] = []) => sql<T>(t.em(), text, params);
const titles = (res: { items: { title: string }[] }) => res.items.map((i) => i.title);
const search = (spaceId: string, query: string, as: Actor = admin, extra: { page?: string; limit?: number } = {}) =>
  t.call(ops.searchSpaceContent, { spaceId, query, ...extra }, as);

describe('space search', () => {
  it('finds a merged page by a stemmed word, with its matching sections and their excerpts', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Handbook' }, admin);
    const revision = await mergeChanges(
      t,
      space.id,
      [
        insert(
          'Getting started',
          'Welcome to the handbook.\n\n## Configuring the server\n\nThe server reads its settings at start.\n\n## Backups\n\nNightly copies of the data.\n',
        ),
        insert('Unrelated', 'Nothing to see here.'),
      ],
      admin,
    );
    // Merged, then relayed, consumed and indexed within a second.
    const merged = Date.now();
    await eventually(
      async () => (await indexedRevision(t, space.id)) === revision,
      1_000,
      'the index to reach the merge',
    );
    expect(Date.now() - merged).toBeLessThan(1_000);

    const res = await search(space.id, 'configured');
    expect(res.count).toBe(1);
    expect(res.next).toBeUndefined();
    const [hit] = res.items;
    expect(hit).toMatchObject({
      title: 'Getting started',
      path: 'getting-started',
      description: '',
      rank: 1,
      resultType: 'section',
      ancestors: [],
    });
    expect(hit!.urls.app).toBe(`http://quire.test/o/${ORG}/s/${space.id}/getting-started`);
    expect(hit!.score).toBeGreaterThan(0);
    expect(hit!.sections).toEqual([
      {
        id: 'configuring-the-server',
        title: 'Configuring the server',
        path: 'getting-started#configuring-the-server',
        score: expect.any(Number),
        body: 'The server reads its settings at start.',
        urls: { app: `http://quire.test/o/${ORG}/s/${space.id}/getting-started#configuring-the-server` },
      },
    ]);
    // The text before the first heading is a section of its own, titled like the page.
    expect((await search(space.id, 'welcome')).items[0]!.sections).toEqual([
      expect.objectContaining({
        id: hit!.id,
        title: 'Getting started',
        path: 'getting-started',
        body: 'Welcome to the handbook.',
      }),
    ]);
    expect((await search(space.id, 'nothing at all zebra')).items).toEqual([]);
    // Only stop words: nothing to search.
    expect(await search(space.id, 'the and')).toEqual({ count: 0, items: [] });
    expect(await search(space.id, '')).toEqual({ count: 0, items: [] });
  });

  it('shows the passage of a long section around the words found', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Long' }, admin);
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => ['amber', 'basil', 'cedar', 'delta', 'ember'][i % 5]).join(' ');
    // About 6,000 characters before the word, and more after it.
    await merge(space.id, [
      insert('Logbook', `## Sightings\n\n${filler(1_000)}. The narwhals surfaced near the ice. ${filler(300)}.\n`),
    ]);
    const [hit] = (await search(space.id, 'narwhal')).items;
    const [section] = hit!.sections;
    expect(section).toMatchObject({ id: 'sightings', title: 'Sightings' });
    expect(section!.body).toContain('narwhals surfaced near the ice.');
    expect(section!.body.split(/\s+/).length).toBeLessThanOrEqual(35);
  });

  it('ranks a title match above body matches, and headings above text', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Ranking' }, admin);
    await merge(space.id, [
      insert('Mentions', 'Deploy here, deploy there, deploy everywhere: we deploy a lot and deployments are many.'),
      insert('Deployment', 'How it goes out.'),
      insert('Heading', '## Deploying\n\nSteps.'),
    ]);
    const res = await search(space.id, 'deploy');
    expect(titles(res)).toEqual(['Deployment', 'Heading', 'Mentions']);
    expect(res.items.map((i) => i.resultType)).toEqual(['page', 'section', 'section']);
    expect(res.items.map((i) => i.rank)).toEqual([1, 2, 3]);
    expect(res.items[0]!.sections).toEqual([]);
  });

  it('understands quotes, -word, or, and takes the last word as a prefix', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Syntax' }, admin);
    await merge(space.id, [
      insert('Foxes', 'The quick brown fox jumps.'),
      insert('Dogs', 'A brown dog sleeps, quick to wake.'),
      insert('Cats', 'Cats ignore everything.'),
      insert('Configuration', 'All the settings.'),
    ]);
    expect(titles(await search(space.id, '"quick brown"'))).toEqual(['Foxes']);
    expect(titles(await search(space.id, 'brown -fox')).sort()).toEqual(['Dogs']);
    expect(titles(await search(space.id, 'fox or cat')).sort()).toEqual(['Cats', 'Foxes']);
    expect(titles(await search(space.id, 'config'))).toEqual(['Configuration']);
    expect(titles(await search(space.id, 'the configu'))).toEqual(['Configuration']);
    // The prefix is one of stems: `sett` is no prefix of `set` (settings).
    expect(titles(await search(space.id, 'sett'))).toEqual([]);
    // Not a prefix inside a phrase or an exclusion.
    expect(titles(await search(space.id, '"config"'))).toEqual([]);
  });

  it('pages through the ranked results, each once, and refuses a bad cursor', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Paging' }, admin);
    await merge(
      space.id,
      Array.from({ length: 7 }, (_, i) => insert(`Page ${i}`, `Shared word paging${' paging'.repeat(i)}.`)),
    );
    const all = await search(space.id, 'paging');
    expect(all.count).toBe(7);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await search(space.id, 'paging', admin, { limit: 3, ...(page ? { page } : {}) });
      expect(res.count).toBe(7);
      seen.push(...res.items.map((i) => i.id));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(all.items.map((i) => i.id));
    expect(await search(space.id, 'paging', admin, { limit: 0 })).toEqual({ count: 7, items: [] });
    expect(await reasonOf(search(space.id, 'paging', admin, { page: 'bm9wZQ' }))).toBe('invalid_input');
  });

  it('refuses a query over 512 characters', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Limits' }, admin);
    expect((await failureOf(search(space.id, 'x'.repeat(513)))).message).toMatch(/query/);
    expect((await search(space.id, 'x'.repeat(512))).count).toBe(0);
  });

  it('answers readers, hides the space from others and from everyone once deleted', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Private' }, admin);
    await merge(space.id, [insert('Secret plans', 'The secret.')]);
    expect(titles(await search(space.id, 'secret', reader))).toEqual(['Secret plans']);
    expect(await reasonOf(search(space.id, 'secret', stranger))).toBe('not_found');
    expect(await reasonOf(search(space.id, 'secret', guest))).toBe('not_found');
    await t.call(ops.deleteSpaceById, { spaceId: space.id }, admin);
    expect(await reasonOf(search(space.id, 'secret'))).toBe('not_found');
    expect(
      titles(await t.call(ops.searchOrganizationContent, { organizationId: ORG, query: 'secret' }, admin)),
    ).not.toContain('Private');
    // Restored, it is found again; purged, its index goes with it.
    await t.call(ops.restoreSpace, { spaceId: space.id }, admin);
    expect(titles(await search(space.id, 'secret'))).toEqual(['Secret plans']);
    await t.call(ops.deleteSpaceById, { spaceId: space.id }, admin);
    await purgeDeletedSpaces(t.em(), new Date(Date.now() + 8 * 24 * 3_600_000));
    expect(
      await rows(
        `select 1 from :schema.search_page where space_id = ? union all select 1 from :schema.search_space where space_id = ?`,
        [space.id, space.id],
      ),
    ).toEqual([]);
  });
});

describe('organization search', () => {
  it('groups the ranked pages by space and leaves out the spaces the caller cannot read', async () => {
    const org = 'org-grouped';
    const boss = orgAdmin(org);
    const member = userActor('member', [{ organization: org, role: 'read' }]);
    const open = await t.call(ops.createSpace, { organizationId: org, title: 'Open' }, boss);
    const closed = await t.call(ops.createSpace, { organizationId: org, title: 'Closed' }, boss);
    await t.call(ops.updateSpaceById, { spaceId: closed.id, defaultLevel: null }, boss);
    await merge(
      open.id,
      [
        insert('Release notes', 'What changed in the release.', { description: 'Notes of each release' }),
        insert('Other', 'The next release.'),
      ],
      boss,
    );
    await merge(closed.id, [insert('Release plan', 'The private release plan.')], boss);

    // Ranked together (title and description, title, text), grouped by space in the order of their best page.
    const all = await t.call(ops.searchOrganizationContent, { organizationId: org, query: 'release' }, boss);
    expect(all.count).toBe(3);
    expect(all.items.map((s) => [s.type, s.title, s.pages.map((p) => [p.title, p.rank])])).toEqual([
      [
        'space',
        'Open',
        [
          ['Release notes', 1],
          ['Other', 3],
        ],
      ],
      ['space', 'Closed', [['Release plan', 2]]],
    ]);
    expect(all.items[0]!.score).toBe(all.items[0]!.pages[0]!.score);

    const mine = await t.call(ops.searchOrganizationContent, { organizationId: org, query: 'release' }, member);
    expect(mine.count).toBe(2);
    expect(mine.items.map((s) => [s.title, s.pages.map((p) => p.title)])).toEqual([
      ['Open', ['Release notes', 'Other']],
    ]);
    // Paged over the ranked pages, grouped within each page of results.
    const first = await t.call(
      ops.searchOrganizationContent,
      { organizationId: org, query: 'release', limit: 1 },
      boss,
    );
    expect(first.items.map((s) => [s.title, s.pages.map((p) => p.rank)])).toEqual([['Open', [1]]]);
    const second = await t.call(
      ops.searchOrganizationContent,
      { organizationId: org, query: 'release', limit: 2, page: first.next!.page },
      boss,
    );
    expect(second.items.map((s) => [s.title, s.pages.map((p) => p.rank)])).toEqual([
      ['Closed', [2]],
      ['Open', [3]],
    ]);
    expect(second.next).toBeUndefined();

    expect(
      await t.call(
        ops.searchOrganizationContent,
        { organizationId: org, query: 'release' },
        userActor('g', [{ organization: org, role: null }]),
      ),
    ).toEqual({ count: 0, items: [] });
    expect(
      await reasonOf(t.call(ops.searchOrganizationContent, { organizationId: org, query: 'release' }, stranger)),
    ).toBe('not_found');
  });
});

describe('reusable contents', () => {
  const ORG_RC = 'org-search-reusable';
  const boss = orgAdmin(ORG_RC);
  const sites: Actor = { kind: 'service', service: 'sites' };
  /** Edits a change request (a new one when `crId` is undefined) as the organization's admin. */
  const edit = (spaceId: string, crId: string | undefined, changes: ContentChange[]) =>
    editContent(t, spaceId, crId, changes, 'admin-of-org-search-reusable');
  /** Merges a change request; resolves once the index has the merged revision. */
  async function mergeIndexed(spaceId: string, crId: string): Promise<void> {
    const { revision } = await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: crId }, boss);
    await eventually(
      async () => (await indexedRevision(t, spaceId)) === revision,
      5_000,
      'the index to reach the merge',
    );
  }
  const found = async (spaceId: string, query: string) => {
    const space = await t.call(ops.searchSpaceContent, { spaceId, query }, boss);
    const org = await t.call(ops.searchOrganizationContent, { organizationId: ORG_RC, query }, boss);
    const published = await t.call(ops.searchPublishedContent, { spaceIds: [spaceId], query, limit: 10 }, sites);
    return {
      space: space.items.map((p) => [p.title, p.sections.map((s) => s.body)]),
      org: org.items.flatMap((s) => s.pages.map((p) => p.title)),
      published: published.items.map((i) => i.page.title),
    };
  };

  it('finds a page by the words of a reusable content it includes, and again after the reusable content changes', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG_RC, title: 'Runbook' }, boss);
    const cr = await edit(space.id, undefined, [
      {
        operation: 'insert_reusable_content',
        title: 'Backup note',
        document: { markdown: '## Backups\n\nCopy the zeppelin archive before you upgrade.\n' },
      },
    ]);
    const { reusableContents } = await t.call(
      ops.getRevisionOfChangeRequestById,
      { spaceId: space.id, changeRequestId: cr.id },
      boss,
    );
    const note = reusableContents[0]!.id;
    await edit(space.id, cr.id, [
      insert('Upgrade', `Read this first.\n\n{% include "${note}" %}\n\nThen upgrade.\n`),
      insert('Elsewhere', 'Nothing about archives here.'),
    ]);
    await mergeIndexed(space.id, cr.id);

    // The page's own words and the included ones, as the page shows them: the included heading opens a section of
    // the page (with its anchor) that runs on to the page's next heading.
    expect(await found(space.id, 'zeppelin')).toEqual({
      space: [['Upgrade', ['Copy the zeppelin archive before you upgrade.\nThen upgrade.']]],
      org: ['Upgrade'],
      published: ['Upgrade'],
    });
    const [hit] = (await t.call(ops.searchSpaceContent, { spaceId: space.id, query: 'zeppelin' }, boss)).items;
    expect(hit!.sections.map((s) => s.path)).toEqual(['upgrade#backups']);
    expect((await found(space.id, 'first')).space.map(([title]) => title)).toEqual(['Upgrade']);

    // Edited in a change request and merged: the page is found by the new words only.
    const second = await edit(space.id, undefined, [
      {
        operation: 'update_reusable_content',
        reusableContent: note,
        document: { markdown: '## Backups\n\nCopy the quokka archive before you upgrade.\n' },
      },
    ]);
    await mergeIndexed(space.id, second.id);
    expect(await found(space.id, 'quokka')).toEqual({
      space: [['Upgrade', ['Copy the quokka archive before you upgrade.\nThen upgrade.']]],
      org: ['Upgrade'],
      published: ['Upgrade'],
    });
    expect(await found(space.id, 'zeppelin')).toEqual({ space: [], org: [], published: [] });

    // Deleted: the page includes nothing any more, and is found by its own words only.
    const third = await edit(space.id, undefined, [{ operation: 'delete_reusable_content', reusableContent: note }]);
    await mergeIndexed(space.id, third.id);
    expect(await found(space.id, 'quokka')).toEqual({ space: [], org: [], published: [] });
    expect((await found(space.id, 'first')).space.map(([title]) => title)).toEqual(['Upgrade']);
  });
});

describe('the index', () => {
  it('rewrites only the pages a merge changed, and indexes a document once whatever the pages sharing it', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Incremental' }, admin);
    await merge(space.id, [
      insert('Alpha', 'First body.'),
      insert('Beta', 'Second body.', { ref: 'beta' }),
      insert('Gamma', 'Third body.'),
    ]);
    const pages = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages;
    const versions = async () =>
      new Map(
        (
          await rows<{ page_id: string; xmin: string }>(
            `select page_id, xmin::text from :schema.search_page where space_id = ?`,
            [space.id],
          )
        ).map((r) => [r.page_id, r.xmin]),
      );
    const before = await versions();
    const beta = pages.find((p) => p.title === 'Beta')!;
    await merge(space.id, [
      { operation: 'update_page', page: beta.id, document: { markdown: 'Second body, rewritten with kangaroos.' } },
    ]);
    const after = await versions();
    for (const p of pages) expect(after.get(p.id) === before.get(p.id), p.title).toBe(p.title !== 'Beta');
    expect(titles(await search(space.id, 'kangaroo'))).toEqual(['Beta']);

    // A renamed parent rewrites its children (their ancestors changed).
    await merge(space.id, [insert('Child', 'Nested text about wombats.', { into: beta.id })]);
    await merge(space.id, [{ operation: 'update_page', page: beta.id, title: 'Beta renamed' }]);
    expect((await search(space.id, 'wombat')).items[0]).toMatchObject({
      title: 'Child',
      ancestors: [{ title: 'Beta renamed' }],
    });

    // A duplicate shares the documents: the index has its pages, not new documents.
    const documents = async () =>
      Number((await rows<{ n: string }>(`select count(*) as n from :schema.search_document`))[0]!.n);
    const known = await documents();
    const copy = await t.call(ops.duplicateSpace, { spaceId: space.id }, admin);
    await eventually(async () => (await indexedRevision(t, copy.id)) === copy.revision, 5_000, 'the copy indexed');
    expect(await documents()).toBe(known);
    expect(titles(await search(copy.id, 'kangaroo'))).toEqual(['Beta renamed']);

    // A deleted page leaves the index.
    await merge(space.id, [{ operation: 'delete_page', page: beta.id }]);
    expect((await search(space.id, 'kangaroo')).items).toEqual([]);
    expect((await search(space.id, 'wombat')).items).toEqual([]);
  });

  it('indexes spaces that existed before search (the job), and drops documents no page uses', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Backfill' }, admin);
    await merge(space.id, [insert('Old page', 'Written before the index existed: platypus.')]);
    await rows(`delete from :schema.search_space where space_id = ?`, [space.id]);
    await rows(`delete from :schema.search_page where space_id = ?`, [space.id]);
    expect((await search(space.id, 'platypus')).items).toEqual([]);
    const run = await runSearchIndex({ em: t.em(), config: 'english' });
    expect(run.spaces).toContain(space.id);
    expect(titles(await search(space.id, 'platypus'))).toEqual(['Old page']);
    expect((await runSearchIndex({ em: t.em(), config: 'english' })).spaces).toEqual([]);

    // The page's first document is no longer used: dropped once a day has passed.
    const page = (await t.call(ops.listPages, { spaceId: space.id }, admin)).pages[0]!;
    const old = (
      await rows<{ document_hash: string }>(`select document_hash from :schema.search_page where page_id = ?`, [
        page.id,
      ])
    )[0]!.document_hash;
    await merge(space.id, [{ operation: 'update_page', page: page.id, document: { markdown: 'Rewritten: echidna.' } }]);
    expect((await runSearchIndex({ em: t.em(), config: 'english' })).dropped).toBe(0);
    const later = new Date(Date.now() + 2 * 24 * 3_600_000);
    expect((await runSearchIndex({ em: t.em(), config: 'english' }, later)).dropped).toBeGreaterThanOrEqual(1);
    expect(await rows(`select 1 from :schema.search_document where hash = ?`, [old])).toEqual([]);
    expect(await rows(`select 1 from :schema.search_section where document_hash = ?`, [old])).toEqual([]);
    expect(titles(await search(space.id, 'echidna'))).toEqual(['Old page']);
  });

  it('re-makes the index for another text search configuration, and refuses one PostgreSQL lacks', async () => {
    const space = await t.call(ops.createSpace, { organizationId: ORG, title: 'Configs' }, admin);
    await merge(space.id, [insert('Stems', 'Running runners ran.')]);
    const lexemes = async () =>
      (
        await rows<{ tsv: string }>(`select tsv::text as tsv from :schema.search_page where space_id = ?`, [space.id])
      )[0]!.tsv;
    expect(await lexemes()).toContain("'run'");
    expect((await runSearchIndex({ em: t.em(), config: 'simple' })).reconfigured).toBe(true);
    expect(await lexemes()).toContain("'running'");
    expect(
      (await rows<{ config: string }>(`select distinct config from :schema.search_document`)).map((r) => r.config),
    ).toEqual(['simple']);
    expect((await runSearchIndex({ em: t.em(), config: 'english' })).reconfigured).toBe(true);
    expect(await lexemes()).toContain("'run'");
    await expect(runSearchIndex({ em: t.em(), config: 'klingon' })).rejects.toThrow(/QUIRE_SEARCH_CONFIG/);
    expect(() =>
      loadContentConfig({
        DATABASE_URL: 'postgres://x/y',
        QUIRE_INTERNAL_SECRET: 'x'.repeat(32),
        QUIRE_SEARCH_CONFIG: "english'; drop",
      }),
    ).toThrow(/QUIRE_SEARCH_CONFIG/);
  });
});
