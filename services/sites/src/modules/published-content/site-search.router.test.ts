import { describe, expect, it } from 'vitest';
import { ops } from '@quire/contracts';
import { eventually, failureOf } from '@quire/kit/testing';
import { orgActors, spaceWithPages, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';

const ORG = 'org-ss';
const { admin, reader, stranger } = orgActors(ORG, 'org-far');

// org-admin presents the authors of the change requests that write the test pages.
const p = useSitesAndContent('site-search', { orgAdmin: true });
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

/** A space whose live revision holds these pages (merged through a change request). */
const spaceWith = (title: string, pages: { title: string; markdown: string }[]) =>
  spaceWithPages(p, { org: ORG, title, as: admin }, pages);

describe('searchSiteContent', () => {
  it('finds pages of the site’s own spaces only, grouped by space, scoped by site space', async () => {
    const guide = await spaceWith('Guide', [{ title: 'Kayaks', markdown: 'Paddling a kayak on rivers.' }]);
    const api = await spaceWith('API', [{ title: 'Kayak endpoint', markdown: 'POST a kayak.' }]);
    const secret = await spaceWith('Internal', [{ title: 'Kayak margins', markdown: 'What each kayak costs us.' }]);
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [guide, api] }, admin);
    const [g, a] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, admin)).items;
    const where = { organizationId: ORG, siteId: site.id };
    // The org-wide search finds the internal space too: the site search must not.
    const indexed = async () =>
      (await p.content.call(ops.searchOrganizationContent, { organizationId: ORG, query: 'kayak' }, admin)).items
        .length === 3;
    await eventually(indexed, 10_000, 'the three spaces indexed');

    const all = await call(ops.searchSiteContent, { ...where, query: 'kayak' }, reader);
    expect(all.items.map((s) => s.id).sort()).toEqual([guide, api].sort());
    expect(all.items.flatMap((s) => s.pages.map((pg) => pg.title)).sort()).toEqual(['Kayak endpoint', 'Kayaks']);
    expect(all.count).toBe(2);
    expect(all.items[0]).toMatchObject({ type: 'space', title: expect.any(String), score: expect.any(Number) });
    expect(JSON.stringify(all)).not.toContain(secret);

    const specific = await call(
      ops.searchSiteContent,
      { ...where, query: 'kayak', scope: { mode: 'specific', siteSpaceIds: [a!.id] } },
      reader,
    );
    expect(specific.items.map((s) => s.id)).toEqual([api]);
    const legacy = await call(ops.searchSiteContent, { ...where, query: 'kayak', siteSpaceIds: [g!.id] }, reader);
    expect(legacy.items.map((s) => s.id)).toEqual([guide]);
    const current = await call(
      ops.searchSiteContent,
      { ...where, query: 'kayak', scope: { mode: 'default', currentSiteSpace: a!.id, restrictTo: 'otherSiteSpaces' } },
      reader,
    );
    expect(current.items.map((s) => s.id)).toEqual([guide]);
  });

  it('400 naming the field for a site space not on the site; 404 for another organization', async () => {
    const guide = await spaceWith('Guide 2', [{ title: 'Canoes', markdown: 'Canoe basics.' }]);
    const other = await call(ops.createSite, { organizationId: ORG, title: 'Other', spaces: [guide] }, admin);
    const [otherSpace] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: other.id }, admin)).items;
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Docs 2', spaces: [guide] }, admin);
    const where = { organizationId: ORG, siteId: site.id };
    const bad = await failureOf(
      call(
        ops.searchSiteContent,
        { ...where, query: 'canoe', scope: { mode: 'specific', siteSpaceIds: [otherSpace!.id] } },
        reader,
      ),
    );
    expect([bad.reason, bad.message]).toEqual(['invalid_input', expect.stringMatching(/scope\.siteSpaceIds/)]);
    expect((await failureOf(call(ops.searchSiteContent, { ...where, query: '' }, reader))).message).toMatch(/query/);
    expect((await failureOf(call(ops.searchSiteContent, { ...where, query: 'canoe' }, stranger))).reason).toBe(
      'not_found',
    );
  });
});
