import { describe, expect, it } from 'vitest';
import { ops, type Space } from '@quire/contracts';
import { buildSpace } from '@quire/kit/testing';
import { ContentSpace } from '../modules/spaces/content-space.entity.ts';
import { SiteTree } from '../modules/structure/site-tree.ts';
import { SiteSection, SiteSpace } from '../modules/structure/structure.entity.ts';
import { onSiteStructure, orgActors, refusal, useSitesAndContent } from '../test-support.ts';
import { sectionGroupCreator } from './section-group-commands.ts';
import { sectionCreator, sectionDeleter, sectionUpdater, type SectionUpdaterProps } from './section-commands.ts';
import { siteSpaceAdder } from './site-space-commands.ts';

const ORG = 'org-sections';
const { admin, creator } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('section-commands');

/** A command on the site's structure as the operations run it: the site and its tree loaded in the transaction. */
const onStructure = <T>(siteId: string, fn: Parameters<typeof onSiteStructure<T>>[2]) => onSiteStructure(p, siteId, fn);
const newSite = async () => (await p.sites.call(ops.createSite, { organizationId: ORG, title: 'Site' }, creator)).id;
const space = (title: string): Promise<Space> => buildSpace(p.content, { org: ORG, title, as: admin });
const addSection = async (siteId: string, s: Space, props: { title?: string; siteSectionGroupId?: string } = {}) =>
  onStructure(siteId, (tx, x) => sectionCreator(tx, { ...x, space: s, ...props }));
const sections = async (siteId: string) =>
  (await p.sites.em().find(SiteSection, { siteId }, { orderBy: { order: 'asc' } })).map((s) => ({
    title: s.title,
    path: s.path,
    isDefault: s.isDefault,
  }));
const spacesOf = async (sectionId: string) =>
  (await p.sites.em().find(SiteSpace, { sectionId }, { orderBy: { order: 'asc' } })).map((s) => ({
    spaceId: s.spaceId,
    path: s.path,
    isDefault: s.isDefault,
  }));

describe('sectionCreator', () => {
  it('the first section is the default and takes in the site spaces at the root, after its own', async () => {
    const siteId = await newSite();
    const [docs, guide, other] = await Promise.all([space('Docs'), space('Guide'), space('Other')]);
    for (const s of [docs, guide])
      await onStructure(siteId, (tx, x) => siteSpaceAdder(tx, { ...x, level: null, space: s }));
    const first = await addSection(siteId, docs);
    expect(first).toMatchObject({ title: 'Docs', path: 'docs', isDefault: true, sectionGroupId: null });
    // Docs is at the root too: its second site space takes another path.
    expect(await spacesOf(first.id)).toEqual([
      { spaceId: docs.id, path: 'docs', isDefault: true },
      { spaceId: docs.id, path: 'docs-2', isDefault: false },
      { spaceId: guide.id, path: 'guide', isDefault: false },
    ]);
    expect(await p.sites.em().count(SiteSpace, { siteId, sectionId: null })).toBe(0);

    const second = await addSection(siteId, other, { title: 'Docs' });
    expect(second).toMatchObject({ path: 'docs-2', isDefault: false });
    expect(await spacesOf(second.id)).toEqual([{ spaceId: other.id, path: 'other', isDefault: true }]);
  });

  it('names a section after its space, or "Untitled section" for a title too short; refuses an unknown group (400)', async () => {
    const siteId = await newSite();
    await addSection(siteId, await space('X'));
    expect(await sections(siteId)).toEqual([{ title: 'Untitled section', path: 'untitled-section', isDefault: true }]);
    expect(await refusal(addSection(siteId, await space('Y y'), { siteSectionGroupId: 'nope' }))).toEqual({
      reason: 'invalid_input',
      message: 'siteSectionGroupId: no section group nope on this site',
    });
    expect(await sections(siteId)).toHaveLength(1);
  });

  it('creates a section last in the group it names', async () => {
    const siteId = await newSite();
    const a = await addSection(siteId, await space('Aa'));
    const group = await onStructure(siteId, (tx, x) => sectionGroupCreator(tx, { ...x, title: 'G', sections: [a.id] }));
    const b = await addSection(siteId, await space('Bb'), { siteSectionGroupId: group.id });
    const tree = await SiteTree.load(p.sites.em(), siteId);
    expect(tree.navItems(group.id).map((i) => i.entity.id)).toEqual([a.id, b.id]);
  });
});

describe('sectionUpdater', () => {
  it('refuses a path another section uses (409), a default site space not in the section or whose space is deleted (400)', async () => {
    const siteId = await newSite();
    const [one, two] = [await space('One'), await space('Two')];
    const a = await addSection(siteId, one);
    const b = await addSection(siteId, two);
    const extra = await space('Extra');
    const added = await onStructure(siteId, (tx, x) => siteSpaceAdder(tx, { ...x, level: a.id, space: extra }));
    const update = (id: string, props: Omit<SectionUpdaterProps, 'site' | 'tree' | 'section'>) =>
      onStructure(siteId, (tx, x) => sectionUpdater(tx, { ...x, section: x.tree.section(id)!, ...props }));
    expect(await refusal(update(a.id, { path: 'two', title: 'Changed' }))).toEqual({
      reason: 'conflict',
      message: 'path: another section of the site already uses "two"',
    });
    const inB = (await spacesOf(b.id))[0]!;
    const bSiteSpace = (await p.sites.em().findOneOrFail(SiteSpace, { sectionId: b.id })).id;
    expect(inB.spaceId).toBe(two.id);
    expect(await refusal(update(a.id, { defaultSiteSpace: bSiteSpace }))).toEqual({
      reason: 'invalid_input',
      message: `defaultSiteSpace: no site space ${bSiteSpace} in this section`,
    });
    await p.sites.em().nativeUpdate(ContentSpace, { id: extra.id }, { deletedAt: new Date() });
    expect(await refusal(update(a.id, { defaultSiteSpace: added.id }))).toEqual({
      reason: 'invalid_input',
      message: `defaultSiteSpace: the space of site space ${added.id} is deleted`,
    });
    await p.sites.em().nativeUpdate(ContentSpace, { id: extra.id }, { deletedAt: null });
    await update(a.id, { defaultSiteSpace: added.id, path: 'first', title: 'First', description: 'About' });
    expect(await p.sites.em().findOneOrFail(SiteSection, { id: a.id })).toMatchObject({
      path: 'first',
      title: 'First',
      description: 'About',
    });
    expect((await spacesOf(a.id)).map((s) => [s.spaceId, s.isDefault])).toEqual([
      [one.id, false],
      [extra.id, true],
    ]);
  });
});

describe('sectionDeleter', () => {
  it('removes the section with its site spaces; the first remaining section becomes the default', async () => {
    const siteId = await newSite();
    const a = await addSection(siteId, await space('Aa'));
    await addSection(siteId, await space('Bb'));
    await addSection(siteId, await space('Cc'));
    const before = (await p.sites.outboxEvents('site.updated')).length;
    await onStructure(siteId, (tx, x) => sectionDeleter(tx, { ...x, section: x.tree.section(a.id)! }));
    expect(await sections(siteId)).toEqual([
      { title: 'Bb', path: 'bb', isDefault: true },
      { title: 'Cc', path: 'cc', isDefault: false },
    ]);
    expect(await p.sites.em().count(SiteSpace, { sectionId: a.id })).toBe(0);
    const events = (await p.sites.outboxEvents('site.updated')).slice(before);
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ site: siteId, fields: ['sections'] })]);
  });
});
