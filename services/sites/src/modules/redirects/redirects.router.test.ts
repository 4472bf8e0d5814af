import { describe, expect, it } from 'vitest';
import { ops, type Actor, type OperationInput } from '@quire/contracts';
import { failureOf } from '@quire/kit/testing';
import { orgActors, spaceWithPages, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';

const ORG = 'org-redir';
const { admin, creator, reader, stranger } = orgActors(ORG, 'org-elsewhere');

// org-admin presents the authors of the change requests that write the test pages.
const p = useSitesAndContent('redirects-router', { orgAdmin: true });
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

/** A space with one merged page (`install`, under `getting-started`); its id and the page id. */
async function spaceWithPage(title: string): Promise<{ spaceId: string; pageId: string }> {
  const spaceId = await spaceWithPages(p, { org: ORG, title, as: admin }, [{ title: 'Install', markdown: 'Run it.' }]);
  const pages = await p.content.call(ops.listPages, { spaceId }, admin);
  return { spaceId, pageId: (pages.pages[0] as { id: string }).id };
}

async function site() {
  const guide = await spaceWithPage('Guide');
  const api = await spaceWithPage('API');
  const dto = await call(
    ops.createSite,
    { organizationId: ORG, title: 'Docs', spaces: [guide.spaceId, api.spaceId] },
    admin,
  );
  const spaces = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: dto.id }, admin)).items;
  return {
    siteId: dto.id,
    base: `http://quire.test/sites/${dto.basename}`,
    guide: { ...guide, siteSpace: spaces[0]! },
    api: { ...api, siteSpace: spaces[1]! },
  };
}

const where = (siteId: string) => ({ organizationId: ORG, siteId });
/** Creates a redirect on the site, as the creator unless said. */
const createRedirect = (
  siteId: string,
  fields: Omit<OperationInput<typeof ops.createSiteRedirect>, 'organizationId' | 'siteId'>,
  as: Actor = creator,
) => call(ops.createSiteRedirect, { ...where(siteId), ...fields }, as);
const reason = async (p: Promise<unknown>) => (await failureOf(p)).reason;
const message = async (p: Promise<unknown>) => (await failureOf(p)).message;

describe('site redirects', () => {
  it('creates, reads by source, updates and deletes a redirect, sources normalised', async () => {
    const s = await site();
    const created = await createRedirect(s.siteId, {
      source: 'old/install/?from=mail',
      permanent: true,
      destination: { kind: 'site-page', siteSpaceId: s.api.siteSpace.id, pageId: s.api.pageId },
    });
    expect(created).toMatchObject({
      object: 'site-redirect',
      source: '/old/install',
      draft: false,
      captureWildcard: false,
      permanent: true,
    });
    expect(created.updatedAt).toBeUndefined();

    const found = await call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/old/install/' }, reader);
    expect(found.redirect.id).toBe(created.id);
    expect(found.target).toBe(`${s.base}/api/install`);

    const moved = await call(
      ops.updateSiteRedirectById,
      {
        ...where(s.siteId),
        siteRedirectId: created.id,
        destination: { kind: 'external', url: 'https://example.com/x' },
      },
      creator,
    );
    expect(moved.destination).toEqual({ kind: 'external', url: 'https://example.com/x' });
    expect(moved.updatedAt).toBeDefined();
    expect(
      (await call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/old/install' }, reader)).target,
    ).toBe('https://example.com/x');

    await call(ops.deleteSiteRedirectById, { ...where(s.siteId), siteRedirectId: created.id }, creator);
    expect(
      await reason(call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/old/install' }, reader)),
    ).toBe('not_found');
    await call(ops.deleteSiteRedirectById, { ...where(s.siteId), siteRedirectId: created.id }, creator);
  });

  it('resolves a `path` destination to the page, follows wildcards with captured rests', async () => {
    const s = await site();
    const byPath = await createRedirect(s.siteId, {
      source: '/docs/install',
      destination: { kind: 'path', spaceId: s.guide.spaceId, path: 'install' },
    });
    expect(byPath.destination).toEqual({
      kind: 'site-page',
      siteSpaceId: s.guide.siteSpace.id,
      pageId: s.guide.pageId,
    });
    await createRedirect(s.siteId, {
      source: '/v1/*',
      captureWildcard: true,
      destination: { kind: 'site-space', siteSpaceId: s.api.siteSpace.id },
    });
    expect(
      (await call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/docs/install' }, reader)).target,
    ).toBe(`${s.base}/install`);
    expect(
      (await call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/v1/guides/intro' }, reader)).target,
    ).toBe(`${s.base}/api/guides/intro`);
  });

  it('lists live or draft redirects, searched and keyset paged in each order', async () => {
    const s = await site();
    const dest = { kind: 'site-space' as const, siteSpaceId: s.api.siteSpace.id };
    for (const source of ['/c', '/a', '/b']) await createRedirect(s.siteId, { source, destination: dest });
    await createRedirect(s.siteId, { source: '/a', draft: true, destination: dest });

    const bySource = await call(ops.listSiteRedirects, { ...where(s.siteId), orderBy: 'source', limit: 2 }, reader);
    expect(bySource.count).toBe(3);
    expect(bySource.items.map((r) => r.source)).toEqual(['/a', '/b']);
    const rest = await call(
      ops.listSiteRedirects,
      { ...where(s.siteId), orderBy: 'source', limit: 2, page: bySource.next!.page },
      reader,
    );
    expect(rest.items.map((r) => r.source)).toEqual(['/c']);
    expect(rest.next).toBeUndefined();

    expect((await call(ops.listSiteRedirects, { ...where(s.siteId) }, reader)).items.map((r) => r.source)).toEqual([
      '/b',
      '/a',
      '/c',
    ]);
    expect(
      (await call(ops.listSiteRedirects, { ...where(s.siteId), draft: true }, reader)).items.map((r) => [
        r.source,
        r.draft,
      ]),
    ).toEqual([['/a', true]]);
    expect(
      (await call(ops.listSiteRedirects, { ...where(s.siteId), search: 'b' }, reader)).items.map((r) => r.source),
    ).toEqual(['/b']);
  });

  it('bulk upserts, deletes and publishes, each item on its own', async () => {
    const s = await site();
    const dest = { kind: 'site-space' as const, siteSpaceId: s.api.siteSpace.id };
    const first = await call(
      ops.bulkUpsertSiteRedirects,
      {
        ...where(s.siteId),
        redirects: [
          { source: '/one', destination: dest },
          { source: '/two', intent: 'draft', destination: dest },
          { source: '/bad', destination: { kind: 'site-section', siteSectionId: 'nope' } },
          { source: '/ghost', destination: null },
        ],
      },
      creator,
    );
    expect(first.results).toEqual([
      { status: 'created', source: '/one', draft: false, id: expect.any(String) },
      { status: 'created', source: '/two', draft: true, id: expect.any(String) },
      {
        status: 'error',
        source: '/bad',
        draft: false,
        error: expect.stringContaining('redirects.2.destination.siteSectionId'),
      },
      { status: 'error', source: '/ghost', draft: false, error: expect.stringContaining('no live redirect') },
    ]);
    const second = await call(
      ops.bulkUpsertSiteRedirects,
      {
        ...where(s.siteId),
        redirects: [
          { source: '/one', permanent: true, destination: dest },
          { source: '/two', intent: 'publish' },
          { source: '/one', destination: null },
        ],
      },
      creator,
    );
    expect(second.results.map((r) => r.status)).toEqual(['updated', 'published', 'deleted']);
    expect((await call(ops.listSiteRedirects, where(s.siteId), reader)).items.map((r) => r.source)).toEqual(['/two']);
    expect((await call(ops.listSiteRedirects, { ...where(s.siteId), draft: true }, reader)).count).toBe(0);
  });

  it('refuses bad input with a 400 naming the field, a second redirect of a source with a 409', async () => {
    const s = await site();
    const dest = { kind: 'site-space' as const, siteSpaceId: s.api.siteSpace.id };
    expect(await message(createRedirect(s.siteId, { source: '/a b', destination: dest }))).toMatch(/source/);
    expect(await message(createRedirect(s.siteId, { source: `/${'a'.repeat(600)}`, destination: dest }))).toMatch(
      /source/,
    );
    const js = { kind: 'external' as const, url: 'javascript:alert(1)' };
    expect(await message(createRedirect(s.siteId, { source: '/x', destination: js }))).toMatch(/destination\.url/);
    expect(
      await message(
        createRedirect(s.siteId, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } }),
      ),
    ).toMatch(/destination\.siteSpaceId/);
    const page = { kind: 'site-page' as const, siteSpaceId: s.api.siteSpace.id, pageId: 'nope' };
    expect(await message(createRedirect(s.siteId, { source: '/x', destination: page }))).toMatch(/destination\.pageId/);
    expect(
      await message(
        createRedirect(s.siteId, {
          source: '/x',
          destination: { kind: 'path', spaceId: s.api.spaceId, path: 'missing' },
        }),
      ),
    ).toMatch(/destination\.path/);
    expect(await message(call(ops.bulkUpsertSiteRedirects, { ...where(s.siteId), redirects: [] }, creator))).toMatch(
      /redirects/,
    );

    const a = await createRedirect(s.siteId, { source: '/taken', destination: dest });
    const dup = await failureOf(createRedirect(s.siteId, { source: 'taken/', destination: dest }));
    expect([dup.reason, dup.message]).toEqual(['conflict', expect.stringMatching(/source/)]);
    const b = await createRedirect(s.siteId, { source: '/other', destination: dest });
    expect(
      await reason(
        call(ops.updateSiteRedirectById, { ...where(s.siteId), siteRedirectId: b.id, source: '/taken' }, creator),
      ),
    ).toBe('conflict');
    expect(
      await message(call(ops.updateSiteRedirectById, { ...where(s.siteId), siteRedirectId: a.id }, creator)),
    ).toMatch(/source/);
  });

  it('lets `read` members read, not write (403); another organization sees nothing (404)', async () => {
    const s = await site();
    const dest = { kind: 'site-space' as const, siteSpaceId: s.api.siteSpace.id };
    const r = await createRedirect(s.siteId, { source: '/r', destination: dest }, admin);
    const writes: [string, (a: Actor) => Promise<unknown>][] = [
      ['create', (a) => createRedirect(s.siteId, { source: '/w', destination: dest }, a)],
      [
        'bulk',
        (a) =>
          call(
            ops.bulkUpsertSiteRedirects,
            { ...where(s.siteId), redirects: [{ source: '/w', destination: dest }] },
            a,
          ),
      ],
      [
        'update',
        (a) => call(ops.updateSiteRedirectById, { ...where(s.siteId), siteRedirectId: r.id, permanent: true }, a),
      ],
      ['delete', (a) => call(ops.deleteSiteRedirectById, { ...where(s.siteId), siteRedirectId: r.id }, a)],
    ];
    for (const [, write] of writes) {
      expect(await reason(write(reader))).toBe('forbidden');
      expect(await reason(write(stranger))).toBe('not_found');
    }
    expect(await reason(call(ops.listSiteRedirects, where(s.siteId), stranger))).toBe('not_found');
    expect(await reason(call(ops.getSiteRedirectBySource, { ...where(s.siteId), source: '/r' }, stranger))).toBe(
      'not_found',
    );
    expect((await call(ops.listSiteRedirects, where(s.siteId), reader)).count).toBe(1);
  });
});
