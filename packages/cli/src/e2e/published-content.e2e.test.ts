import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI, SiteRedirectOrderBy } from '@gitbook/api';
import { apiError, mergeChanges, useCast } from './harness.ts';
import { publishDemoSite } from './published-sites.fixtures.ts';

const { p, acme, reader, other } = useCast({ reader: ['rita@acme.io', 'read'] });
let demo: Awaited<ReturnType<typeof publishDemoSite>>;
let org: string;

beforeAll(async () => {
  org = acme.organization.id;
  demo = await publishDemoSite(p.client(acme.token), org);
}, 180_000);

/** The official client without any token (a published site's renderer asks `urls/published` like any visitor). */
const anonymous = () => new GitBookAPI({ endpoint: p.url });
const sign = (key: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));

describe('site redirects (official client)', () => {
  it('creates, lists, resolves, updates, bulk-upserts and deletes redirects; the published site follows them', async () => {
    const api = p.client(acme.token);
    const siteId = demo.site.id;
    const created = (
      await api.orgs.createSiteRedirect(org, siteId, {
        source: 'old/install/',
        permanent: true,
        destination: { kind: 'path', spaceId: demo.guide.id, path: 'getting-started/installation' },
      } as never)
    ).data;
    expect(created).toMatchObject({
      object: 'site-redirect',
      source: '/old/install',
      permanent: true,
      draft: false,
      destination: { kind: 'site-page' },
    });

    const resolved = (
      await p.client(reader.token).orgs.getSiteRedirectBySource(org, siteId, { source: '/old/install' })
    ).data;
    expect(resolved).toMatchObject({
      redirect: { id: created.id },
      target: 'http://quire.test/sites/acme-cloud-docs/getting-started/installation',
    });
    // The reader's browser is sent there by the published site itself.
    // So does urls/published (the path names no page), for a renderer of the site.
    expect(
      (
        await anonymous().urls.resolvePublishedContentByUrl({
          url: 'http://quire.test/sites/acme-cloud-docs/old/install',
        })
      ).data,
    ).toEqual({
      target: 'content',
      redirect: 'http://quire.test/sites/acme-cloud-docs/getting-started/installation',
    });
    const followed = await fetch(`${p.url}/sites/acme-cloud-docs/old/install`, { redirect: 'manual' });
    expect(followed.status).toBe(308);
    expect(followed.headers.get('location')).toBe('/sites/acme-cloud-docs/getting-started/installation');

    const bulk = (
      await api.orgs.bulkUpsertSiteRedirects(org, siteId, {
        redirects: [
          {
            source: '/blog/*',
            captureWildcard: true,
            destination: { kind: 'external', url: 'https://blog.acme.test' },
          },
          { source: '/draft-only', intent: 'draft', destination: { kind: 'external', url: 'https://acme.test/draft' } },
        ],
      } as never)
    ).data;
    expect(bulk.results.map((r) => r.status)).toEqual(['created', 'created']);
    expect((await api.orgs.getSiteRedirectBySource(org, siteId, { source: '/blog/2024/launch' })).data.target).toBe(
      'https://blog.acme.test/2024/launch',
    );

    const live = (await api.orgs.listSiteRedirects(org, siteId, { orderBy: SiteRedirectOrderBy.Source, limit: 1 }))
      .data;
    expect([live.count, live.items.map((r) => r.source), live.next?.page]).toEqual([
      2,
      ['/blog/*'],
      expect.any(String),
    ]);
    const next = (
      await api.orgs.listSiteRedirects(org, siteId, {
        orderBy: SiteRedirectOrderBy.Source,
        limit: 1,
        page: live.next!.page,
      })
    ).data;
    expect(next.items.map((r) => r.source)).toEqual(['/old/install']);
    expect((await api.orgs.listSiteRedirects(org, siteId, { draft: true })).data.items.map((r) => r.source)).toEqual([
      '/draft-only',
    ]);

    const updated = (await api.orgs.updateSiteRedirectById(org, siteId, created.id, { permanent: false })).data;
    expect([updated.permanent, typeof updated.updatedAt]).toEqual([false, 'string']);
    await api.orgs.deleteSiteRedirectById(org, siteId, created.id);
    expect((await apiError(api.orgs.getSiteRedirectBySource(org, siteId, { source: '/old/install' }))).code).toBe(404);
  });

  it('answers 400 naming the field, 409 for a taken source, 403 to a `read` member, 404 to another organization', async () => {
    const api = p.client(acme.token);
    const siteId = demo.site.id;
    const dest = { kind: 'external', url: 'https://acme.test' };
    const bad = await apiError(
      api.orgs.createSiteRedirect(org, siteId, { source: '/has space', destination: dest } as never),
    );
    expect([bad.code, bad.message]).toEqual([400, expect.stringMatching(/source/)]);
    expect(
      (
        await apiError(
          api.orgs.createSiteRedirect(org, siteId, {
            source: '/x',
            destination: { kind: 'external', url: 'javascript:alert(1)' },
          } as never),
        )
      ).message,
    ).toMatch(/destination/);
    await api.orgs.createSiteRedirect(org, siteId, { source: '/taken', destination: dest } as never);
    expect(
      (await apiError(api.orgs.createSiteRedirect(org, siteId, { source: '/taken/', destination: dest } as never)))
        .code,
    ).toBe(409);
    expect(
      (
        await apiError(
          p.client(reader.token).orgs.createSiteRedirect(org, siteId, { source: '/r', destination: dest } as never),
        )
      ).code,
    ).toBe(403);
    expect((await apiError(p.client(other.token).orgs.listSiteRedirects(org, siteId))).code).toBe(404);
  });
});

describe('publishing auth and urls/published (official client)', () => {
  it('resolves a published URL for an anonymous renderer, with a decodable api token; unknown fields accepted', async () => {
    const url = `${demo.site.urls.published}/api-reference/jobs-endpoint`;
    const found = (
      await anonymous().urls.resolvePublishedContentByUrl({
        url,
        visitor: { type: 'human' },
        redirectOnError: true,
        cacheBust: '1',
        extra: true,
      } as never)
    ).data;
    expect(found).toMatchObject({
      site: demo.site.id,
      space: demo.reference.id,
      organization: org,
      pathname: 'jobs-endpoint',
      basePath: '/sites/acme-cloud-docs/api-reference/',
      siteBasePath: '/sites/acme-cloud-docs/',
      canonicalUrl: url,
      complete: true,
    });
    const token = decodeJwt((found as { apiToken: string }).apiToken);
    expect(token.exp! * 1000 - Date.now()).toBeGreaterThan(120_000);
    expect(((await anonymous().urls.getPublishedContentByUrl({ url })).data as { apiToken: string }).apiToken).toBe(
      (found as { apiToken: string }).apiToken,
    );

    expect(
      (await apiError(anonymous().urls.resolvePublishedContentByUrl({ url: 'http://quire.test/sites/no-such-site' })))
        .code,
    ).toBe(404);
    const bad = await apiError(anonymous().urls.resolvePublishedContentByUrl({ url: 'not a url' }));
    expect([bad.code, bad.message]).toEqual([400, expect.stringMatching(/url/)]);
  });

  it("the api token reads its site's published content through the gateway, read-only, and nothing else", async () => {
    const url = `${demo.site.urls.published}/getting-started/installation`;
    const found = (await anonymous().urls.resolvePublishedContentByUrl({ url })).data as {
      apiToken: string;
      revision: string;
      complete: boolean;
    };
    const live = (await p.client(acme.token).spaces.getSpaceById(demo.guide.id)).data.revision;
    expect([found.revision, found.complete]).toEqual([live, true]);
    // The site's root names no section: a longer URL could (GitBook's renderer then prefers the longer lookup).
    const root = (await anonymous().urls.resolvePublishedContentByUrl({ url: demo.site.urls.published! })).data;
    expect(root).toMatchObject({ complete: false, space: demo.guide.id, pathname: '' });

    const renderer = new GitBookAPI({ endpoint: p.url, authToken: found.apiToken });
    const site = (await renderer.orgs.getPublishedContentSite(org, demo.site.id)).data;
    expect(site.site.id).toBe(demo.site.id);
    expect((await renderer.spaces.getSpaceById(demo.guide.id)).data.revision).toBe(live);
    const revision = (await renderer.spaces.getRevisionById(demo.guide.id, live)).data;
    expect(revision.pages.map((pg) => pg.title)).toContain('Getting started');
    // Its search covers the site spaces its site shows it ("bearer" is in the API reference, another section).
    const search = async (query: string) =>
      (await renderer.orgs.searchSiteContent(org, demo.site.id, { query, scope: { mode: 'all' } } as never)).data.items;
    let hits = await search('timeouts');
    for (let i = 0; i < 50 && !hits.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      hits = await search('timeouts');
    }
    expect(hits.map((h) => h.id)).toEqual([demo.guide.id]);
    expect((await search('bearer')).map((h) => h.id)).toEqual([demo.reference.id]);

    // Another section's space of the same site, yes; not a change request's revision, no write, no other route.
    const editor = p.client(acme.token);
    const cr = (await editor.spaces.createChangeRequest(demo.guide.id, { subject: 'Draft' })).data;
    const draft = (
      await editor.spaces.updateChangeRequestContent(demo.guide.id, cr.id, {
        changes: [{ operation: 'insert_page', title: 'Unreleased', document: { markdown: 'Soon.' } }],
      } as never)
    ).data as unknown as { revision: string };
    expect(draft.revision).not.toBe(live);
    expect((await renderer.spaces.getSpaceById(demo.reference.id)).data.id).toBe(demo.reference.id);
    expect((await apiError(renderer.spaces.getRevisionById(demo.guide.id, draft.revision))).code).toBe(404);
    expect((await apiError(renderer.spaces.createChangeRequest(demo.guide.id, { subject: 'x' }))).code).toBe(403);
    expect((await apiError(renderer.orgs.listSpacesInOrganizationById(org))).code).toBe(403);
    expect((await apiError(renderer.orgs.getPublishedContentSite(other.organization.id, demo.site.id))).code).toBe(404);
    const tampered = new GitBookAPI({ endpoint: p.url, authToken: `${found.apiToken.slice(0, -2)}xx` });
    expect((await apiError(tampered.orgs.getPublishedContentSite(org, demo.site.id))).code).toBe(401);
  });

  it('visitor auth: the site key signs visitor tokens; without one the lookup redirects to sign in; regenerating revokes', async () => {
    const api = p.client(acme.token);
    const site = (await api.orgs.createSite(org, { title: 'Partner portal', visibility: 'visitor-auth' } as never))
      .data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: demo.guide.id } as never);
    const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
    expect((await apiError(p.client(reader.token).orgs.getSitePublishingAuthById(org, site.id))).code).toBe(403);
    expect((await apiError(p.client(other.token).orgs.getSitePublishingAuthById(org, site.id))).code).toBe(404);

    const auth = (
      await api.orgs.updateSitePublishingAuthById(org, site.id, {
        backend: 'custom',
        fallbackURL: 'https://sso.acme.test/login',
      })
    ).data;
    expect(auth).toMatchObject({
      object: 'publishing-auth',
      backend: 'custom',
      fallbackURL: 'https://sso.acme.test/login',
      privateKey: expect.any(String),
    });
    expect((await api.orgs.getSitePublishingAuthById(org, site.id)).data.privateKey).toBe(auth.privateKey);
    expect(
      (
        await apiError(
          api.orgs.updateSitePublishingAuthById(org, site.id, { backend: 'custom', fallbackURL: 'ftp://x' } as never),
        )
      ).message,
    ).toMatch(/fallbackURL/);

    const url = `${published.urls.published}/getting-started`;
    expect((await anonymous().urls.resolvePublishedContentByUrl({ url, redirectOnError: true })).data).toEqual({
      target: 'external',
      site: site.id,
      redirect: `https://sso.acme.test/login?location=${encodeURIComponent(new URL(url).pathname)}`,
    });
    const jwtToken = await sign(auth.privateKey, { role: 'partner' });
    const opened = (await anonymous().urls.resolvePublishedContentByUrl({ url, visitor: { jwtToken } })).data as {
      apiToken: string;
      pathname: string;
    };
    expect(opened.pathname).toBe('getting-started');
    expect(decodeJwt(opened.apiToken).claims).toMatchObject({ role: 'partner' });

    const rotated = (await api.orgs.regenerateSitePublishingAuthById(org, site.id)).data;
    expect(rotated.privateKey).not.toBe(auth.privateKey);
    expect(
      (await anonymous().urls.resolvePublishedContentByUrl({ url, redirectOnError: true, visitor: { jwtToken } })).data,
    ).toMatchObject({ target: 'external' });
  });

  it('searches the site: only its own spaces', async () => {
    const api = p.client(acme.token);
    const outside = (await api.orgs.createSpace(org, { title: 'Internal notes' })).data;
    await mergeChanges(
      api,
      outside.id,
      [{ operation: 'insert_page', title: 'Timeouts we hide', document: { markdown: 'Timeouts.' } }],
      'Notes',
    );
    const deadline = Date.now() + 5_000;
    let items: { id: string; pages: { title: string }[] }[] = [];
    while (Date.now() < deadline) {
      items = (
        await p
          .client(reader.token)
          .orgs.searchSiteContent(org, demo.site.id, { query: 'timeouts', scope: { mode: 'all' } } as never)
      ).data.items as typeof items;
      if (items.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(items.map((s) => s.id)).toEqual([demo.guide.id]);
    expect(items[0]!.pages.map((pg) => pg.title)).toEqual(['Configuration']);
    expect(
      (
        await apiError(
          p.client(other.token).orgs.searchSiteContent(org, demo.site.id, { query: 'timeouts', mode: 'all' }),
        )
      ).code,
    ).toBe(404);
  });
});
