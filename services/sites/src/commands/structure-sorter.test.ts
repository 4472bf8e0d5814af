import { describe, expect, it } from 'vitest';
import { ops, type SitePosition, type SiteStructurePointer, type Space } from '@quire/contracts';
import type { EntityManager } from '@quire/kit';
import { buildSpace, failureOf } from '@quire/kit/testing';
import { Site, type ISite } from '../modules/sites/site.entity.ts';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSpace } from '../modules/structure/structure.entity.ts';
import { orgActors, useSitesAndContent } from '../test-support.ts';
import { sectionCreator } from './section-commands.ts';
import { sectionGroupCreator } from './section-group-commands.ts';
import { siteSpaceAdder } from './site-space-commands.ts';
import { structureSorter } from './structure-sorter.ts';

const ORG = 'org-sorter';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('structure-sorter');

/** A command on the site's structure as the operations run it: the site and its tree loaded in the transaction. */
const onStructure = <T>(siteId: string, fn: (tx: EntityManager, x: { site: ISite; tree: SiteTree }) => T) =>
  p.sites.em().transactional(async (tx) => {
    const site = await tx.findOneOrFail(Site, { id: siteId });
    return fn(tx, { site, tree: await SiteTree.load(tx, siteId) });
  });
const newSite = async () => (await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const space = (title: string): Promise<Space> => buildSpace(p.content, { org: ORG, title, as: admin });
const sort = (siteId: string, item: SiteStructurePointer, position?: SitePosition) =>
  onStructure(siteId, (tx, x) => structureSorter(tx, { ...x, item, position }));
const refusal = async (work: Promise<unknown>) => {
  const err = await failureOf(work);
  return { reason: err.reason, message: err.message };
};
const rootPaths = async (siteId: string) =>
  (
    await p.sites
      .em()
      .fork()
      .find(SiteSpace, { siteId, sectionId: null }, { orderBy: { order: 'asc', id: 'asc' } })
  ).map((s) => s.path);
/** The sections and groups at the root, in the order a reader sees them. */
const navTitles = async (siteId: string) =>
  (await SiteTree.load(p.sites.em().fork(), siteId)).navItems(null).map((i) => i.entity.title);
const structureUpdates = async (siteId: string) =>
  (await p.sites.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId && d.fields.includes('structure')).length;

describe('structureSorter', () => {
  it('moves a site space before or after a sibling, or last, recording site.updated', async () => {
    const siteId = await newSite();
    const ids: string[] = [];
    for (const title of ['Alpha', 'Beta', 'Gamma'])
      ids.push(
        (
          await onStructure(siteId, async (tx, x) =>
            siteSpaceAdder(tx, { ...x, level: null, space: await space(title) }),
          )
        ).id,
      );
    const [alpha, beta, gamma] = ids.map((id) => ({ type: 'site-space' as const, id }));
    await sort(siteId, gamma!, { before: alpha });
    expect(await rootPaths(siteId)).toEqual(['gamma', 'alpha', 'beta']);
    await sort(siteId, gamma!, { after: beta });
    expect(await rootPaths(siteId)).toEqual(['alpha', 'beta', 'gamma']);
    await sort(siteId, alpha!);
    expect(await rootPaths(siteId)).toEqual(['beta', 'gamma', 'alpha']);
    expect(await structureUpdates(siteId)).toBe(3);
  });

  it('orders sections and section groups together at their level', async () => {
    const siteId = await newSite();
    const docs = await onStructure(siteId, async (tx, x) => sectionCreator(tx, { ...x, space: await space('Docs') }));
    const api = await onStructure(siteId, async (tx, x) => sectionCreator(tx, { ...x, space: await space('API') }));
    const group = await onStructure(siteId, (tx, x) => sectionGroupCreator(tx, { ...x, title: 'More' }));
    expect(await navTitles(siteId)).toEqual(['Docs', 'API', 'More']);
    await sort(siteId, { type: 'site-section-group', id: group.id }, { before: { type: 'site-section', id: docs.id } });
    expect(await navTitles(siteId)).toEqual(['More', 'Docs', 'API']);
    await sort(siteId, { type: 'site-section', id: docs.id }, { after: { type: 'site-section', id: api.id } });
    expect(await navTitles(siteId)).toEqual(['More', 'API', 'Docs']);
  });

  it('refuses a reference of another kind or level, or the item itself (400), and an item not on the site (404)', async () => {
    const siteId = await newSite();
    const section = await onStructure(siteId, async (tx, x) =>
      sectionCreator(tx, { ...x, space: await space('Only') }),
    );
    const inSection = (await p.sites.em().fork().findOneOrFail(SiteSpace, { sectionId: section.id })).id;
    const siteSpace = { type: 'site-space' as const, id: inSection };
    const sectionPtr = { type: 'site-section' as const, id: section.id };
    expect(await refusal(sort(siteId, siteSpace, { before: sectionPtr }))).toEqual({
      reason: 'invalid_input',
      message: 'position: a site-space is not ordered relative to a site-section',
    });
    expect(await refusal(sort(siteId, siteSpace, { after: siteSpace }))).toEqual({
      reason: 'invalid_input',
      message: 'position.after: an item cannot be placed relative to itself',
    });
    expect(await refusal(sort(siteId, sectionPtr, { before: { type: 'site-section', id: 'elsewhere' } }))).toEqual({
      reason: 'invalid_input',
      message: 'position.before: elsewhere is not a sibling of the item',
    });
    expect((await refusal(sort(siteId, { type: 'site-space', id: 'nope' }))).reason).toBe('not_found');
    expect((await refusal(sort(siteId, { type: 'site-section-group', id: 'nope' }))).reason).toBe('not_found');
    expect(await structureUpdates(siteId)).toBe(0);
  });
});
