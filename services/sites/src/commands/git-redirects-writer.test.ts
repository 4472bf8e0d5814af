import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { buildSpace } from '@quire/kit/testing';
import { SiteRedirect } from '../modules/redirects/redirect.entity.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { orgActors, useSitesAndContent } from '../test-support.ts';
import { gitRedirectsWriter, type GitRedirect } from './git-redirects-writer.ts';
import { redirectCreator } from './redirect-commands.ts';
import { siteSpaceAdder } from './site-space-commands.ts';

const ORG = 'org-git-redirects';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('git-redirects-writer');

const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => p.sites.em().transactional(fn);
const newSite = async () => (await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const show = (siteId: string, space: Space) =>
  inTx(async (tx) => {
    const site = await tx.findOneOrFail(Site, { id: siteId });
    return siteSpaceAdder(tx, { site, tree: await SiteTree.load(tx, siteId), level: null, space });
  });
const write = (spaceId: string, redirects: GitRedirect[]) =>
  inTx((tx) => gitRedirectsWriter(tx, { spaceId, redirects }));
const redirectsOf = async (siteId: string) =>
  (await p.sites.em().find(SiteRedirect, { siteId }, { orderBy: { source: 'asc' } })).map((r) => ({
    source: r.source,
    permanent: r.permanent,
    destination: r.destination,
    git: r.gitSpaceId,
  }));

describe('gitRedirectsWriter', () => {
  it("writes a space's redirects under each site space showing it, leaves users' redirects, and replaces its own", async () => {
    const handbook = await buildSpace(p.content, { org: ORG, title: 'Handbook', as: admin });
    const other = await buildSpace(p.content, { org: ORG, title: 'Other', as: admin });
    const siteId = await newSite();
    const main = await show(siteId, handbook);
    const second = await show(siteId, handbook);
    const unrelated = await newSite();
    await show(unrelated, other);
    // A user's redirect holds /taken: it stays theirs.
    await inTx(async (tx) =>
      redirectCreator(tx, {
        site: await tx.findOneOrFail(Site, { id: siteId }),
        fields: {
          source: '/taken',
          draft: false,
          captureWildcard: false,
          permanent: false,
          destination: { kind: 'external', url: 'https://user.test/' },
        },
      }),
    );

    expect(
      await write(handbook.id, [
        { source: 'old-page', page: 'p1' },
        { source: 'taken', page: 'p2' },
      ]),
    ).toEqual([siteId]);
    const page = (siteSpaceId: string, pageId: string) => ({ kind: 'site-page', siteSpaceId, pageId });
    expect(await redirectsOf(siteId)).toEqual([
      // The default site space's URL is the site's root; the other one's is under its path.
      { source: '/handbook-2/old-page', permanent: true, destination: page(second.id, 'p1'), git: handbook.id },
      { source: '/handbook-2/taken', permanent: true, destination: page(second.id, 'p2'), git: handbook.id },
      { source: '/old-page', permanent: true, destination: page(main.id, 'p1'), git: handbook.id },
      { source: '/taken', permanent: false, destination: { kind: 'external', url: 'https://user.test/' }, git: null },
    ]);
    expect(await redirectsOf(unrelated)).toEqual([]);

    // The same redirects again change nothing; others replace them; none removes them all (the user's stays).
    expect(
      await write(handbook.id, [
        { source: 'old-page', page: 'p1' },
        { source: 'taken', page: 'p2' },
      ]),
    ).toEqual([]);
    expect(await write(handbook.id, [{ source: 'old-page', page: 'p3' }])).toEqual([siteId]);
    expect((await redirectsOf(siteId)).map((r) => [r.source, (r.destination as { pageId?: string }).pageId])).toEqual([
      ['/handbook-2/old-page', 'p3'],
      ['/old-page', 'p3'],
      ['/taken', undefined],
    ]);
    expect(await write(handbook.id, [])).toEqual([siteId]);
    expect((await redirectsOf(siteId)).map((r) => r.source)).toEqual(['/taken']);
  });
});
