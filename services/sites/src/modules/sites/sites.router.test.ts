import { describe, expect, it } from 'vitest';
import { ops, sectionsOfStructure, type Actor } from '@quire/contracts';
import { buildSpace, eventually, failureOf, userActor } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { adaptiveSchemaOf } from '../adaptive/adaptive-schema.testing.ts';

const ORG = 'org-s';
const { admin, creator, reader, stranger } = orgActors(ORG, 'org-other');
const guest = userActor('guest', [{ organization: ORG, role: null }]);

const p = useSitesAndContent('sites', { inProcessBus: true });
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);
const space = (title: string, as: Actor = admin) => buildSpace(p.content, { org: ORG, title, as });
type SiteSpacePatch = Omit<
  Parameters<typeof call<typeof ops.updateSiteSpaceById>>[1],
  'organizationId' | 'siteId' | 'siteSpaceId'
>;
/** Changes a site space as `creator`. */
const updateSiteSpace = (siteId: string, siteSpaceId: string, patch: SiteSpacePatch) =>
  call(ops.updateSiteSpaceById, { organizationId: ORG, siteId, siteSpaceId, ...patch }, creator);

describe('sites', () => {
  it('creates a site with its spaces as root site spaces, the first the default, and site.created', async () => {
    const a = await space('Guide');
    const b = await space('API Reference');
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [a.id, b.id] }, creator);
    expect(site).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Docs',
      basename: 'docs',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
      adaptiveContent: { enabled: false },
      agentsContext: 'included',
      permissions: { view: true, edit: true, create: true, admin: false },
      urls: {
        location: `http://quire.test/v1/orgs/${ORG}/sites/${site.id}`,
        app: `http://quire.test/o/${ORG}/sites/${site.id}`,
      },
    });
    expect(site.urls.published).toBeUndefined();
    const list = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, reader);
    expect(list.items.map((s) => [s.space?.id, s.path, s.default, s.title])).toEqual([
      [a.id, 'guide', true, 'Guide'],
      [b.id, 'api-reference', false, 'API Reference'],
    ]);
    expect(list.items[0]!.space).toMatchObject({
      object: 'space',
      title: 'Guide',
      permissions: { view: true, admin: false },
    });
    const [created] = await p.sites.outboxEvents('site.created');
    expect(created!.data).toMatchObject({ site: site.id, organization: ORG, spaces: [a.id, b.id] });

    // Basenames stay unique across the instance: a basename is the site's URL, /sites/{basename}.
    const again = await call(ops.createSite, { organizationId: ORG, title: 'Docs' }, creator);
    expect(again.basename).toBe('docs-2');
    expect(
      (await failureOf(call(ops.updateSiteById, { organizationId: ORG, siteId: again.id, basename: 'docs' }, creator)))
        .reason,
    ).toBe('conflict');
    const elsewhere = await call(ops.createSite, { organizationId: 'org-other', title: 'Docs' }, stranger);
    expect(elsewhere.basename).toBe('docs-3');
    const renamed = failureOf(
      call(ops.updateSiteById, { organizationId: 'org-other', siteId: elsewhere.id, basename: 'docs' }, stranger),
    );
    expect((await renamed).reason).toBe('conflict');
  });

  it('creates a new space through the content service for `spaces: new`, as the caller', async () => {
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Fresh site', spaces: 'new' }, creator);
    const [ss] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, creator)).items;
    expect(ss!.space).toMatchObject({ title: 'Fresh site', organization: ORG });
    const got = await p.content.call(ops.getSpaceById, { spaceId: ss!.space!.id }, admin);
    expect(got.title).toBe('Fresh site');
    // A read member cannot create the space (nor the site).
    expect(
      (await failureOf(call(ops.createSite, { organizationId: ORG, title: 'No', spaces: 'new' }, reader))).reason,
    ).toBe('forbidden');
  });

  it('refuses spaces of another organization, unknown or deleted ones (400 naming the field)', async () => {
    const theirs = await buildSpace(p.content, { org: 'org-other', as: stranger });
    const e = await failureOf(call(ops.createSite, { organizationId: ORG, title: 'Bad', spaces: [theirs.id] }, admin));
    expect(e.reason).toBe('invalid_input');
    expect(e.message).toBe(`spaces: no space ${theirs.id} in this organization that you can read`);
    const gone = await space('Gone');
    await p.content.call(ops.deleteSpaceById, { spaceId: gone.id }, admin);
    expect(
      (await failureOf(call(ops.createSite, { organizationId: ORG, title: 'Bad', spaces: [gone.id] }, admin))).message,
    ).toMatch(/^spaces: space .* is deleted/);
  });

  it('applies the access rules: members read, create changes, admins delete, others get 404', async () => {
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Rules' }, creator);
    const got = await call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, reader);
    expect(got.permissions).toMatchObject({
      view: true,
      edit: false,
      create: false,
      admin: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    expect(
      (await failureOf(call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, title: 'Nope' }, reader)))
        .reason,
    ).toBe('forbidden');
    expect((await failureOf(call(ops.createSite, { organizationId: ORG, title: 'Nope' }, reader))).reason).toBe(
      'forbidden',
    );
    expect((await failureOf(call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, guest))).reason).toBe(
      'not_found',
    );
    expect((await failureOf(call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, stranger))).reason).toBe(
      'not_found',
    );
    expect(
      (await failureOf(call(ops.getSiteById, { organizationId: 'org-other', siteId: site.id }, stranger))).reason,
    ).toBe('not_found');
    expect((await failureOf(call(ops.listSites, { organizationId: ORG }, stranger))).reason).toBe('not_found');
    expect((await failureOf(call(ops.deleteSiteById, { organizationId: ORG, siteId: site.id }, creator))).reason).toBe(
      'forbidden',
    );
    await call(ops.deleteSiteById, { organizationId: ORG, siteId: site.id }, admin);
    expect((await failureOf(call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, admin))).reason).toBe(
      'not_found',
    );
    expect((await p.sites.outboxEvents('site.deleted')).map((e) => (e.data as { site: string }).site)).toContain(
      site.id,
    );
  });

  it('updates settings, claims a hostname, publishes and unpublishes', async () => {
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Settings' }, creator);
    const updated = await call(
      ops.updateSiteById,
      {
        organizationId: ORG,
        siteId: site.id,
        title: 'Renamed',
        visibility: 'unlisted',
        basename: 'renamed',
        adaptiveContent: { enabled: true },
        agentsContext: 'excluded',
        proxy: 'example.com/docs',
      },
      creator,
    );
    expect(updated).toMatchObject({
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'renamed',
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
      proxy: { origin: 'example.com/docs', target: 'http://quire.test/sites/renamed' },
    });
    expect(updated.features.map((f) => f.id)).toEqual(['sites-adaptive-content', 'sites-custom-subdirectory']);
    const published = await call(ops.publishSite, { organizationId: ORG, siteId: site.id }, creator);
    expect(published.urls.published).toBe('http://quire.test/sites/renamed');
    const withHost = await call(
      ops.updateSiteById,
      { organizationId: ORG, siteId: site.id, hostname: 'docs.example.com', proxy: null },
      creator,
    );
    // A claimed hostname serves only once its DNS is proven (custom-hostnames.test.ts): the URL stays on the instance.
    expect([withHost.hostname, withHost.urls.published]).toEqual([
      'docs.example.com',
      'http://quire.test/sites/renamed',
    ]);
    expect(withHost.proxy).toBeUndefined();
    // An unproven claim blocks no one: another organization may claim the hostname too.
    const other = await call(ops.createSite, { organizationId: 'org-other', title: 'Theirs' }, stranger);
    const theirs = await call(
      ops.updateSiteById,
      { organizationId: 'org-other', siteId: other.id, hostname: 'docs.example.com' },
      stranger,
    );
    expect(theirs.hostname).toBe('docs.example.com');
    expect(
      (
        await failureOf(
          call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, hostname: 'Not_A_Host' }, creator),
        )
      ).message,
    ).toMatch(/^Invalid request: hostname: /);
    expect(
      (await failureOf(call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, title: 'x' }, creator)))
        .message,
    ).toMatch(/^Invalid request: title: Too small/);
    expect((await call(ops.unpublishSite, { organizationId: ORG, siteId: site.id }, creator)).published).toBe(false);
    expect((await p.sites.outboxEvents('site.published')).length).toBeGreaterThan(0);
    expect((await p.sites.outboxEvents('site.unpublished')).length).toBeGreaterThan(0);
  });

  it('lists sites with filters (space, title, published)', async () => {
    const org = 'org-list';
    const a = userActor('la', [{ organization: org, role: 'admin' }]);
    const s1 = await buildSpace(p.content, { org, as: a, title: 'Shared' });
    const one = await call(ops.createSite, { organizationId: org, title: 'Alpha docs', spaces: [s1.id] }, a);
    const two = await call(ops.createSite, { organizationId: org, title: 'Beta docs' }, a);
    await call(ops.publishSite, { organizationId: org, siteId: two.id }, a);
    const ids = async (q: Record<string, unknown>) =>
      (await call(ops.listSites, { organizationId: org, ...q }, a)).items.map((s) => s.id);
    expect(await ids({})).toEqual([two.id, one.id]);
    expect(await ids({ space: s1.id })).toEqual([one.id]);
    expect(await ids({ title: 'beta' })).toEqual([two.id]);
    expect(await ids({ published: true })).toEqual([two.id]);
    expect(await ids({ published: false })).toEqual([one.id]);
    const page = await call(ops.listSites, { organizationId: org, limit: 1 }, a);
    expect(page.count).toBe(2);
    const next = await call(ops.listSites, { organizationId: org, limit: 1, page: page.next!.page }, a);
    expect(next.items.map((s) => s.id)).toEqual([one.id]);
    expect(next.next).toBeUndefined();
  });
});

describe('structure', () => {
  it('places site spaces at the root, then in the default section once sections exist; sorts siblings', async () => {
    const [a, b, c, d] = [await space('One'), await space('Two'), await space('Three'), await space('Four')];
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Structured', spaces: [a.id] }, creator);
    const ssB = await call(ops.addSpaceToSite, { organizationId: ORG, siteId: site.id, spaceId: b.id }, creator);
    expect(ssB).toMatchObject({ path: 'two', default: false });
    expect(ssB.section).toBeUndefined();
    expect((await call(ops.getSiteStructure, { organizationId: ORG, siteId: site.id }, reader)).type).toBe(
      'siteSpaces',
    );

    // The first section takes the root site spaces in, after its own.
    const sec1 = await call(
      ops.addSectionToSite,
      { organizationId: ORG, siteId: site.id, spaceId: c.id, title: 'Guides' },
      creator,
    );
    expect(sec1).toMatchObject({ object: 'site-section', title: 'Guides', path: 'guides', default: true });
    expect(sec1.siteSpaces.map((s) => [s.space?.id, s.default])).toEqual([
      [c.id, true],
      [a.id, false],
      [b.id, false],
    ]);
    const sec2 = await call(ops.addSectionToSite, { organizationId: ORG, siteId: site.id, spaceId: d.id }, creator);
    expect(sec2).toMatchObject({ title: 'Four', path: 'four', default: false });

    // No sectionId: the default section.
    const e = await space('Five');
    const ssE = await call(ops.addSpaceToSite, { organizationId: ORG, siteId: site.id, spaceId: e.id }, creator);
    expect(ssE.section).toBe(sec1.id);
    const ssE2 = await call(
      ops.addSpaceToSite,
      { organizationId: ORG, siteId: site.id, spaceId: e.id, sectionId: sec2.id },
      creator,
    );
    expect(ssE2).toMatchObject({ section: sec2.id, default: false, path: 'five' });
    expect(
      (
        await failureOf(
          call(ops.addSpaceToSite, { organizationId: ORG, siteId: site.id, spaceId: e.id, sectionId: 'nope' }, creator),
        )
      ).message,
    ).toBe('sectionId: no section nope on this site');

    // Sorting: sections among sections, site spaces within their section.
    type SortInput = Parameters<typeof call<typeof ops.sortSiteStructure>>[1];
    const sort = (item: SortInput['item'], position: SortInput['position']) =>
      call(ops.sortSiteStructure, { organizationId: ORG, siteId: site.id, item, position }, creator);
    await sort({ type: 'site-section', id: sec2.id }, { before: { type: 'site-section', id: sec1.id } });
    const ssA = sec1.siteSpaces[1]!;
    const moved = await sort({ type: 'site-space', id: ssE.id }, { before: { type: 'site-space', id: ssA.id } });
    expect(moved).toMatchObject({ id: ssE.id, object: 'site-space' });
    const structure = await call(ops.getSiteStructure, { organizationId: ORG, siteId: site.id }, reader);
    if (structure.type !== 'sections') throw new Error('expected sections');
    expect(structure.structure.map((s) => s.id)).toEqual([sec2.id, sec1.id]);
    expect(sectionsOfStructure(structure.structure)[1]!.siteSpaces.map((s) => s.space?.title)).toEqual([
      'Three',
      'Five',
      'One',
      'Two',
    ]);
    const notSibling = await failureOf(
      sort({ type: 'site-space', id: ssE.id }, { after: { type: 'site-space', id: ssE2.id } }),
    );
    expect(notSibling.message).toBe(`position.after: ${ssE2.id} is not a sibling of the item`);
    const notSameKind = await failureOf(
      sort({ type: 'site-space', id: ssE.id }, { after: { type: 'site-section', id: sec1.id } }),
    );
    expect(notSameKind.reason).toBe('invalid_input');
    // Deprecated moves.
    await call(
      ops.moveSiteSection,
      {
        organizationId: ORG,
        siteId: site.id,
        siteSectionId: sec1.id,
        position: { before: { type: 'site-section', siteSection: sec2.id } },
      },
      creator,
    );
    const last = await call(ops.moveSiteSpace, { organizationId: ORG, siteId: site.id, siteSpaceId: ssE.id }, creator);
    expect(last.id).toBe(ssE.id);
    const sections = await call(ops.listSiteSections, { organizationId: ORG, siteId: site.id }, reader);
    expect(sections.items.map((s) => s.id)).toEqual([sec1.id, sec2.id]);
    expect(sections.items[0]!.siteSpaces.map((s) => s.space?.title)).toEqual(['Three', 'One', 'Two', 'Five']);

    // Defaults: one per level; defaultSiteSpace must be in the default section, defaultSiteSection a section of the site.
    const bad = await failureOf(
      call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, defaultSiteSpace: ssE2.id }, creator),
    );
    expect(bad.message).toBe(`defaultSiteSpace: site space ${ssE2.id} is not in the default section`);
    expect(
      (
        await failureOf(
          call(ops.updateSiteById, { organizationId: ORG, siteId: site.id, defaultSiteSection: 'nope' }, creator),
        )
      ).message,
    ).toBe('defaultSiteSection: no section nope on this site');
    await call(
      ops.updateSiteById,
      { organizationId: ORG, siteId: site.id, defaultSiteSection: sec2.id, defaultSiteSpace: ssE2.id },
      creator,
    );
    const defaults = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id, default: true }, reader);
    expect(defaults.items.map((s) => s.id)).toEqual([ssE2.id]);
    const others = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id, default: false }, reader);
    expect(others.count).toBe(5);
    const all = await call(ops.listSiteSections, { organizationId: ORG, siteId: site.id }, reader);
    expect(all.items.map((s) => s.default)).toEqual([false, true]);
    expect(all.items[1]!.siteSpaces.filter((s) => s.default).map((s) => s.id)).toEqual([ssE2.id]);

    // Section PATCH: path unique among sections; delete takes its site spaces and moves the default.
    expect(
      (
        await failureOf(
          call(
            ops.updateSiteSectionById,
            { organizationId: ORG, siteId: site.id, siteSectionId: sec2.id, path: 'guides' },
            creator,
          ),
        )
      ).reason,
    ).toBe('conflict');
    const patched = await call(
      ops.updateSiteSectionById,
      {
        organizationId: ORG,
        siteId: site.id,
        siteSectionId: sec2.id,
        path: 'more',
        description: 'More things',
        icon: 'gear',
      },
      creator,
    );
    expect(patched).toMatchObject({ path: 'more', description: 'More things', icon: 'gear' });
    await call(ops.deleteSiteSectionById, { organizationId: ORG, siteId: site.id, siteSectionId: sec2.id }, creator);
    const after = await call(ops.listSiteSections, { organizationId: ORG, siteId: site.id }, reader);
    expect(after.items.map((s) => [s.id, s.default])).toEqual([[sec1.id, true]]);
    expect((await call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, reader)).siteSpaces).toBe(4);
  });

  it('updates and deletes site spaces (path unique within the parent, the default moves on)', async () => {
    const [a, b, c] = [await space('Alpha'), await space('Beta'), await space('Gamma')];
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Spaces', spaces: [a.id, b.id] }, creator);
    const [ssA, ssB] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, creator)).items;
    expect((await failureOf(updateSiteSpace(site.id, ssB!.id, { path: 'alpha' }))).reason).toBe('conflict');
    expect((await failureOf(updateSiteSpace(site.id, ssB!.id, { path: 'a'.repeat(101) }))).message).toMatch(
      /^Invalid request: path: Too big/,
    );
    const updated = await updateSiteSpace(site.id, ssB!.id, { path: 'v2', spaceId: c.id });
    expect(updated).toMatchObject({ path: 'v2', title: 'Gamma', space: { id: c.id } });
    await call(ops.deleteSiteSpaceById, { organizationId: ORG, siteId: site.id, siteSpaceId: ssA!.id }, creator);
    const left = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, creator);
    expect(left.items.map((s) => [s.id, s.default])).toEqual([[ssB!.id, true]]);
    expect(
      (
        await failureOf(
          call(ops.deleteSiteSpaceById, { organizationId: ORG, siteId: site.id, siteSpaceId: ssB!.id }, reader),
        )
      ).reason,
    ).toBe('forbidden');
  });

  it('embeds each space as the caller sees it, in one batched call (hidden ones stay out of `space`)', async () => {
    const closed = await space('Closed');
    await p.content.call(ops.updateSpaceById, { spaceId: closed.id, defaultLevel: null }, admin);
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Embeds', spaces: [closed.id] }, admin);
    const asAdmin = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, admin);
    expect(asAdmin.items[0]!.space?.permissions.admin).toBe(true);
    const asReader = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, reader);
    expect(asReader.items[0]!.space).toBeUndefined();
    expect(asReader.items[0]!.title).toBe('Closed');
  });

  /** The site spaces the reader lists, once there are `count` of them (`what`: what is waited for). */
  const siteSpacesOnceThere = (siteId: string, count: number, what: string) =>
    eventually(
      async () => {
        const l = await call(ops.listSiteSpaces, { organizationId: ORG, siteId }, reader);
        return l.count === count ? l : undefined;
      },
      5_000,
      what,
    );

  it('hides the site spaces of a deleted space and shows them again on restore', async () => {
    const [a, b] = [await space('Stay'), await space('Trash me')];
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Trash', spaces: [b.id, a.id] }, creator);
    await p.content.call(ops.deleteSpaceById, { spaceId: b.id }, admin);
    const hidden = await siteSpacesOnceThere(site.id, 1, 'hidden');
    expect(hidden.items.map((s) => [s.space?.id, s.default])).toEqual([[a.id, true]]);
    expect((await call(ops.getSiteById, { organizationId: ORG, siteId: site.id }, reader)).siteSpaces).toBe(1);
    await p.content.call(ops.restoreSpace, { spaceId: b.id }, admin);
    const back = await siteSpacesOnceThere(site.id, 2, 'restored');
    expect(back.items.map((s) => [s.space?.id, s.default])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
  });
});

describe('share links and the published view', () => {
  it('opens a share-link site with an active key only', async () => {
    const a = await space('Shared space');
    const site = await call(
      ops.createSite,
      { organizationId: ORG, title: 'Secret', visibility: 'share-link', spaces: [a.id] },
      creator,
    );
    await call(ops.publishSite, { organizationId: ORG, siteId: site.id }, creator);
    const link = await call(
      ops.createSiteShareLink,
      { organizationId: ORG, siteId: site.id, name: 'Partners' },
      creator,
    );
    expect(link).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = new URL(link.urls.published!).searchParams.get('share')!;
    expect(link.urls.published).toBe(`http://quire.test/sites/secret?share=${key}`);
    expect(
      (
        await failureOf(
          call(ops.createSiteShareLink, { organizationId: ORG, siteId: site.id, name: 'n'.repeat(51) }, creator),
        )
      ).message,
    ).toMatch(/^Invalid request: name: Too big/);
    expect(
      (await failureOf(call(ops.createSiteShareLink, { organizationId: ORG, siteId: site.id, name: 'x' }, reader)))
        .reason,
    ).toBe('forbidden');

    // The key is stored sealed and hashed, never in the clear.
    const rows = await p.sites
      .em()
      .getConnection()
      .execute<{ key_sealed: string; key_hash: string }[]>(
        `select key_sealed, key_hash from sites.share_link where id = ?`,
        [link.id],
      );
    expect(JSON.stringify(rows)).not.toContain(key);

    expect(
      (await failureOf(call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id }, reader))).reason,
    ).toBe('not_found');
    const published = await call(
      ops.getPublishedContentSite,
      { organizationId: ORG, siteId: site.id, shareKey: key },
      reader,
    );
    expect(published.object).toBe('published-content-site');
    expect(published.site.urls.published).toBe(`http://quire.test/sites/secret?share=${key}`);
    expect(published.structure).toMatchObject({
      type: 'siteSpaces',
      structure: [{ space: { id: a.id }, urls: { published: `http://quire.test/sites/secret?share=${key}` } }],
    });
    const viaSpace = await p.content.call(ops.getSpaceById, { spaceId: a.id, shareKey: key }, reader);
    expect(viaSpace.urls.published).toBe(`http://quire.test/sites/secret?share=${key}`);
    const listed = await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id, shareKey: key }, reader);
    expect(listed.items[0]!.urls.published).toContain(`share=${key}`);

    await call(
      ops.updateSiteShareLinkById,
      { organizationId: ORG, siteId: site.id, shareLinkId: link.id, active: false },
      creator,
    );
    expect(
      (
        await failureOf(
          call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id, shareKey: key }, reader),
        )
      ).reason,
    ).toBe('not_found');
    expect(
      (await p.content.call(ops.getSpaceById, { spaceId: a.id, shareKey: key }, reader)).urls.published,
    ).toBeUndefined();
    await call(
      ops.updateSiteShareLinkById,
      { organizationId: ORG, siteId: site.id, shareLinkId: link.id, active: true, name: 'Renamed' },
      creator,
    );
    expect(
      (await call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id, shareKey: key }, reader)).object,
    ).toBe('published-content-site');
    const links = await call(ops.listSiteShareLinks, { organizationId: ORG, siteId: site.id }, creator);
    expect(links.items.map((l) => [l.id, l.name, l.urls.published])).toEqual([
      [link.id, 'Renamed', link.urls.published],
    ]);
    await call(ops.deleteSiteShareLinkById, { organizationId: ORG, siteId: site.id, shareLinkId: link.id }, creator);
    expect(
      (
        await failureOf(
          call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id, shareKey: key }, reader),
        )
      ).reason,
    ).toBe('not_found');
  });

  it('serves a public site only while published', async () => {
    const a = await space('Public space');
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Open', spaces: [a.id] }, creator);
    expect(
      (await failureOf(call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id }, reader))).reason,
    ).toBe('not_found');
    await call(ops.publishSite, { organizationId: ORG, siteId: site.id }, creator);
    const published = await call(ops.getPublishedContentSite, { organizationId: ORG, siteId: site.id }, reader);
    expect(published.site).toMatchObject({ id: site.id, published: true, siteSpaces: 1 });
    expect(published.structure).toMatchObject({
      type: 'siteSpaces',
      structure: [{ default: true, urls: { published: 'http://quire.test/sites/open' } }],
    });
  });
});

describe('adaptive content', () => {
  const jsonSchema = adaptiveSchemaOf({ isBetaUser: 'Beta users' });

  it('stores a valid schema, derives template conditions and checks conditions against it', async () => {
    const a = await space('Adaptive');
    const site = await call(ops.createSite, { organizationId: ORG, title: 'Adaptive', spaces: [a.id] }, creator);
    const empty = await call(ops.getSiteAdaptiveSchema, { organizationId: ORG, siteId: site.id }, reader);
    expect(empty.jsonSchema).toMatchObject({ type: 'object', properties: {}, additionalProperties: false });
    expect(
      (await call(ops.listSiteAdaptiveTemplateConditions, { organizationId: ORG, siteId: site.id }, reader)).items,
    ).toEqual([]);
    const [ss] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, creator)).items;
    // Any condition of 1..1024 characters is accepted, even one naming a claim the site's schema does not declare.
    const early = await updateSiteSpace(site.id, ss!.id, { condition: 'visitor.claims.unsigned.isBetaUser' });
    expect(early.condition).toBe('visitor.claims.unsigned.isBetaUser');
    expect((await failureOf(updateSiteSpace(site.id, ss!.id, { condition: 'x'.repeat(1025) }))).reason).toBe(
      'invalid_input',
    );
    expect(
      (
        await failureOf(
          call(ops.updateSiteAdaptiveSchema, { organizationId: ORG, siteId: site.id, jsonSchema }, reader),
        )
      ).reason,
    ).toBe('forbidden');
    const bad = await failureOf(
      call(
        ops.updateSiteAdaptiveSchema,
        { organizationId: ORG, siteId: site.id, jsonSchema: { ...jsonSchema, additionalProperties: true } },
        creator,
      ),
    );
    expect(bad.message).toBe('jsonSchema.additionalProperties: must be false');

    const saved = await call(
      ops.updateSiteAdaptiveSchema,
      { organizationId: ORG, siteId: site.id, jsonSchema },
      creator,
    );
    expect(saved).toMatchObject({ object: 'site-adaptive-schema', jsonSchema });
    expect(
      (await call(ops.listSiteAdaptiveTemplateConditions, { organizationId: ORG, siteId: site.id }, reader)).items,
    ).toEqual([{ description: 'Beta users', condition: 'visitor.claims.unsigned.isBetaUser' }]);
    const withCondition = await updateSiteSpace(site.id, ss!.id, { condition: 'visitor.claims.unsigned.isBetaUser' });
    expect(withCondition.condition).toBe('visitor.claims.unsigned.isBetaUser');
    const kept = await updateSiteSpace(site.id, ss!.id, { path: 'beta' });
    expect(kept.condition).toBe('visitor.claims.unsigned.isBetaUser');
    // The schema may drop an attribute a condition uses: the condition stays (the claim is then absent, so false).
    await call(
      ops.updateSiteAdaptiveSchema,
      {
        organizationId: ORG,
        siteId: site.id,
        jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      },
      creator,
    );
    expect(
      (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, creator)).items[0]!.condition,
    ).toBe('visitor.claims.unsigned.isBetaUser');
    const removed = await updateSiteSpace(site.id, ss!.id, { condition: null });
    expect(removed.condition).toBeUndefined();
  });
});
