import { describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { ops, type Actor } from '@quire/contracts';
import { buildSpace, failureOf, userActor } from '@quire/kit/testing';
import { useSitesAndContent, type SitesPlatform } from '../../test-support.ts';

const ORG = 'org-pc';
const admin = userActor('admin', [{ organization: ORG, role: 'admin' }]);
const anonymous: Actor = { kind: 'anonymous' };
const BASE = 'http://quire.test';

const p = useSitesAndContent('published-content');
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

async function newSite(visibility: 'public' | 'share-link' | 'visitor-auth' = 'public', publish = true) {
  const guide = await buildSpace(p.content, { org: ORG, title: 'Guide', as: admin });
  const api = await buildSpace(p.content, { org: ORG, title: 'API', as: admin });
  const site = await call(
    ops.createSite,
    { organizationId: ORG, title: 'Docs', spaces: [guide.id, api.id], visibility },
    admin,
  );
  if (publish) await call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
  const [g, a] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: site.id }, admin)).items;
  return { site, guide: g!, api: a!, url: `${BASE}/sites/${site.basename}` };
}

const resolve = (url: string, more: Record<string, unknown> = {}) =>
  call(ops.resolvePublishedContentByUrl, { url, ...more }, anonymous);
const failure = async (url: string, more: Record<string, unknown> = {}) => failureOf(resolve(url, more));
const sign = (key: string, claims: Record<string, unknown>, exp: string | number = '1h') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(new TextEncoder().encode(key));

describe('published content by URL', () => {
  it('resolves a published URL to its site, site space, space and page path, with a stable api token', async () => {
    const s = await newSite();
    const found = await resolve(`${s.url}/api/guides/setup?x=1`, {
      redirectOnError: true,
      visitor: { type: 'human' },
      cacheBust: 'x',
      unknownField: 1,
    });
    expect(found).toEqual({
      site: s.site.id,
      siteSpace: s.api.id,
      space: s.api.space!.id,
      organization: ORG,
      pathname: 'guides/setup',
      basePath: `/sites/${s.site.basename}/api/`,
      siteBasePath: `/sites/${s.site.basename}/`,
      canonicalUrl: `${s.url}/api/guides/setup`,
      complete: true,
      revision: expect.any(String),
      apiToken: expect.any(String),
    });
    const token = decodeJwt((found as { apiToken: string }).apiToken);
    expect(token).toMatchObject({
      site: s.site.id,
      siteSpace: s.api.id,
      space: s.api.space!.id,
      organization: ORG,
      claims: { unsigned: {} },
    });
    expect(token.exp! - Date.now() / 1000).toBeGreaterThan(120);
    expect(((await resolve(`${s.url}/api/guides/setup`)) as { apiToken: string }).apiToken).toBe(
      (found as { apiToken: string }).apiToken,
    );

    const root = await resolve(s.url);
    expect(root).toMatchObject({
      siteSpace: s.guide.id,
      pathname: '',
      basePath: `/sites/${s.site.basename}/`,
      canonicalUrl: `${s.url}/`,
    });
    const byGet = await call(ops.getPublishedContentByUrl, { url: `${s.url}/install` }, admin);
    expect(byGet).toMatchObject({ siteSpace: s.guide.id, pathname: 'install' });
  });

  it('answers the site’s redirect when the path names no page: to the site (with the share key) or elsewhere', async () => {
    const s = await newSite('share-link');
    const where = { organizationId: ORG, siteId: s.site.id };
    const link = await call(ops.createSiteShareLink, { ...where, name: 'Press' }, admin);
    const key = new URL(link.urls.published!).searchParams.get('share')!;
    await call(
      ops.createSiteRedirect,
      { ...where, source: '/old-api', destination: { kind: 'site-space', siteSpaceId: s.api.id } },
      admin,
    );
    await call(
      ops.createSiteRedirect,
      {
        ...where,
        source: '/blog/*',
        captureWildcard: true,
        destination: { kind: 'external', url: 'https://blog.example.com' },
      },
      admin,
    );
    expect(await resolve(`${s.url}/old-api?share=${key}`)).toEqual({
      target: 'content',
      redirect: `${s.url}/api?share=${key}`,
    });
    expect(await resolve(`${s.url}/blog/2024/x?share=${key}`)).toEqual({
      target: 'external',
      site: s.site.id,
      redirect: 'https://blog.example.com/2024/x',
    });
    expect((await failure(`${s.url}/old-api`)).reason).toBe('not_found');
    expect(await resolve(`${s.url}/no-redirect?share=${key}`)).toMatchObject({
      siteSpace: s.guide.id,
      pathname: 'no-redirect',
    });
  });

  it('never reveals an unpublished site, an unknown URL or a bad one (404, or 400 naming url)', async () => {
    const s = await newSite('public', false);
    expect((await failure(s.url)).reason).toBe('not_found');
    expect((await failure(`${BASE}/sites/no-such-site`)).reason).toBe('not_found');
    expect((await failure('https://docs.unknown.example.com/page')).reason).toBe('not_found');
    expect((await failure(`${BASE}/sites/${s.site.basename}/%2e%2e/x`)).reason).toBe('not_found');
    const bad = await failure('javascript:alert(1)');
    expect([bad.reason, bad.message]).toEqual(['invalid_input', expect.stringMatching(/url/)]);
    expect((await failure(`${BASE}/${'a'.repeat(3000)}`)).message).toMatch(/url/);
  });

  it('opens a share-link site only with an active key', async () => {
    const s = await newSite('share-link');
    const link = await call(
      ops.createSiteShareLink,
      { organizationId: ORG, siteId: s.site.id, name: 'Partners' },
      admin,
    );
    const key = new URL(link.urls.published!).searchParams.get('share')!;
    expect((await failure(s.url)).reason).toBe('not_found');
    expect((await failure(`${s.url}?share=wrong`)).reason).toBe('not_found');
    const found = await resolve(`${s.url}/api?share=${key}`);
    expect(found).toMatchObject({ siteSpace: s.api.id, shareKey: key });
    expect(decodeJwt((found as { apiToken: string }).apiToken)).toMatchObject({ shareKey: key });
    await call(
      ops.updateSiteShareLinkById,
      { organizationId: ORG, siteId: s.site.id, shareLinkId: link.id, active: false },
      admin,
    );
    expect((await failure(`${s.url}/api?share=${key}`)).reason).toBe('not_found');
  });

  it('visitor auth: a JWT signed with the site key opens it with its claims; without one, the sign-in redirect', async () => {
    const s = await newSite('visitor-auth');
    const where = { organizationId: ORG, siteId: s.site.id };
    const auth = await call(
      ops.updateSitePublishingAuthById,
      { ...where, backend: 'custom', fallbackURL: 'https://login.example.com/sso' },
      admin,
    );
    const page = `${s.url}/api/intro`;

    expect(await resolve(page)).toEqual({
      target: 'external',
      site: s.site.id,
      redirect: `https://login.example.com/sso?location=${encodeURIComponent(`/sites/${s.site.basename}/api/intro`)}`,
    });
    const good = await resolve(page, { visitor: { jwtToken: await sign(auth.privateKey, { plan: 'gold' }) } });
    expect(good).toMatchObject({ siteSpace: s.api.id, pathname: 'intro', contextId: expect.any(String) });
    expect(decodeJwt((good as { apiToken: string }).apiToken).claims).toEqual({ plan: 'gold', unsigned: {} });
    const viaGet = await call(
      ops.getPublishedContentByUrl,
      { url: page, visitorAuthToken: await sign(auth.privateKey, { plan: 'gold' }) },
      anonymous,
    );
    expect(viaGet).toMatchObject({ siteSpace: s.api.id });

    const otherKey = await sign('another-key-of-the-same-length-000000000', { plan: 'gold' });
    expect((await failure(page, { visitor: { jwtToken: otherKey } })).reason).toBe('unauthenticated');
    expect(await resolve(page, { redirectOnError: true, visitor: { jwtToken: otherKey } })).toMatchObject({
      target: 'external',
    });
    const expired = await sign(auth.privateKey, { plan: 'gold' }, Math.floor(Date.now() / 1000) - 3600);
    expect((await failure(page, { visitor: { jwtToken: expired } })).reason).toBe('unauthenticated');
    await call(ops.regenerateSitePublishingAuthById, where, admin);
    expect((await failure(page, { visitor: { jwtToken: await sign(auth.privateKey, { plan: 'gold' }) } })).reason).toBe(
      'unauthenticated',
    );
  });

  it('adaptive content: claims decide which sections a visitor reaches; unsigned claims only as the schema declares', async () => {
    const s = await newSite();
    const where = { organizationId: ORG, siteId: s.site.id };
    const beta = await buildSpace(p.content, { org: ORG, title: 'Beta', as: admin });
    await call(ops.updateSiteById, { ...where, adaptiveContent: { enabled: true } }, admin);
    const jsonSchema = {
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          properties: { isBetaUser: { type: 'boolean', description: 'Beta' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    await call(ops.updateSiteAdaptiveSchema, { ...where, jsonSchema } as never, admin);
    const added = await call(ops.addSpaceToSite, { ...where, spaceId: beta.id }, admin);
    await call(
      ops.updateSiteSpaceById,
      { ...where, siteSpaceId: added.id, path: 'beta', condition: 'visitor.claims.unsigned.isBetaUser' },
      admin,
    );

    const anon = await resolve(`${s.url}/beta/news`);
    expect(anon).toMatchObject({ siteSpace: s.guide.id, pathname: 'beta/news' });
    expect(anon).not.toHaveProperty('contextId');
    const tester = await resolve(`${s.url}/beta/news`, {
      visitor: { unsignedClaims: { isBetaUser: true, undeclared: 'x' } },
    });
    expect(tester).toMatchObject({ space: beta.id, pathname: 'news', contextId: expect.any(String) });
    expect(decodeJwt((tester as { apiToken: string }).apiToken).claims).toEqual({ unsigned: { isBetaUser: true } });

    // A reader (the api token as the gateway presents it) is shown the site spaces its claims show, no condition.
    const reader = (claims: Record<string, unknown>, site = s.site.id): Actor => ({
      kind: 'reader',
      reader: { site, organization: ORG, siteSpaces: [], claims },
    });
    const shownTo = async (claims: Record<string, unknown>) => {
      const published = await call(ops.getPublishedContentSite, where, reader(claims));
      expect(JSON.stringify(published)).not.toMatch(/condition|isBetaUser/);
      return (published.structure.structure as { id: string; space?: { id: string } }[]).map((t) => t.space?.id);
    };
    expect(await shownTo({ unsigned: {} })).not.toContain(beta.id);
    expect(await shownTo({ unsigned: { isBetaUser: true } })).toContain(beta.id);
    // A member still sees the whole structure, conditions included.
    expect(JSON.stringify(await call(ops.getPublishedContentSite, where, admin))).toContain('isBetaUser');
    // Another site of the organization, or an operation not open to readers: nothing.
    const other = await newSite();
    const elsewhere = { organizationId: ORG, siteId: other.site.id };
    expect((await failureOf(call(ops.getPublishedContentSite, elsewhere, reader({ unsigned: {} })))).reason).toBe(
      'not_found',
    );
    expect((await failureOf(call(ops.getSiteById, where, reader({ unsigned: {} })))).reason).toBe('forbidden');
  });
});
