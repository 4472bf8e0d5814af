import { describe, expect, it } from 'vitest';
import type { Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { sitesService } from '../service.ts';
import { siteCreator } from './site-creator.ts';
import { spaceRemover } from './space-removal.ts';

const t = useTestService(sitesService, loadSitesConfig, { label: 'space-removal' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
let seq = 0;
/** A space as the content service answers it (only what the commands read is its own). */
const space = (organization: string, title: string) =>
  ({ id: `sr-space-${++seq}`, organization, title, updatedAt: '2031-01-01T00:00:00.000Z' }) as Space;
const siteShowing = (organizationId: string, spaces: Space[]) =>
  inTx((tx) => siteCreator(tx, { organizationId, type: 'basic', title: 'Site', visibility: 'public', spaces }));
/** The site's root site spaces as `space id: default`. */
const rootOf = async (siteId: string) =>
  (
    await t
      .em()
      .fork()
      .find(SiteSpace, { siteId, sectionId: null }, { orderBy: { order: 'asc' } })
  ).map((s) => `${s.spaceId}:${s.isDefault}`);
const updatesOf = async (siteId: string) =>
  (await t.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId);

describe('spaceRemover', () => {
  it('takes a purged space out of every site showing it, the next site space becoming the default', async () => {
    const [gone, kept] = [space('org-a', 'Gone'), space('org-a', 'Kept')];
    const one = await siteShowing('org-a', [gone, kept]);
    const two = await siteShowing('org-b', [kept, gone]);
    const untouched = await siteShowing('org-a', [kept]);
    const now = new Date('2031-12-01T00:00:00Z');
    const changed = await inTx((tx) => spaceRemover(tx, { spaceId: gone.id, now }));
    expect(changed.sort()).toEqual([one.id, two.id].sort());
    expect(await rootOf(one.id)).toEqual([`${kept.id}:true`]);
    expect(await rootOf(two.id)).toEqual([`${kept.id}:true`]);
    expect(await rootOf(untouched.id)).toEqual([`${kept.id}:true`]);
    expect((await t.em().fork().findOneOrFail(Site, { id: one.id })).updatedAt).toEqual(now);
    expect(await updatesOf(one.id)).toEqual([{ site: one.id, organization: 'org-a', fields: ['siteSpaces'] }]);
    expect(await updatesOf(untouched.id)).toEqual([]);
  });

  it("keeps a transferred space on its new organization's sites, and answers nothing for a space no site shows", async () => {
    const moved = space('org-old', 'Moved');
    const oldSite = await siteShowing('org-old', [moved]);
    const newSite = await siteShowing('org-new', [moved]);
    expect(await inTx((tx) => spaceRemover(tx, { spaceId: moved.id, keepOrganization: 'org-new' }))).toEqual([
      oldSite.id,
    ]);
    expect(await rootOf(oldSite.id)).toEqual([]);
    expect(await rootOf(newSite.id)).toEqual([`${moved.id}:true`]);
    expect(await inTx((tx) => spaceRemover(tx, { spaceId: 'shown-nowhere' }))).toEqual([]);
  });
});
