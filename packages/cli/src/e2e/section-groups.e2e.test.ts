import type { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeAndOther, apiError, startPlatform, type Boot, type Platform } from './harness.ts';
import { publishDemoSite, spaceWithPage } from './published-sites.fixtures.ts';

let p: Platform;
let acme: Boot;
let other: Boot;
let reader: { token: string };
let api: GitBookAPI;
let org: string;
let demo: Awaited<ReturnType<typeof publishDemoSite>>;

beforeAll(async () => {
  p = await startPlatform();
  ({ acme, other, reader } = await acmeAndOther(p));
  api = p.client(acme.token);
  org = acme.organization.id;
  demo = await publishDemoSite(api, org, 'Grouped Docs');
}, 180_000);
afterAll(async () => {
  await p?.stop();
});

/** GET a page of the site on the gateway (its `urls.published` is on the public URL, http://quire.test). */
async function open(url: string) {
  const res = await fetch(url.replace('http://quire.test', p.url));
  return { status: res.status, text: await res.text() };
}

describe('section groups and customization through the official client', () => {
  it('groups sections, shows the group in the structure and on the published site', async () => {
    const siteId = demo.site.id;
    const changelog = await spaceWithPage(api, org, 'Changelog', {
      title: 'Releases',
      markdown: 'Version 2 is out.\n',
    });
    const sections = (await api.orgs.listSiteSections(org, siteId)).data.items;
    const reference = sections.find((s) => s.title === 'API Reference')!;
    const group = (await api.orgs.addSectionGroupToSite(org, siteId, { title: 'Reference', sections: [reference.id] }))
      .data;
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Reference', draft: false });
    const added = (
      await api.orgs.addSectionToSite(org, siteId, {
        spaceId: changelog.id,
        title: 'Changelog',
        siteSectionGroupId: group.id,
      } as never)
    ).data;
    expect(added.sectionGroup).toBe(group.id);
    const structure = (await api.orgs.getSiteStructure(org, siteId)).data;
    expect(structure.type).toBe('sections');
    const root = structure.structure as { object: string; title: string; children?: { title: string }[] }[];
    expect(root.map((i) => [i.object, i.title])).toEqual([
      ['site-section', 'Guide'],
      ['site-section-group', 'Reference'],
    ]);
    expect(root[1]!.children!.map((c) => c.title)).toEqual(['API Reference', 'Changelog']);
    const listed = (await api.orgs.listSiteSectionGroups(org, siteId)).data;
    expect(listed.items.map((g) => g.id)).toEqual([group.id]);

    // The published site shows the group as a tab whose menu opens the sections: at once (the cache was evicted).
    const home = await open(demo.site.urls.published!);
    expect(home.text).toMatch(
      /<li class="section-group"><details><summary>Reference<\/summary><ul class="group-menu"><li><a href="[^"]*\/api-reference">API Reference<\/a><\/li><li><a href="[^"]*\/changelog">Changelog<\/a><\/li><\/ul><\/details><\/li>/,
    );
    const inGroup = await open(`${demo.site.urls.published}/changelog`);
    expect(inGroup.status).toBe(200);
    expect(inGroup.text).toContain('<h1>Releases</h1>');
    expect(inGroup.text).toContain('<li class="section-group current">');

    // Renamed, moved before Guide, then deleted: its sections stay, in its place.
    await api.orgs.updateSiteSectionGroupById(org, siteId, group.id, { title: 'Reference docs' });
    await api.orgs.moveSiteSectionGroup(org, siteId, group.id, {
      position: { before: { type: 'site-section', id: sections.find((s) => s.title === 'Guide')!.id } },
    });
    const moved = (await api.orgs.getSiteStructure(org, siteId)).data.structure as { title: string }[];
    expect(moved.map((i) => i.title)).toEqual(['Reference docs', 'Guide']);
    expect((await open(demo.site.urls.published!)).text).toContain('<summary>Reference docs</summary>');
    await api.orgs.deleteSiteSectionGroupById(org, siteId, group.id);
    const flat = (await api.orgs.getSiteStructure(org, siteId)).data.structure as { title: string }[];
    expect(flat.map((i) => i.title)).toEqual(['API Reference', 'Changelog', 'Guide']);
  });

  it('refuses bad input with the field named, a read member with 403, another organization with 404', async () => {
    const siteId = demo.site.id;
    const bad = await apiError(api.orgs.addSectionGroupToSite(org, siteId, { title: 'G', sections: ['nope'] }));
    expect(bad).toEqual({ code: 400, message: 'sections: no section nope on this site' });
    const title = await apiError(api.orgs.addSectionGroupToSite(org, siteId, { title: '' }));
    expect(title.code).toBe(400);
    expect(title.message).toMatch(/title/);
    const colour = await apiError(
      api.orgs.updateSiteCustomizationById(org, siteId, {
        styling: { primaryColor: { light: 'url(javascript:x)', dark: '#000' } },
      } as never),
    );
    expect(colour.code).toBe(400);
    expect(colour.message).toMatch(/styling\.primaryColor\.light/);
    const asReader = p.client(reader.token);
    expect((await apiError(asReader.orgs.addSectionGroupToSite(org, siteId, { title: 'G' }))).code).toBe(403);
    expect((await apiError(asReader.orgs.updateSiteCustomizationById(org, siteId, {} as never))).code).toBe(403);
    expect((await asReader.orgs.getSiteCustomizationById(org, siteId)).data.styling.theme).toBe('clean');
    const asOther = p.client(other.token);
    expect((await apiError(asOther.orgs.listSiteSectionGroups(org, siteId))).code).toBe(404);
    expect((await apiError(asOther.orgs.getSiteCustomizationById(org, siteId))).code).toBe(404);
  });

  it('customizes the site and a site space: title, icon and colour on the pages, escaped and checked', async () => {
    const siteId = demo.site.id;
    const defaults = (await api.orgs.getSiteCustomizationById(org, siteId)).data;
    expect(defaults.updatedAt).toBeUndefined();
    expect(defaults.favicon).toEqual({});
    const set = (
      await api.orgs.updateSiteCustomizationById(org, siteId, {
        title: 'Acme <Docs>',
        favicon: { emoji: '🚀' },
        styling: { primaryColor: { light: '#0B6E4F', dark: '#6FD3A8' } },
        header: {
          links: [
            { title: 'Status', to: { kind: 'url', url: 'https://status.acme.test' }, links: [] },
            { title: 'Bad', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] },
          ],
        },
        footer: { copyright: '© Acme "Cloud"' },
      } as never)
    ).data;
    expect(set.title).toBe('Acme <Docs>');
    expect(set.styling.theme).toBe('clean');
    expect(set.updatedAt).toEqual(expect.any(String));
    const home = await open(demo.site.urls.published!);
    expect(home.text).toContain('<title>Introduction | Acme &lt;Docs&gt;</title>');
    expect(home.text).toContain('<span class="site-logo site-logo-emoji" aria-hidden="true">🚀</span>');
    expect(home.text).toContain('<link rel="icon" href="data:image/svg+xml,');
    expect(home.text).toContain(':root{--accent:#0B6E4F;--current:#0B6E4F;}');
    expect(home.text).toContain('<a class="header-link link" href="https://status.acme.test">Status</a>');
    expect(home.text).not.toContain('javascript:');
    expect(home.text).toContain('<p class="copyright">© Acme &quot;Cloud&quot;</p>');

    // An override on the API Reference site space: its pages, not the others.
    const spaces = (await api.orgs.listSiteSpaces(org, siteId)).data.items;
    const ref = spaces.find((s) => s.space?.id === demo.reference.id)!;
    const over = (
      await api.orgs.overrideSiteSpaceCustomizationById(org, siteId, ref.id, {
        favicon: { icon: { light: 'http://quire.test/v1/icon.png?a=1&b=2', dark: 'https://elsewhere.test/icon.png' } },
        styling: { primaryColor: { light: '#AA0000', dark: '#FF8888' } },
      } as never)
    ).data;
    expect(over.styling.primaryColor).toEqual({ light: '#AA0000', dark: '#FF8888' });
    const refPage = await open(ref.urls.published!);
    expect(refPage.text).toContain('--accent:#AA0000');
    // The instance's own URL is drawn (escaped); the other origin is not loaded (the light one stands in).
    expect(refPage.text).toContain('<img class="site-logo site-logo-image" src="');
    expect(refPage.text).toContain('icon.png?a=1&amp;b=2');
    expect(refPage.text).not.toContain('elsewhere.test');
    expect((await open(demo.site.urls.published!)).text).toContain('--accent:#0B6E4F');
    const unsafe = await apiError(
      api.orgs.overrideSiteSpaceCustomizationById(org, siteId, ref.id, {
        favicon: { icon: { light: 'javascript:alert(1)', dark: 'data:text/html,x' } },
      } as never),
    );
    expect(unsafe.code).toBe(400);
    await api.orgs.deleteSiteSpaceCustomizationById(org, siteId, ref.id);
    expect((await open(ref.urls.published!)).text).toContain('--accent:#0B6E4F');
  });

  it('draws the announcement saved through /v1 on every page, a site space its own, and drops it when turned off', async () => {
    const siteId = demo.site.id;
    const spaces = (await api.orgs.listSiteSpaces(org, siteId)).data.items;
    const ref = spaces.find((s) => s.space?.id === demo.reference.id)!;
    // Read once first: the cached pages must follow the change.
    expect((await open(demo.site.urls.published!)).text).not.toContain('class="announcement');
    const saved = (
      await api.orgs.updateSiteCustomizationById(org, siteId, {
        announcement: {
          enabled: true,
          message: 'Version 2 is <out> & "ready"',
          style: 'success',
          link: { title: 'Read the notes', to: { kind: 'url', url: 'https://acme.test/notes?a=1&b=2' } },
        },
      } as never)
    ).data;
    expect(saved.announcement).toMatchObject({ enabled: true, style: 'success' });
    for (const url of [demo.site.urls.published!, ref.urls.published!]) {
      const page = (await open(url)).text;
      expect(page).toContain('<section class="announcement announcement-success" aria-label="Announcement"');
      expect(page).toContain(
        '<strong class="announcement-label">Success:</strong> Version 2 is &lt;out&gt; &amp; &quot;ready&quot; <a class="announcement-link" href="https://acme.test/notes?a=1&amp;b=2">Read the notes</a>',
      );
      expect(page).toContain('<button type="button" class="announcement-dismiss" hidden>');
    }

    // The API Reference site space says something else, a danger (not dismissable); the other pages keep the site's.
    await api.orgs.overrideSiteSpaceCustomizationById(org, siteId, ref.id, {
      announcement: { enabled: true, message: 'Maintenance tonight', style: 'danger' },
    } as never);
    const refPage = (await open(ref.urls.published!)).text;
    expect(refPage).toContain('<strong class="announcement-label">Important:</strong> Maintenance tonight</p>');
    expect(refPage).not.toContain('announcement-dismiss');
    expect((await open(demo.site.urls.published!)).text).toContain('Version 2 is &lt;out&gt;');

    await api.orgs.deleteSiteSpaceCustomizationById(org, siteId, ref.id);
    await api.orgs.updateSiteCustomizationById(org, siteId, {
      announcement: { enabled: false, message: 'Version 2 is out', style: 'info' },
    } as never);
    expect((await open(demo.site.urls.published!)).text).not.toContain('class="announcement');
    expect((await open(ref.urls.published!)).text).not.toContain('class="announcement');
  });
});
