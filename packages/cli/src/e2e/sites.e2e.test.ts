import { SiteVisibility } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { adaptiveSchemaOf } from '../../../../services/sites/src/modules/adaptive/adaptive-schema.testing.ts';
import { addUser, apiError, type Boot, bootstrap, http, type Seat, usePlatform } from './harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls for up to `ms` until `check` holds; resolves to how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}

const adaptiveSchema = adaptiveSchemaOf({ isBetaUser: 'Beta testers' }, { isEnterprise: 'Enterprise customers' });

describe('sites through the gateway with the official client', () => {
  const p = usePlatform();
  let acme: Boot;
  let beta: Boot;
  let rita: { token: string; user: { id: string } };
  let cleo: Seat;

  beforeAll(async () => {
    acme = await bootstrap(p, 'Acme', 'ann@acme.io', 'Ann');
    beta = await bootstrap(p, 'Beta', 'bob@beta.io', 'Bob');
    rita = await addUser(p, acme.organization.id, 'rita@acme.io', 'read');
    cleo = await addUser(p, acme.organization.id, 'cleo@acme.io', 'create');
  });

  it('serves sites, sections, site spaces and the structure to the official client', async () => {
    const api = p.client(cleo.token);
    const org = acme.organization.id;
    const guide = (await api.orgs.createSpace(org, { title: 'Guide' })).data;
    const apiRef = (await api.orgs.createSpace(org, { title: 'API' })).data;
    const changelog = (await api.orgs.createSpace(org, { title: 'Changelog' })).data;

    const created = await api.orgs.createSite(org, { title: 'Developer docs', spaces: [guide.id] });
    expect(created.status).toBe(201);
    const site = created.data;
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Developer docs',
      basename: 'developer-docs',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      agentsContext: 'included',
    });
    expect((await api.orgs.getSiteById(org, site.id)).data.id).toBe(site.id);

    // Site spaces go to the root while there is no section.
    const ssApi = await api.orgs.addSpaceToSite(org, site.id, { spaceId: apiRef.id });
    expect(ssApi.status).toBe(201);
    expect(ssApi.data).toMatchObject({
      object: 'site-space',
      path: 'api',
      default: false,
      space: { id: apiRef.id, title: 'API' },
    });
    let structure = (await api.orgs.getSiteStructure(org, site.id)).data;
    expect(structure.type).toBe('siteSpaces');

    // The first section takes the root site spaces in; later site spaces go to the default section.
    const section = await api.orgs.addSectionToSite(org, site.id, { spaceId: changelog.id, title: 'Releases' });
    expect(section.status).toBe(201);
    expect(section.data).toMatchObject({ object: 'site-section', title: 'Releases', path: 'releases', default: true });
    expect(section.data.siteSpaces.map((s) => s.space.id)).toEqual([changelog.id, guide.id, apiRef.id]);
    const second = (await api.orgs.addSectionToSite(org, site.id, { spaceId: guide.id, title: 'Guides', icon: 'book' }))
      .data;
    const extra = (await api.orgs.createSpace(org, { title: 'Extra' })).data;
    const ssExtra = (await api.orgs.addSpaceToSite(org, site.id, { spaceId: extra.id })).data;
    expect(ssExtra.section).toBe(section.data.id);
    const ssInSecond = (await api.orgs.addSpaceToSite(org, site.id, { spaceId: extra.id, sectionId: second.id })).data;
    expect(ssInSecond).toMatchObject({ section: second.id, default: false });

    // Sorting (and the deprecated moves).
    const sorted = await api.orgs.sortSiteStructure(org, site.id, {
      item: { type: 'site-section', id: second.id },
      position: { before: { type: 'site-section', id: section.data.id } },
    });
    expect(sorted.status).toBe(200);
    await api.orgs.sortSiteStructure(org, site.id, {
      item: { type: 'site-space', id: ssExtra.id },
      position: { after: { type: 'site-space', id: section.data.siteSpaces[0]!.id } },
    });
    structure = (await api.orgs.getSiteStructure(org, site.id)).data;
    if (structure.type !== 'sections') throw new Error('expected sections');
    expect(structure.structure.map((s) => s.id)).toEqual([second.id, section.data.id]);
    const releases = structure.structure[1]!;
    if (!('siteSpaces' in releases)) throw new Error('expected a section');
    expect(releases.siteSpaces.map((s) => s.space.title)).toEqual(['Changelog', 'Extra', 'Guide', 'API']);
    const movedSection = await api.orgs.moveSiteSection(org, site.id, second.id, {
      position: { after: { type: 'site-section', siteSection: section.data.id } },
    });
    expect(movedSection.data.id).toBe(second.id);
    const movedSpace = await api.orgs.moveSiteSpace(org, site.id, ssExtra.id, {});
    expect(movedSpace.data.id).toBe(ssExtra.id);
    const sections = (await api.orgs.listSiteSections(org, site.id)).data;
    expect(sections.items.map((s) => s.id)).toEqual([section.data.id, second.id]);
    expect(sections.items[0]!.siteSpaces.map((s) => s.space.title)).toEqual(['Changelog', 'Guide', 'API', 'Extra']);
    expect(
      await apiError(
        api.orgs.sortSiteStructure(org, site.id, {
          item: { type: 'site-space', id: ssExtra.id },
          position: { before: { type: 'site-space', id: ssInSecond.id } },
        }),
      ),
    ).toEqual({
      code: 400,
      message: `position.before: ${ssInSecond.id} is not a sibling of the item`,
    });

    // Defaults: exactly one per level; the `default` filter.
    const guideInReleases = sections.items[0]!.siteSpaces[1]!;
    expect(await apiError(api.orgs.updateSiteById(org, site.id, { defaultSiteSpace: ssInSecond.id }))).toEqual({
      code: 400,
      message: `defaultSiteSpace: site space ${ssInSecond.id} is not in the default section`,
    });
    expect(await apiError(api.orgs.updateSiteById(org, site.id, { defaultSiteSection: 'nope' }))).toEqual({
      code: 400,
      message: 'defaultSiteSection: no section nope on this site',
    });
    await api.orgs.updateSiteById(org, site.id, { defaultSiteSpace: guideInReleases.id });
    expect((await api.orgs.listSiteSpaces(org, site.id, { default: true })).data.items.map((s) => s.id)).toEqual([
      guideInReleases.id,
    ]);
    const others = (await api.orgs.listSiteSpaces(org, site.id, { default: false })).data;
    expect(others.count).toBe(5);
    expect(others.items.map((s) => s.id)).not.toContain(guideInReleases.id);
    await api.orgs.updateSiteById(org, site.id, { defaultSiteSection: second.id });
    const afterDefault = (await api.orgs.listSiteSections(org, site.id)).data.items;
    expect(afterDefault.map((s) => s.default)).toEqual([false, true]);
    expect(afterDefault.map((s) => s.siteSpaces.filter((x) => x.default).length)).toEqual([1, 1]);

    // PATCH and DELETE of sections and site spaces.
    const patchedSection = await api.orgs.updateSiteSectionById(org, site.id, second.id, {
      title: 'How-to guides',
      path: 'how-to',
      description: 'Step by step',
    });
    expect(patchedSection.data).toMatchObject({
      title: 'How-to guides',
      path: 'how-to',
      description: 'Step by step',
      icon: 'book',
    });
    expect(await apiError(api.orgs.updateSiteSectionById(org, site.id, second.id, { path: 'releases' }))).toEqual({
      code: 409,
      message: 'path: another section of the site already uses "releases"',
    });
    const patchedSpace = await api.orgs.updateSiteSpaceById(org, site.id, ssInSecond.id, {
      path: 'extras',
      spaceId: changelog.id,
    });
    expect(patchedSpace.data).toMatchObject({ path: 'extras', space: { id: changelog.id } });
    expect(await apiError(api.orgs.updateSiteSpaceById(org, site.id, ssInSecond.id, { path: 'guide' }))).toMatchObject({
      code: 409,
    });
    expect((await api.orgs.deleteSiteSpaceById(org, site.id, ssInSecond.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionById(org, site.id, second.id)).status).toBe(205);
    const left = (await api.orgs.listSiteSections(org, site.id)).data.items;
    expect(left.map((s) => [s.id, s.default])).toEqual([[section.data.id, true]]);
    expect((await api.orgs.getSiteById(org, site.id)).data.siteSpaces).toBe(4);

    // Settings, publish, unpublish, the list filters, delete by an admin only.
    const patched = await api.orgs.updateSiteById(org, site.id, {
      title: 'Dev docs',
      basename: 'dev',
      adaptiveContent: { enabled: true },
      proxy: 'example.com/docs',
    });
    expect(patched.data).toMatchObject({
      title: 'Dev docs',
      basename: 'dev',
      adaptiveContent: { enabled: true },
      proxy: { origin: 'example.com/docs', target: 'http://quire.test/sites/dev' },
    });
    // `agentsContext` is in api.md, not in the official client's types: raw HTTP.
    expect(
      (await http(p, cleo.token)('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { agentsContext: 'excluded' })).json,
    ).toMatchObject({ agentsContext: 'excluded' });
    const published = await api.orgs.publishSite(org, site.id);
    expect(published.data).toMatchObject({ published: true, urls: { published: 'http://quire.test/sites/dev' } });
    const call = http(p, cleo.token);
    const host = await call('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { hostname: 'docs.acme.io' });
    // Claimed, not yet proven by DNS (published-sites.e2e.test.ts proves one): served on the instance only.
    expect(host.json).toMatchObject({ hostname: 'docs.acme.io', urls: { published: 'http://quire.test/sites/dev' } });
    // An unproven claim blocks no other organization.
    const betaSite = (await p.client(beta.token).orgs.createSite(beta.organization.id, { title: 'Beta docs' })).data;
    expect(
      (
        await http(p, beta.token)('PATCH', `/v1/orgs/${beta.organization.id}/sites/${betaSite.id}`, {
          hostname: 'docs.acme.io',
        })
      ).json,
    ).toMatchObject({ hostname: 'docs.acme.io' });
    const other = (await api.orgs.createSite(org, { title: 'Internal' })).data;
    expect((await api.orgs.listSites(org, { published: true })).data.items.map((s) => s.id)).toEqual([site.id]);
    expect((await api.orgs.listSites(org, { published: false })).data.items.map((s) => s.id)).toEqual([other.id]);
    expect((await api.orgs.listSites(org, { title: 'intern' })).data.items.map((s) => s.id)).toEqual([other.id]);
    expect((await api.orgs.listSites(org, { space: apiRef.id })).data.items.map((s) => s.id)).toEqual([site.id]);
    expect(await apiError(api.orgs.updateSiteById(org, other.id, { basename: 'dev' }))).toEqual({
      code: 409,
      message: 'basename: another site already uses "dev"',
    });
    expect((await api.orgs.unpublishSite(org, site.id)).data.published).toBe(false);
    expect(await apiError(api.orgs.deleteSiteById(org, other.id))).toMatchObject({ code: 403 });
    expect((await p.client(acme.token).orgs.deleteSiteById(org, other.id)).status).toBe(205);
    expect(await apiError(api.orgs.getSiteById(org, other.id))).toMatchObject({ code: 404 });

    // `spaces: 'new'` asks the content service for a new space, as the caller.
    const fresh = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Fresh', spaces: 'new' });
    expect(fresh.status).toBe(201);
    const freshSpaces = (await api.orgs.listSiteSpaces(org, fresh.json.id)).data.items;
    expect(freshSpaces.map((s) => [s.space.title, s.space.organization, s.default])).toEqual([['Fresh', org, true]]);
  });

  it('answers 400 naming the field for every limit and pattern', async () => {
    const call = http(p, acme.token);
    const org = acme.organization.id;
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Limits' })).json;
    const site = (await call('POST', `/v1/orgs/${org}/sites`, { title: 'Limits', spaces: [space.id] })).json;
    const base = `/v1/orgs/${org}/sites/${site.id}`;
    const section = (await call('POST', `${base}/sections`, { spaceId: space.id })).json;
    const ss = section.siteSpaces[0];
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', `/v1/orgs/${org}/sites`, { title: 'x' }, /title: Too small/],
      ['POST', `/v1/orgs/${org}/sites`, { title: 'x'.repeat(129) }, /title: Too big/],
      ['POST', `/v1/orgs/${org}/sites`, { type: 'gold' }, /type/],
      ['POST', `/v1/orgs/${org}/sites`, { visibility: 'private' }, /visibility/],
      ['POST', `/v1/orgs/${org}/sites`, { spaces: 'old' }, /spaces/],
      [
        'POST',
        `/v1/orgs/${org}/sites`,
        { spaces: ['nope'] },
        /^spaces: no space nope in this organization that you can read$/,
      ],
      ['PATCH', base, { basename: '' }, /basename: Too small/],
      ['PATCH', base, { basename: 'b'.repeat(101) }, /basename: Too big/],
      ['PATCH', base, { hostname: 'localhost' }, /hostname/],
      ['PATCH', base, { hostname: `${'a'.repeat(300)}.${'b'.repeat(300)}.com` }, /hostname/],
      ['PATCH', base, { proxy: 'not a proxy' }, /proxy/],
      ['PATCH', base, { agentsContext: 'maybe' }, /agentsContext/],
      ['PATCH', base, { defaultSiteSpace: 'nope' }, /^defaultSiteSpace: no site space nope on this site$/],
      ['POST', `${base}/sections`, { spaceId: space.id, title: 'x' }, /title: Too small/],
      ['POST', `${base}/sections`, { spaceId: space.id, icon: 'i'.repeat(51) }, /icon: Too big/],
      ['POST', `${base}/sections`, {}, /spaceId/],
      ['PATCH', `${base}/sections/${section.id}`, { path: '' }, /path: Too small/],
      ['PATCH', `${base}/sections/${section.id}`, { path: 'p'.repeat(101) }, /path: Too big/],
      ['PATCH', `${base}/sections/${section.id}`, { condition: '' }, /condition: Too small/],
      ['PATCH', `${base}/sections/${section.id}`, { condition: 'c'.repeat(1025) }, /condition: Too big/],
      ['PATCH', `${base}/sections/${section.id}`, { description: 'd'.repeat(257) }, /description: Too big/],
      [
        'PATCH',
        `${base}/sections/${section.id}`,
        { defaultSiteSpace: 'nope' },
        /^defaultSiteSpace: no site space nope in this section$/,
      ],
      ['PATCH', `${base}/site-spaces/${ss.id}`, { path: 'p'.repeat(101) }, /path: Too big/],
      ['PATCH', `${base}/site-spaces/${ss.id}`, { condition: 'c'.repeat(1025) }, /condition: Too big/],
      [
        'POST',
        `${base}/site-spaces`,
        { spaceId: space.id, sectionId: 'nope' },
        /^sectionId: no section nope on this site$/,
      ],
      ['POST', `${base}/share-links`, { name: 'n'.repeat(51) }, /name: Too big/],
      ['POST', `${base}/share-links`, {}, /name/],
      ['PATCH', `${base}/structure/sort`, { item: { type: 'page', id: ss.id } }, /item.type/],
      ['GET', `/v1/orgs/${org}/sites?limit=1001`, undefined, /limit: Too big/],
      ['GET', `/v1/orgs/${org}/sites?published=maybe`, undefined, /published/],
      ['GET', `${base}/site-spaces?default=maybe`, undefined, /default/],
      ['GET', `${base}/sections?page=WyJ4Il0`, undefined, /Invalid `page`/],
      [
        'PUT',
        `${base}/adaptive-schema`,
        { jsonSchema: { type: 'object', properties: {}, additionalProperties: true } },
        /^jsonSchema.additionalProperties: must be false$/,
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json, `${method} ${path}`).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
    }
    // At the limits is fine.
    expect((await call('PATCH', base, { title: 't'.repeat(128), basename: 'b'.repeat(100) })).status).toBe(200);
    expect(
      (
        await call('PATCH', `${base}/sections/${section.id}`, {
          path: 'p'.repeat(100),
          description: 'd'.repeat(256),
          icon: 'i'.repeat(50),
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `${base}/share-links`, { name: 'n'.repeat(50) })).status).toBe(201);
  });

  it('validates the adaptive schema, derives template conditions, and checks conditions', async () => {
    const api = p.client(cleo.token);
    const org = acme.organization.id;
    const space = (await api.orgs.createSpace(org, { title: 'Adaptive' })).data;
    const site = (await api.orgs.createSite(org, { title: 'Adaptive site', spaces: [space.id] })).data;
    const section = (await api.orgs.addSectionToSite(org, site.id, { spaceId: space.id })).data;
    const empty = (await api.orgs.getSiteAdaptiveSchema(org, site.id)).data;
    expect(empty).toMatchObject({
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
    });
    // Any condition of 1..1024 characters is accepted, even one naming a claim the schema does not declare (yet).
    expect(
      (
        await api.orgs.updateSiteSectionById(org, site.id, section.id, {
          condition: 'visitor.claims.unsigned.isBetaUser',
        })
      ).data.condition,
    ).toBe('visitor.claims.unsigned.isBetaUser');
    expect(
      await apiError(api.orgs.updateSiteSectionById(org, site.id, section.id, { condition: 'x'.repeat(1025) })),
    ).toMatchObject({ code: 400 });
    const bad = { ...adaptiveSchema, properties: { plan: { type: 'string', description: 'Plan' } } };
    expect(await apiError(api.orgs.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: bad as never }))).toEqual({
      code: 400,
      message: 'jsonSchema.properties.plan.type: an attribute must be of type "boolean" (or an object of attributes)',
    });
    expect(
      await apiError(
        api.orgs.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: { ...adaptiveSchema, required: 5 } as never }),
      ),
    ).toMatchObject({ code: 400, message: expect.stringMatching(/^jsonSchema: not a valid JSON Schema draft-07/) });
    expect(
      await apiError(
        p.client(rita.token).orgs.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: adaptiveSchema as never }),
      ),
    ).toMatchObject({ code: 403 });

    const saved = await api.orgs.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: adaptiveSchema as never });
    expect(saved.status).toBe(200);
    expect(saved.data.jsonSchema).toEqual(adaptiveSchema);
    expect((await api.orgs.getSiteAdaptiveSchema(org, site.id)).data.jsonSchema).toEqual(adaptiveSchema);
    expect((await api.orgs.listSiteAdaptiveTemplateConditions(org, site.id)).data.items).toEqual([
      { description: 'Beta testers', condition: 'visitor.claims.unsigned.isBetaUser' },
      { description: 'Enterprise customers', condition: 'visitor.claims.isEnterprise' },
    ]);
    const withCondition = await api.orgs.updateSiteSectionById(org, site.id, section.id, {
      condition: 'visitor.claims.unsigned.isBetaUser && !visitor.claims.isEnterprise',
    });
    expect(withCondition.data.condition).toBe('visitor.claims.unsigned.isBetaUser && !visitor.claims.isEnterprise');
    expect((await api.orgs.updateSiteSectionById(org, site.id, section.id, { title: 'Kept' })).data.condition).toBe(
      'visitor.claims.unsigned.isBetaUser && !visitor.claims.isEnterprise',
    );
    expect(
      (await api.orgs.updateSiteSectionById(org, site.id, section.id, { condition: null })).data.condition,
    ).toBeUndefined();
    const ss = section.siteSpaces[0]!;
    expect(
      (await api.orgs.updateSiteSpaceById(org, site.id, ss.id, { condition: 'visitor.claims.isEnterprise' })).data
        .condition,
    ).toBe('visitor.claims.isEnterprise');
    expect(
      (await api.orgs.updateSiteSpaceById(org, site.id, ss.id, { condition: 'visitor.claims.unsigned.isGold' })).data
        .condition,
    ).toBe('visitor.claims.unsigned.isGold');
  });

  it('opens share-link sites with active keys only (published view, lists, GET /v1/spaces/{id})', async () => {
    const api = p.client(cleo.token);
    const reader = p.client(rita.token);
    const org = acme.organization.id;
    const space = (await api.orgs.createSpace(org, { title: 'Partner docs' })).data;
    const site = (
      await api.orgs.createSite(org, { title: 'Partners', visibility: SiteVisibility.ShareLink, spaces: [space.id] })
    ).data;
    await api.orgs.publishSite(org, site.id);
    const link = await api.orgs.createSiteShareLink(org, site.id, { name: 'Partner A' });
    expect(link.status).toBe(201);
    expect(link.data).toMatchObject({ object: 'share-link', name: 'Partner A', active: true });
    const key = new URL(link.data.urls.published!).searchParams.get('share')!;
    expect(key).toMatch(/^[0-9A-Za-z]{32}$/);

    expect(await apiError(reader.orgs.getPublishedContentSite(org, site.id))).toMatchObject({ code: 404 });
    const view = await reader.orgs.getPublishedContentSite(org, site.id, { shareKey: key });
    expect(view.data).toMatchObject({
      object: 'published-content-site',
      site: { id: site.id, published: true, urls: { published: `http://quire.test/sites/partners?share=${key}` } },
    });
    expect(view.data.structure).toMatchObject({
      type: 'siteSpaces',
      structure: [{ space: { id: space.id }, urls: { published: `http://quire.test/sites/partners?share=${key}` } }],
    });
    expect((await reader.spaces.getSpaceById(space.id, { shareKey: key })).data.urls.published).toBe(
      `http://quire.test/sites/partners?share=${key}`,
    );
    expect((await reader.orgs.listSiteSpaces(org, site.id, { shareKey: key })).data.items[0]!.urls.published).toBe(
      `http://quire.test/sites/partners?share=${key}`,
    );
    expect((await reader.orgs.listSiteSpaces(org, site.id, { shareKey: 'wrong' })).data.items[0]!.urls.published).toBe(
      'http://quire.test/sites/partners',
    );

    // Inactive: the key opens nothing; active again: it does.
    const off = await api.orgs.updateSiteShareLinkById(org, site.id, link.data.id, { active: false });
    expect(off.data.active).toBe(false);
    expect(await apiError(reader.orgs.getPublishedContentSite(org, site.id, { shareKey: key }))).toMatchObject({
      code: 404,
    });
    expect((await reader.spaces.getSpaceById(space.id, { shareKey: key })).data.urls.published).toBeUndefined();
    await api.orgs.updateSiteShareLinkById(org, site.id, link.data.id, { active: true, name: 'Partner A (EU)' });
    expect((await reader.orgs.getPublishedContentSite(org, site.id, { shareKey: key })).status).toBe(200);
    const links = (await api.orgs.listSiteShareLinks(org, site.id)).data;
    expect(links.items.map((l) => [l.name, l.active, l.urls.published])).toEqual([
      ['Partner A (EU)', true, link.data.urls.published],
    ]);
    expect(await apiError(reader.orgs.listSiteShareLinks(org, site.id))).toMatchObject({ code: 403 });
    expect(await apiError(reader.orgs.createSiteShareLink(org, site.id, { name: 'Mine' }))).toMatchObject({
      code: 403,
    });

    // Deleted: the key opens nothing.
    expect((await api.orgs.deleteSiteShareLinkById(org, site.id, link.data.id)).status).toBe(205);
    expect(await apiError(reader.orgs.getPublishedContentSite(org, site.id, { shareKey: key }))).toMatchObject({
      code: 404,
    });
    expect((await reader.spaces.getSpaceById(space.id, { shareKey: key })).data.urls.published).toBeUndefined();

    // A public site: the published view while published only.
    const open = (await api.orgs.createSite(org, { title: 'Open docs', spaces: [space.id] })).data;
    expect(await apiError(reader.orgs.getPublishedContentSite(org, open.id))).toMatchObject({ code: 404 });
    await api.orgs.publishSite(org, open.id);
    const openView = (await reader.orgs.getPublishedContentSite(org, open.id)).data;
    expect(openView.structure).toMatchObject({
      type: 'siteSpaces',
      structure: [{ default: true, urls: { published: 'http://quire.test/sites/open-docs' } }],
    });
  });

  it('hides a deleted space from its site within a second and shows it again on restore', async () => {
    const api = p.client(acme.token);
    const org = acme.organization.id;
    const keep = (await api.orgs.createSpace(org, { title: 'Keep' })).data;
    const trash = (await api.orgs.createSpace(org, { title: 'Trash' })).data;
    const site = (await api.orgs.createSite(org, { title: 'Lifecycle', spaces: [trash.id, keep.id] })).data;
    await api.orgs.publishSite(org, site.id);
    const shown = async () =>
      (await api.orgs.getPublishedContentSite(org, site.id)).data.structure.structure.map((s) =>
        'space' in s ? s.space.id : s.id,
      );
    expect(await shown()).toEqual([trash.id, keep.id]);

    await api.spaces.deleteSpaceById(trash.id);
    await within(1_000, async () => (await shown()).length === 1);
    expect(await shown()).toEqual([keep.id]);
    expect((await api.orgs.getSiteById(org, site.id)).data.siteSpaces).toBe(1);
    expect((await api.orgs.listSiteSpaces(org, site.id, { default: true })).data.items.map((s) => s.space.id)).toEqual([
      keep.id,
    ]);

    await api.spaces.restoreSpace(trash.id);
    await within(1_000, async () => (await shown()).length === 2);
    expect(await shown()).toEqual([trash.id, keep.id]);
    expect((await api.orgs.listSiteSpaces(org, site.id, { default: true })).data.items.map((s) => s.space.id)).toEqual([
      trash.id,
    ]);
  });

  it('lets read members read but not change sites, and refuses another organization', async () => {
    const org = acme.organization.id;
    const site = (await p.client(cleo.token).orgs.createSite(org, { title: 'Guarded' })).data;
    const space = (await p.client(cleo.token).orgs.createSpace(org, { title: 'Guarded space' })).data;
    const reader = p.client(rita.token);
    expect((await reader.orgs.getSiteById(org, site.id)).data.permissions).toMatchObject({
      view: true,
      edit: false,
      create: false,
      admin: false,
    });
    const readable = (await reader.orgs.listSites(org)).data;
    expect(readable.items.map((s) => s.id)).toContain(site.id);
    // Member.sites is the real count, asked of the sites service.
    expect((await reader.orgs.getMemberInOrganizationById(org, rita.user.id)).data.sites).toBe(readable.count);
    expect(await apiError(reader.orgs.createSite(org, { title: 'Mine' }))).toEqual({
      code: 403,
      message: 'Creating a site needs the `create` role in the organization',
    });
    expect(await apiError(reader.orgs.updateSiteById(org, site.id, { title: 'Mine' }))).toEqual({
      code: 403,
      message: 'Changing the site settings needs the `create` role on the site',
    });
    expect(await apiError(reader.orgs.publishSite(org, site.id))).toMatchObject({ code: 403 });
    expect(await apiError(reader.orgs.addSpaceToSite(org, site.id, { spaceId: space.id }))).toEqual({
      code: 403,
      message: 'Changing the site structure needs the `create` role on the site',
    });
    expect(await apiError(reader.orgs.addSectionToSite(org, site.id, { spaceId: space.id }))).toMatchObject({
      code: 403,
    });
    expect(await apiError(reader.orgs.deleteSiteById(org, site.id))).toMatchObject({ code: 403 });

    const stranger = p.client(beta.token);
    const calls: (() => Promise<unknown>)[] = [
      () => stranger.orgs.listSites(org),
      () => stranger.orgs.getSiteById(org, site.id),
      () => stranger.orgs.updateSiteById(org, site.id, { title: 'Theirs' }),
      () => stranger.orgs.deleteSiteById(org, site.id),
      () => stranger.orgs.getSiteStructure(org, site.id),
      () => stranger.orgs.listSiteSpaces(org, site.id),
      () => stranger.orgs.listSiteSections(org, site.id),
      () => stranger.orgs.listSiteShareLinks(org, site.id),
      () => stranger.orgs.getSiteAdaptiveSchema(org, site.id),
      () => stranger.orgs.getPublishedContentSite(org, site.id),
      () => stranger.orgs.getSiteById(beta.organization.id, site.id),
    ];
    for (const c of calls) expect(await apiError(c())).toMatchObject({ code: 404 });
  });
});
