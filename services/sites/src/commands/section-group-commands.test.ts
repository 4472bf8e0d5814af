import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { buildSpace } from '@quire/kit/testing';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSection, SiteSectionGroup } from '../modules/structure/structure.entity.ts';
import { onSiteStructure, orgActors, refusal, useSitesAndContent } from '../test-support.ts';
import { sectionGroupCreator, sectionGroupDeleter, sectionGroupUpdater } from './section-group-commands.ts';

const ORG = 'org-sgc';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('section-group-commands');

/** A site with a section per title, in order: its id and the sections' ids by title. */
async function siteWith(titles: string[]) {
  const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator);
  const ids: Record<string, string> = {};
  for (const title of titles) {
    const space = await buildSpace(p.content, { org: ORG, title, as: admin });
    const section = await p.sites.call(
      ops.addSectionToSite,
      { organizationId: ORG, siteId: site.id, spaceId: space.id, title },
      creator,
    );
    ids[title] = section.id;
  }
  return { siteId: site.id, ids };
}

/** A command on the site's structure as the operations run it: the site and its tree loaded in the transaction. */
const onStructure = <T>(siteId: string, fn: Parameters<typeof onSiteStructure<T>>[2]) => onSiteStructure(p, siteId, fn);

/** The navigation as titles: a group as `{title: [children]}`. */
type Shape = string | Record<string, Shape[]>;
async function shape(siteId: string): Promise<Shape[]> {
  const tree = await SiteTree.load(p.sites.em(), siteId);
  const level = (id: string | null): Shape[] =>
    tree
      .navItems(id)
      .map((i) => (i.type === 'site-section' ? i.entity.title : { [i.entity.title]: level(i.entity.id) }));
  return level(null);
}
const siteUpdates = async (siteId: string) =>
  (await p.sites.outboxEvents('site.updated'))
    .map((e) => e.data as { site: string; fields: string[] })
    .filter((d) => d.site === siteId);

describe('sectionGroupCreator', () => {
  it('refuses a group on a site without sections (409)', async () => {
    const site = await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Empty' }, creator);
    expect(await refusal(onStructure(site.id, (tx, s) => sectionGroupCreator(tx, { ...s, title: 'G' })))).toEqual({
      reason: 'conflict',
      message: 'A site has section groups once it has sections: add a section first',
    });
  });

  it('puts the group last at its level with the sections it names, in that order, and marks the site changed', async () => {
    const { siteId, ids } = await siteWith(['Intro', 'Guides', 'API']);
    const before = (await siteUpdates(siteId)).length;
    const group = await onStructure(siteId, (tx, s) =>
      sectionGroupCreator(tx, { ...s, title: 'Learn', icon: 'book', sections: [ids.API!, ids.Guides!] }),
    );
    expect(await p.sites.em().findOneOrFail(SiteSectionGroup, { id: group.id })).toMatchObject({
      title: 'Learn',
      icon: 'book',
      parentId: null,
    });
    expect(await shape(siteId)).toEqual(['Intro', { Learn: ['API', 'Guides'] }]);
    expect((await siteUpdates(siteId)).slice(before)).toEqual([expect.objectContaining({ fields: ['sections'] })]);
    expect((await p.sites.em().findOneOrFail(SiteSection, { id: ids.API! })).sectionGroupId).toBe(group.id);
  });

  it('refuses an unknown parent or section, a section named twice, and nesting deeper than 3 (400)', async () => {
    const { siteId, ids } = await siteWith(['AA']);
    const create = (props: { parent?: string; sections?: string[] }) =>
      onStructure(siteId, (tx, s) => sectionGroupCreator(tx, { ...s, title: 'G', ...props }));
    expect(await refusal(create({ parent: 'nope' }))).toEqual({
      reason: 'invalid_input',
      message: 'parent: no section group nope on this site',
    });
    expect(await refusal(create({ sections: ['nope'] }))).toEqual({
      reason: 'invalid_input',
      message: 'sections: no section nope on this site',
    });
    expect(await refusal(create({ sections: [ids.AA!, ids.AA!] }))).toEqual({
      reason: 'invalid_input',
      message: 'sections: a section is named twice',
    });
    expect(await p.sites.em().count(SiteSectionGroup, { siteId })).toBe(0);
    let parent: string | undefined;
    for (const title of ['L1', 'L2', 'L3'])
      parent = (
        await onStructure(siteId, (tx, s) => sectionGroupCreator(tx, { ...s, title, ...(parent ? { parent } : {}) }))
      ).id;
    expect(await refusal(create({ parent: parent! }))).toEqual({
      reason: 'invalid_input',
      message: 'parent: section groups nest at most 3 deep',
    });
    expect(await shape(siteId)).toEqual(['AA', { L1: [{ L2: [{ L3: [] }] }] }]);
  });
});

describe('sectionGroupUpdater', () => {
  it('renames and moves a group last into another level; refuses a cycle and a nesting too deep', async () => {
    const { siteId, ids } = await siteWith(['AA', 'BB']);
    const create = (title: string, props: { parent?: string; sections?: string[] } = {}) =>
      onStructure(siteId, (tx, s) => sectionGroupCreator(tx, { ...s, title, ...props }));
    const outer = await create('Outer', { sections: [ids.AA!] });
    const inner = await create('Inner', { parent: outer.id, sections: [ids.BB!] });
    const other = await create('Other');
    const update = (id: string, props: { title?: string; parentSectionGroupId?: string | null }) =>
      onStructure(siteId, (tx, s) => sectionGroupUpdater(tx, { ...s, group: s.tree.group(id)!, ...props }));
    expect(await refusal(update(outer.id, { parentSectionGroupId: inner.id }))).toEqual({
      reason: 'invalid_input',
      message: 'parentSectionGroupId: a group cannot move into itself or a group under it',
    });
    expect(await refusal(update(outer.id, { parentSectionGroupId: outer.id }))).toEqual({
      reason: 'invalid_input',
      message: 'parentSectionGroupId: a group cannot move into itself or a group under it',
    });
    expect(await refusal(update(outer.id, { parentSectionGroupId: 'nope' }))).toEqual({
      reason: 'invalid_input',
      message: 'parentSectionGroupId: no section group nope on this site',
    });
    // Other under Inner (depth 2) is at depth 3: allowed.
    await update(other.id, { parentSectionGroupId: inner.id, title: 'Other!' });
    expect(await shape(siteId)).toEqual([{ Outer: ['AA', { Inner: ['BB', { 'Other!': [] }] }] }]);
    await update(other.id, { parentSectionGroupId: null });
    // Outer holds a group (height 1): under Other (depth 1) it reaches depth 3, under Nest (depth 2) it would reach 4.
    const nest = await create('Nest', { parent: other.id });
    expect(await refusal(update(outer.id, { parentSectionGroupId: nest.id }))).toEqual({
      reason: 'invalid_input',
      message: 'parentSectionGroupId: section groups nest at most 3 deep',
    });
    expect(await shape(siteId)).toEqual([{ Outer: ['AA', { Inner: ['BB'] }] }, { 'Other!': [{ Nest: [] }] }]);
    await update(outer.id, { parentSectionGroupId: other.id });
    expect(await shape(siteId)).toEqual([{ 'Other!': [{ Nest: [] }, { Outer: ['AA', { Inner: ['BB'] }] }] }]);
  });
});

describe('sectionGroupDeleter', () => {
  it('puts what the group held in its place, in order, between its neighbours', async () => {
    const { siteId, ids } = await siteWith(['AA', 'BB', 'CC', 'DD']);
    const group = await onStructure(siteId, (tx, s) =>
      sectionGroupCreator(tx, { ...s, title: 'G', sections: [ids.CC!, ids.BB!] }),
    );
    const inner = await onStructure(siteId, (tx, s) =>
      sectionGroupCreator(tx, { ...s, title: 'In', parent: group.id }),
    );
    // Move D after G: the root reads A, G, D.
    expect(await shape(siteId)).toEqual(['AA', 'DD', { G: ['CC', 'BB', { In: [] }] }]);
    await onStructure(siteId, (tx, s) => {
      const d = s.tree.section(ids.DD!)!;
      d.order = `${s.tree.group(group.id)!.order}V`;
      tx.persist(d);
    });
    expect(await shape(siteId)).toEqual(['AA', { G: ['CC', 'BB', { In: [] }] }, 'DD']);
    await onStructure(siteId, (tx, s) => sectionGroupDeleter(tx, { ...s, group: s.tree.group(group.id)! }));
    expect(await shape(siteId)).toEqual(['AA', 'CC', 'BB', { In: [] }, 'DD']);
    expect(await p.sites.em().count(SiteSectionGroup, { id: group.id })).toBe(0);
    expect((await p.sites.em().findOneOrFail(SiteSectionGroup, { id: inner.id })).parentId).toBeNull();
  });
});
