import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { useTestService } from '@quire/kit/testing';
import { loadSitesConfig } from '../env.ts';
import { Site } from '../modules/sites/site.entity.ts';
import { ContentSpace } from '../modules/spaces/content-space.entity.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { sitesService } from '../service.ts';
import { orgActors } from '../test-support.ts';
import { assignGiven, createSiteSpace, ensureDefault, setDefault, siteChanged } from './structure-helpers.ts';

const ORG = 'org-structure-helpers';
const { creator } = orgActors(ORG, 'org-elsewhere');
const t = useTestService(sitesService, loadSitesConfig, { label: 'structure-helpers' });
const inTx = <T>(fn: (tx: EntityManager) => Promise<T>) => t.em().transactional(fn);
const newSite = async () => (await t.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;

let seq = 0;
/** A space as the content service answers it (only what the command reads is its own). */
const space = (title: string, updatedAt = '2026-01-01T00:00:00.000Z') =>
  ({ id: `space-${++seq}-${Date.now()}`, organization: ORG, title, updatedAt }) as Space;

/** Adds a site space for `s` at the root, last, as siteSpaceAdder does: the site's root spaces given as siblings. */
const addAtRoot = (siteId: string, s: Space) =>
  inTx(async (tx) => {
    const site = await tx.findOneOrFail(Site, { id: siteId });
    const siblings = await tx.find(SiteSpace, { siteId, sectionId: null }, { orderBy: { order: 'asc' } });
    return createSiteSpace(tx, site, null, siblings, s, new Date('2026-02-01T00:00:00.000Z'));
  });
const rootSpaces = async (siteId: string) =>
  (await t.em().find(SiteSpace, { siteId, sectionId: null }, { orderBy: { order: 'asc' } })).map((s) => [
    s.path,
    s.isDefault,
  ]);

describe('default of a level', () => {
  it('setDefault makes the chosen one the only default; ensureDefault gives a level without one its first', () => {
    const level = [
      { id: 'a', isDefault: true },
      { id: 'b', isDefault: false },
      { id: 'c', isDefault: true },
    ];
    setDefault(level, level[1]!);
    expect(level.map((x) => x.isDefault)).toEqual([false, true, false]);
    const lost = [
      { id: 'a', isDefault: false },
      { id: 'b', isDefault: false },
    ];
    ensureDefault(lost);
    expect(lost.map((x) => x.isDefault)).toEqual([true, false]);
    ensureDefault(level);
    expect(level.map((x) => x.isDefault)).toEqual([false, true, false]);
    expect(() => ensureDefault([])).not.toThrow();
  });
});

describe('createSiteSpace', () => {
  it('adds last with a free path from the title, the default only when the level has none', async () => {
    const siteId = await newSite();
    await addAtRoot(siteId, space('Handbook'));
    await addAtRoot(siteId, space('Handbook'));
    await addAtRoot(siteId, space('Привет мир'));
    await addAtRoot(siteId, space('!!!'));
    expect(await rootSpaces(siteId)).toEqual([
      ['handbook', true],
      ['handbook-2', false],
      ['privet-mir', false],
      ['space', false],
    ]);
  });

  it('projects a space whose events have not arrived, and never overwrites one they brought', async () => {
    const siteId = await newSite();
    const fresh = space('Fresh', '2026-01-02T00:00:00.000Z');
    await addAtRoot(siteId, fresh);
    expect(await t.em().findOneOrFail(ContentSpace, { id: fresh.id })).toMatchObject({
      organizationId: ORG,
      title: 'Fresh',
      deletedAt: null,
    });
    // The projection already holds a later title (its event came first): the site space takes the row as it is.
    await addAtRoot(siteId, { ...fresh, title: 'Stale title' });
    expect((await t.em().findOneOrFail(ContentSpace, { id: fresh.id })).title).toBe('Fresh');
    expect(await t.em().count(SiteSpace, { siteId, spaceId: fresh.id })).toBe(2);
  });
});

describe('siteChanged and assignGiven', () => {
  it("records site.updated with the fields changed and moves the site's updatedAt", async () => {
    const siteId = await newSite();
    const now = new Date('2030-05-05T00:00:00.000Z');
    await inTx(async (tx) => siteChanged(tx, await tx.findOneOrFail(Site, { id: siteId }), ['sections'], now));
    expect((await t.em().findOneOrFail(Site, { id: siteId })).updatedAt).toEqual(now);
    const updates = (await t.outboxEvents('site.updated')).map((e) => e.data as { site: string });
    expect(updates.filter((d) => d.site === siteId).at(-1)).toEqual({
      site: siteId,
      organization: ORG,
      fields: ['sections'],
    });
  });

  it('assigns only the fields given, leaving an undefined one as it is', () => {
    const item = { title: 'Old', path: 'old', hidden: false };
    assignGiven(item, { title: 'New', path: undefined }, ['title', 'path']);
    expect(item).toEqual({ title: 'New', path: 'old', hidden: false });
  });
});
