import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import { buildSpace } from '@quire/kit/testing';
import { ContentSpace } from '../modules/spaces/content-space.entity.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { onSiteStructure, orgActors, refusal, useSitesAndContent } from '../test-support.ts';
import {
  siteSpaceAdder,
  siteSpaceDeleter,
  siteSpaceUpdater,
  type SiteSpaceUpdaterProps,
} from './site-space-commands.ts';

const ORG = 'org-site-spaces';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('site-space-commands');

/** A command on the site's structure as the operations run it: the site and its tree loaded in the transaction. */
const onStructure = <T>(siteId: string, fn: Parameters<typeof onSiteStructure<T>>[2]) => onSiteStructure(p, siteId, fn);
const newSite = async () => (await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const space = (title: string): Promise<Space> => buildSpace(p.content, { org: ORG, title, as: admin });
const add = (siteId: string, s: Space) =>
  onStructure(siteId, (tx, x) => siteSpaceAdder(tx, { ...x, level: null, space: s }));
const rootSpaces = async (siteId: string) =>
  (await p.sites.em().find(SiteSpace, { siteId, sectionId: null }, { orderBy: { order: 'asc' } })).map((s) => [
    s.path,
    s.isDefault,
  ]);

describe('siteSpaceAdder', () => {
  it('adds last with a free path from the title (the first is the default) and projects the space', async () => {
    const siteId = await newSite();
    const handbook = await space('Handbook');
    await add(siteId, handbook);
    await add(siteId, handbook);
    await add(siteId, await space('API'));
    expect(await rootSpaces(siteId)).toEqual([
      ['handbook', true],
      ['handbook-2', false],
      ['api', false],
    ]);
    expect(await p.sites.em().findOneOrFail(ContentSpace, { id: handbook.id })).toMatchObject({
      organizationId: ORG,
      title: 'Handbook',
    });
    const updates = (await p.sites.outboxEvents('site.updated'))
      .map((e) => e.data as { site: string; fields: string[] })
      .filter((d) => d.site === siteId);
    expect(updates.slice(-3).map((u) => u.fields)).toEqual([['siteSpaces'], ['siteSpaces'], ['siteSpaces']]);
  });
});

describe('siteSpaceUpdater', () => {
  it('refuses a path another site space of its level uses (409); changes the path, condition and space', async () => {
    const siteId = await newSite();
    const a = await add(siteId, await space('Alpha'));
    await add(siteId, await space('Beta'));
    const update = (props: Omit<SiteSpaceUpdaterProps, 'site' | 'tree' | 'siteSpace'>) =>
      onStructure(siteId, (tx, x) =>
        siteSpaceUpdater(tx, { ...x, siteSpace: x.tree.siteSpace(a.id)!.entity, ...props }),
      );
    expect(await refusal(update({ path: 'beta', condition: 'visitor.claims.x' }))).toEqual({
      reason: 'conflict',
      message: 'path: another site space at the root of the site already uses "beta"',
    });
    const gamma = await space('Gamma');
    await update({ path: 'alpha', condition: 'visitor.claims.beta == true', space: gamma });
    await update({ path: 'first' });
    expect(await p.sites.em().findOneOrFail(SiteSpace, { id: a.id })).toMatchObject({
      path: 'first',
      condition: 'visitor.claims.beta == true',
      spaceId: gamma.id,
    });
    expect(await p.sites.em().count(ContentSpace, { id: gamma.id })).toBe(1);
  });
});

describe('siteSpaceDeleter', () => {
  it('removes a site space; when it was the default, the first remaining one becomes it', async () => {
    const siteId = await newSite();
    const a = await add(siteId, await space('Alpha'));
    await add(siteId, await space('Beta'));
    await add(siteId, await space('Gamma'));
    await onStructure(siteId, (tx, x) => siteSpaceDeleter(tx, { ...x, siteSpace: x.tree.siteSpace(a.id)!.entity }));
    expect(await rootSpaces(siteId)).toEqual([
      ['beta', true],
      ['gamma', false],
    ]);
    const b = (await p.sites.em().findOneOrFail(SiteSpace, { siteId, path: 'gamma' })).id;
    await onStructure(siteId, (tx, x) => siteSpaceDeleter(tx, { ...x, siteSpace: x.tree.siteSpace(b)!.entity }));
    expect(await rootSpaces(siteId)).toEqual([['beta', true]]);
  });
});
