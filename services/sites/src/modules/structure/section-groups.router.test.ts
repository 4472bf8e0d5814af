import { describe, expect, it } from 'vitest';
import { ops, type SiteSection, type SiteSectionGroup } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';

const ORG = 'org-g';
const { admin, creator, reader, stranger } = orgActors(ORG, 'org-other');

const p = useSitesAndContent('section-groups');
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

/** A site with one section per title, in order. */
async function siteWithSections(title: string, titles: string[]) {
  const site = await call(ops.createSite, { organizationId: ORG, title }, creator);
  const sections: SiteSection[] = [];
  for (const t of titles) {
    const space = await buildSpace(p.content, { org: ORG, title: t, as: admin });
    sections.push(
      await call(ops.addSectionToSite, { organizationId: ORG, siteId: site.id, spaceId: space.id, title: t }, creator),
    );
  }
  return { siteId: site.id, sections };
}

/** The root of the structure as `[id, …]`, a group as `{id: [children]}`. */
type Shape = string | Record<string, Shape[]>;
const shapeOf = (items: (SiteSection | SiteSectionGroup)[]): Shape[] =>
  items.map((i) => (i.object === 'site-section' ? i.title : { [i.title]: shapeOf(i.children) }));

async function structure(siteId: string): Promise<Shape[]> {
  const s = await call(ops.getSiteStructure, { organizationId: ORG, siteId }, reader);
  if (s.type !== 'sections') throw new Error('expected sections');
  return shapeOf(s.structure);
}

/** The rows of a site's sections, groups and site spaces that `work` wrote (their `xmin` changed), by title or id. */
async function rowsWritten(siteId: string, work: () => Promise<unknown>): Promise<string[]> {
  const snapshot = async () =>
    new Map(
      (
        await sql<{ row: string; xmin: string }>(
          p.sites.em(),
          `select 'section ' || title as row, xmin::text from :schema.site_section where site_id = ?
           union all select 'group ' || title, xmin::text from :schema.site_section_group where site_id = ?
           union all select 'site space ' || id, xmin::text from :schema.site_space where site_id = ?`,
          [siteId, siteId, siteId],
        )
      ).map((r) => [r.row, r.xmin]),
    );
  const before = await snapshot();
  await work();
  return [...(await snapshot())].filter(([row, xmin]) => before.get(row) !== xmin).map(([row]) => row);
}

describe('section groups', () => {
  it('groups sections: created with its sections, listed, shown in the structure, named by each section', async () => {
    const { siteId, sections } = await siteWithSections('Grouped', ['Intro', 'Guides', 'API']);
    const [intro, guides, api] = sections;
    const group = await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'Learn', icon: 'book', sections: [api!.id, guides!.id] },
      creator,
    );
    expect(group).toMatchObject({
      object: 'site-section-group',
      title: 'Learn',
      icon: 'book',
      draft: false,
      sections: [{ id: api!.id, sectionGroup: group.id }, { id: guides!.id }],
      children: [{ object: 'site-section', id: api!.id }, { id: guides!.id }],
    });
    expect(group.sectionGroup).toBeUndefined();
    expect(await structure(siteId)).toEqual(['Intro', { Learn: ['API', 'Guides'] }]);
    const list = await call(ops.listSiteSectionGroups, { organizationId: ORG, siteId }, reader);
    expect(list).toMatchObject({ count: 1, items: [{ id: group.id, title: 'Learn' }] });
    const listed = await call(ops.listSiteSections, { organizationId: ORG, siteId }, reader);
    expect(listed.items.map((s) => [s.title, s.sectionGroup])).toEqual([
      ['Intro', undefined],
      ['API', group.id],
      ['Guides', group.id],
    ]);
    expect(intro!.default).toBe(true);
    const events = await p.sites.outboxEvents('site.updated');
    expect(events.some((e) => (e.data as { site: string }).site === siteId)).toBe(true);
  });

  it('creates a section in a group, moves sections in and out, nests groups and refuses cycles', async () => {
    const { siteId, sections } = await siteWithSections('Nesting', ['One', 'Two']);
    const outer = await call(ops.addSectionGroupToSite, { organizationId: ORG, siteId, title: 'Outer' }, creator);
    const inner = await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'Inner', parent: outer.id, sections: [sections[1]!.id] },
      creator,
    );
    expect(inner.sectionGroup).toBe(outer.id);
    const space = await buildSpace(p.content, { org: ORG, title: 'Three', as: admin });
    const three = await call(
      ops.addSectionToSite,
      { organizationId: ORG, siteId, spaceId: space.id, title: 'Three', siteSectionGroupId: outer.id },
      creator,
    );
    expect(three.sectionGroup).toBe(outer.id);
    expect(await structure(siteId)).toEqual(['One', { Outer: [{ Inner: ['Two'] }, 'Three'] }]);
    await call(
      ops.updateSiteSectionById,
      { organizationId: ORG, siteId, siteSectionId: sections[0]!.id, siteSectionGroupId: inner.id },
      creator,
    );
    expect(await structure(siteId)).toEqual([{ Outer: [{ Inner: ['Two', 'One'] }, 'Three'] }]);
    const out = await call(
      ops.updateSiteSectionById,
      { organizationId: ORG, siteId, siteSectionId: three.id, siteSectionGroupId: null },
      creator,
    );
    expect(out.sectionGroup).toBeUndefined();
    expect(await structure(siteId)).toEqual([{ Outer: [{ Inner: ['Two', 'One'] }] }, 'Three']);
    const cycle = await failureOf(
      call(
        ops.updateSiteSectionGroupById,
        { organizationId: ORG, siteId, siteSectionGroupId: outer.id, parentSectionGroupId: inner.id },
        creator,
      ),
    );
    expect(cycle.message).toBe('parentSectionGroupId: a group cannot move into itself or a group under it');
    const moved = await call(
      ops.updateSiteSectionGroupById,
      { organizationId: ORG, siteId, siteSectionGroupId: inner.id, parentSectionGroupId: null, title: 'Inner 2' },
      creator,
    );
    expect(moved).toMatchObject({ title: 'Inner 2', children: [{ title: 'Two' }, { title: 'One' }] });
    expect(moved.sectionGroup).toBeUndefined();
    expect(await structure(siteId)).toEqual([{ Outer: [] }, 'Three', { 'Inner 2': ['Two', 'One'] }]);
  });

  it('orders groups among sections (sortSiteStructure, moveSiteSectionGroup) and deletes a group in place', async () => {
    const { siteId, sections } = await siteWithSections('Order', ['Aa', 'Bb', 'Cc']);
    const [a, b, c] = sections;
    const g = await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'G', sections: [b!.id] },
      creator,
    );
    expect(await structure(siteId)).toEqual(['Aa', 'Cc', { G: ['Bb'] }]);
    const sorted = await call(
      ops.sortSiteStructure,
      {
        organizationId: ORG,
        siteId,
        item: { type: 'site-section-group', id: g.id },
        position: { before: { type: 'site-section', id: a!.id } },
      },
      creator,
    );
    expect(sorted).toMatchObject({ object: 'site-section-group', id: g.id });
    expect(await structure(siteId)).toEqual([{ G: ['Bb'] }, 'Aa', 'Cc']);
    await call(
      ops.moveSiteSectionGroup,
      {
        organizationId: ORG,
        siteId,
        siteSectionGroupId: g.id,
        position: { after: { type: 'site-section', id: a!.id } },
      },
      creator,
    );
    expect(await structure(siteId)).toEqual(['Aa', { G: ['Bb'] }, 'Cc']);
    // A section is ordered relative to a group of its level; a site space is not.
    await call(
      ops.sortSiteStructure,
      {
        organizationId: ORG,
        siteId,
        item: { type: 'site-section', id: c!.id },
        position: { before: { type: 'site-section-group', id: g.id } },
      },
      creator,
    );
    expect(await structure(siteId)).toEqual(['Aa', 'Cc', { G: ['Bb'] }]);
    const wrong = await failureOf(
      call(
        ops.sortSiteStructure,
        {
          organizationId: ORG,
          siteId,
          item: { type: 'site-space', id: c!.siteSpaces[0]!.id },
          position: { before: { type: 'site-section-group', id: g.id } },
        },
        creator,
      ),
    );
    expect(wrong.reason).toBe('invalid_input');
    // Deleting the group keeps its sections, in its place.
    await call(ops.deleteSiteSectionGroupById, { organizationId: ORG, siteId, siteSectionGroupId: g.id }, creator);
    expect(await structure(siteId)).toEqual(['Aa', 'Cc', 'Bb']);
    expect((await call(ops.listSiteSectionGroups, { organizationId: ORG, siteId }, reader)).items).toEqual([]);
    const gone = failureOf(
      call(ops.deleteSiteSectionGroupById, { organizationId: ORG, siteId, siteSectionGroupId: g.id }, creator),
    );
    expect((await gone).reason).toBe('not_found');
  });

  it('refuses bad input (400 naming the field), readers (403), other organizations (404)', async () => {
    const { siteId, sections } = await siteWithSections('Refusals', ['Xx', 'Yy']);
    const add = (input: Record<string, unknown>, as = creator) =>
      failureOf(call(ops.addSectionGroupToSite, { organizationId: ORG, siteId, title: 'G', ...input } as never, as));
    expect((await add({ sections: ['nope'] })).message).toBe('sections: no section nope on this site');
    expect((await add({ sections: [sections[0]!.id, sections[0]!.id] })).message).toBe(
      'sections: a section is named twice',
    );
    expect((await add({ parent: 'nope' })).message).toBe('parent: no section group nope on this site');
    expect((await add({ title: '' })).message).toMatch(/title/);
    expect((await add({ draft: true })).message).toMatch(/draft/);
    expect((await add({}, reader)).reason).toBe('forbidden');
    expect((await add({}, stranger)).reason).toBe('not_found');
    const inGroup = await failureOf(
      call(
        ops.updateSiteSectionById,
        { organizationId: ORG, siteId, siteSectionId: sections[0]!.id, siteSectionGroupId: 'nope' },
        creator,
      ),
    );
    expect(inGroup.message).toBe('siteSectionGroupId: no section group nope on this site');
    // Groups nest at most three deep.
    let parent: string | undefined;
    for (const title of ['L1', 'L2', 'L3'])
      parent = (
        await call(
          ops.addSectionGroupToSite,
          { organizationId: ORG, siteId, title, ...(parent ? { parent } : {}) },
          creator,
        )
      ).id;
    expect((await add({ parent })).message).toBe('parent: section groups nest at most 3 deep');
    // A site without sections has no groups.
    const bare = await call(ops.createSite, { organizationId: ORG, title: 'Bare' }, creator);
    const none = failureOf(
      call(ops.addSectionGroupToSite, { organizationId: ORG, siteId: bare.id, title: 'G' }, creator),
    );
    expect((await none).reason).toBe('conflict');
  });

  it('moves an item by writing its own row only: a key between its new neighbours, nothing renumbered', async () => {
    const { siteId, sections } = await siteWithSections('Keys', ['S1', 'S2', 'S3', 'S4', 'S5']);
    const [s1, s2, s3, s4, s5] = sections;
    const sort = (item: { type: 'site-section' | 'site-section-group' | 'site-space'; id: string }, position: object) =>
      call(ops.sortSiteStructure, { organizationId: ORG, siteId, item, position } as never, creator);
    const first = { before: { type: 'site-section', id: s1!.id } };
    expect(await rowsWritten(siteId, () => sort({ type: 'site-section', id: s5!.id }, first))).toEqual(['section S5']);
    expect(await structure(siteId)).toEqual(['S5', 'S1', 'S2', 'S3', 'S4']);
    const moveS1 = () =>
      call(
        ops.moveSiteSection,
        {
          organizationId: ORG,
          siteId,
          siteSectionId: s1!.id,
          position: { after: { type: 'site-section', siteSection: s4!.id } },
        },
        creator,
      );
    expect(await rowsWritten(siteId, moveS1)).toEqual(['section S1']);
    expect(await structure(siteId)).toEqual(['S5', 'S2', 'S3', 'S4', 'S1']);
    // Put where it already is: nothing written.
    expect(await rowsWritten(siteId, moveS1)).toEqual([]);

    const group = await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'G', sections: [s3!.id] },
      creator,
    );
    const before = { before: { type: 'site-section', id: s5!.id } };
    expect(await rowsWritten(siteId, () => sort({ type: 'site-section-group', id: group.id }, before))).toEqual([
      'group G',
    ]);
    const intoGroup = () =>
      call(
        ops.updateSiteSectionById,
        { organizationId: ORG, siteId, siteSectionId: s2!.id, siteSectionGroupId: group.id },
        creator,
      );
    expect(await rowsWritten(siteId, intoGroup)).toEqual(['section S2']);
    expect(await structure(siteId)).toEqual([{ G: ['S3', 'S2'] }, 'S5', 'S4', 'S1']);

    // Site spaces within their section.
    const added = [];
    for (const title of ['V1', 'V2', 'V3']) {
      const space = await buildSpace(p.content, { org: ORG, title, as: admin });
      added.push(
        await call(ops.addSpaceToSite, { organizationId: ORG, siteId, spaceId: space.id, sectionId: s4!.id }, creator),
      );
    }
    const v3 = added[2]!;
    const top = { before: { type: 'site-space', id: s4!.siteSpaces[0]!.id } };
    expect(await rowsWritten(siteId, () => sort({ type: 'site-space', id: v3.id }, top))).toEqual([
      `site space ${v3.id}`,
    ]);
    const shown = await call(ops.listSiteSections, { organizationId: ORG, siteId }, reader);
    expect(shown.items.find((s) => s.id === s4!.id)!.siteSpaces.map((s) => s.space?.title)).toEqual([
      'V3',
      'S4',
      'V1',
      'V2',
    ]);
  });

  it('pages the sections in navigation order, through groups', async () => {
    const { siteId, sections } = await siteWithSections('Pages', ['P1', 'P2', 'P3', 'P4', 'P5']);
    const outer = await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'Outer', sections: [sections[4]!.id, sections[0]!.id] },
      creator,
    );
    await call(
      ops.addSectionGroupToSite,
      { organizationId: ORG, siteId, title: 'Inner', parent: outer.id, sections: [sections[2]!.id] },
      creator,
    );
    await call(
      ops.sortSiteStructure,
      {
        organizationId: ORG,
        siteId,
        item: { type: 'site-section-group', id: outer.id },
        position: { before: { type: 'site-section', id: sections[1]!.id } },
      },
      creator,
    );
    expect(await structure(siteId)).toEqual([{ Outer: ['P5', 'P1', { Inner: ['P3'] }] }, 'P2', 'P4']);
    const titles: string[] = [];
    let page: string | undefined;
    do {
      const list = await call(ops.listSiteSections, { organizationId: ORG, siteId, limit: 2, page }, reader);
      titles.push(...list.items.map((s) => s.title));
      page = list.next?.page;
    } while (page);
    expect(titles).toEqual(['P5', 'P1', 'P3', 'P2', 'P4']);
  });
});
