import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ops, type RevisionPage, type SiteRedirectDto } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, eventually } from '@quire/kit/testing';
import { useGitSyncSites } from '../../git-sync.testing.ts';

const ORG = 'org-gitredir';
const { p, admin, newRepo, push, importInto, visit } = useGitSyncSites('git-redirects', ORG);

const flat = (pages: RevisionPage[]): RevisionPage[] =>
  pages.flatMap((p) => [p, ...flat(('pages' in p ? p.pages : []) as RevisionPage[])]);

const where = (siteId: string) => ({ organizationId: ORG, siteId });
const liveRedirects = async (siteId: string): Promise<SiteRedirectDto[]> =>
  (await p.sites.call(ops.listSiteRedirects, { ...where(siteId), draft: false, orderBy: 'source', limit: 100 }, admin))
    .items;
const summary = (list: SiteRedirectDto[]) =>
  list.map((r) => [r.source, r.destination.kind === 'site-page' ? r.destination.pageId : r.destination.kind]);
/** Waits until the sites service applied the latest `space.git-redirects-updated` the content service recorded. */
async function redirectsApplied(count: number) {
  const events = await eventually(
    async () => {
      const list = await p.content.outboxEvents('space.git-redirects-updated');
      return list.length === count ? list : undefined;
    },
    10_000,
    `${count} redirect events`,
  );
  const last = events.at(-1)!;
  await eventually(
    async () =>
      (
        await sql(p.sites.em(), 'select 1 from :schema.processed_event where consumer = ? and event_id = ?', [
          'sites-git-redirects',
          last.id,
        ])
      ).length > 0,
    10_000,
    'the event applied',
  );
  return last;
}
describe('.gitbook.yaml redirects become the site redirects', () => {
  it('imports them onto every site showing the space, replaces them on the next import, and leaves users’ own alone', async () => {
    const dir = await newRepo('redirects');
    await mkdir(join(dir, 'docs/guides'), { recursive: true });
    await writeFile(
      join(dir, '.gitbook.yaml'),
      'root: ./docs/\nredirects:\n  help: support.md\n  old/install: guides/install.md\n  /kept/: guides/install.md\n' +
        '  taken: support.md\n  nowhere: missing.md\n  ../escape: support.md\n',
    );
    await writeFile(
      join(dir, 'docs/SUMMARY.md'),
      '# Summary\n\n* [Home](README.md)\n* [Support](support.md)\n* [Install](guides/install.md)\n',
    );
    await writeFile(join(dir, 'docs/README.md'), '# Home\n\nWelcome.\n');
    await writeFile(join(dir, 'docs/support.md'), '# Support\n\nAsk us.\n');
    await writeFile(join(dir, 'docs/guides/install.md'), '# Install\n\nRun it.\n');
    const url = await push(dir, 'redirects', 'docs with redirects');

    // The space is the second site space of a published site (under its own path) and the only one of another.
    const other = await buildSpace(p.content, { org: ORG, title: 'Other', as: admin });
    const space = await buildSpace(p.content, { org: ORG, title: 'Handbook', as: admin });
    const site = await p.sites.call(
      ops.createSite,
      { organizationId: ORG, title: 'Docs', spaces: [other.id, space.id] },
      admin,
    );
    await p.sites.call(ops.publishSite, where(site.id), admin);
    const siteSpace = (await p.sites.call(ops.listSiteSpaces, where(site.id), admin)).items.find(
      (s) => s.space?.id === space.id,
    )!;
    const solo = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Solo', spaces: [space.id] }, admin);
    const prefix = `/${siteSpace.path}`;
    // A redirect a user made holds one of the sources: the import leaves it to them.
    const own = await p.sites.call(
      ops.createSiteRedirect,
      { ...where(site.id), source: `${prefix}/taken`, destination: { kind: 'external', url: 'https://example.com/' } },
      admin,
    );

    expect((await importInto(space.id, url)).operation).toMatchObject({ state: 'success' });
    const pages = flat((await p.content.call(ops.getCurrentRevision, { spaceId: space.id }, admin)).pages);
    const id = (title: string) => pages.find((p) => p.title === title)!.id;
    const expected = [
      [`${prefix}/help`, id('Support')],
      [`${prefix}/kept`, id('Install')],
      [`${prefix}/old/install`, id('Install')],
      [`${prefix}/taken`, 'external'],
    ];
    const event = await redirectsApplied(1);
    expect(event.data).toEqual({
      space: space.id,
      organization: ORG,
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      redirects: [
        { source: 'help', page: id('Support') },
        { source: 'old/install', page: id('Install') },
        { source: 'kept', page: id('Install') },
        { source: 'taken', page: id('Support') },
      ],
    });
    const imported = await liveRedirects(site.id);
    expect(summary(imported)).toEqual(expected);
    expect(imported.find((r) => r.source === `${prefix}/help`)).toMatchObject({
      permanent: true,
      captureWildcard: false,
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: id('Support') },
    });
    expect(imported.find((r) => r.id === own.id)).toEqual(own);
    // The other site shows the space as its default: the sources have no prefix there.
    expect(summary(await liveRedirects(solo.id))).toEqual([
      ['/help', id('Support')],
      ['/kept', id('Install')],
      ['/old/install', id('Install')],
      ['/taken', id('Support')],
    ]);

    // The published site answers the old path with a permanent redirect to the page.
    const moved = await visit(site.basename, `${prefix}/old/install`);
    expect(moved).toMatchObject({ status: 308 });
    expect(moved.headers.location).toBe(`/sites/${site.basename}${prefix}/install`);

    // The same commit again (forced) changes nothing: same redirects, never updated.
    expect((await importInto(space.id, url, true)).operation).toMatchObject({ state: 'success' });
    await redirectsApplied(2);
    expect(await liveRedirects(site.id)).toEqual(imported);

    // A commit that drops one redirect and moves another replaces the space's redirects; the user's stays.
    await writeFile(join(dir, '.gitbook.yaml'), 'root: ./docs/\nredirects:\n  help: guides/install.md\n');
    await push(dir, 'redirects', 'fewer redirects');
    expect((await importInto(space.id, url)).operation).toMatchObject({ state: 'success' });
    await redirectsApplied(3);
    const replaced = await liveRedirects(site.id);
    expect(summary(replaced)).toEqual([
      [`${prefix}/help`, id('Install')],
      [`${prefix}/taken`, 'external'],
    ]);
    expect(replaced[0]!.id).toBe(imported[0]!.id);
    expect((await visit(site.basename, `${prefix}/old/install`)).status).toBe(404);
    expect((await visit(site.basename, `${prefix}/help`)).headers.location).toBe(
      `/sites/${site.basename}${prefix}/install`,
    );
  }, 120_000);
});
