import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { http, mergeChanges, useCast } from './harness.ts';
import { plansHandbook } from './published-sites.fixtures.ts';

// Issue 36, item 3: a reader's token (the `apiToken` of `POST /v1/urls/published`) reads what that reader sees on the
// site — no condition, nothing a condition hides from it, no hidden page, no space of another site — in every format.

const { p, acme } = useCast({});
let org: string;
let handbook: string;
let elsewhere: string;
let plans: string;
let internal: string;
let publicSite: { id: string; url: string };
let partnerSite: { id: string; url: string; key: string };

const PLANS = `Everyone reads this.

{% if visitor.claims.plan == "pro" %}
Pro secret: platypus.
{% endif %}

{% if visitor.claims.plan != "pro" %}
Upgrade to read more.
{% endif %}
`;

/** A published site of one space; `visibility` other than public. */
async function siteOf(api: GitBookAPI, title: string, spaceId: string, visibility?: string) {
  const site = (await api.orgs.createSite(org, { title, ...(visibility ? { visibility } : {}) } as never)).data;
  await api.orgs.addSpaceToSite(org, site.id, { spaceId } as never);
  const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
  return { id: site.id, url: published.urls.published };
}

beforeAll(async () => {
  org = acme.organization.id;
  const api = p.client(acme.token);
  const h = await plansHandbook(api, org, PLANS, 'Wombat plans.');
  handbook = h.space;
  plans = h.plans.id;
  internal = h.internal.id;
  elsewhere = (await api.orgs.createSpace(org, { title: 'Elsewhere' })).data.id;
  await mergeChanges(
    api,
    elsewhere,
    [{ operation: 'insert_page', title: 'Far', document: { markdown: 'Quokka.' } }],
    'Write',
  );
  publicSite = await siteOf(api, 'Public handbook', handbook);
  await siteOf(api, 'Elsewhere', elsewhere);
  const partner = await siteOf(api, 'Partner handbook', handbook, 'visitor-auth');
  const auth = (
    await api.orgs.updateSitePublishingAuthById(org, partner.id, {
      backend: 'custom',
      fallbackURL: 'https://sso.acme.test/login',
    })
  ).data;
  partnerSite = { ...partner, key: auth.privateKey };
}, 180_000);

/** The api token a renderer gets for a page of a site, for a visitor (signed claims, or none). */
async function tokenFor(siteUrl: string, jwtToken?: string): Promise<string> {
  const found = (
    await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({
      url: `${siteUrl}/plans`,
      ...(jwtToken ? { visitor: { jwtToken } } : {}),
    })
  ).data as { apiToken: string };
  return found.apiToken;
}

const signVisitor = (key: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));

/** What a page shows through a token: its markdown and its JSON document (by id, in the space and in its revision). */
async function pageAs(token: string, evaluated = 'deterministic-only') {
  const get = http(p, token);
  const revision = (await get('GET', `/v1/spaces/${handbook}`)).json.revision as string;
  const query = `evaluated=${evaluated}`;
  const markdown = await get('GET', `/v1/spaces/${handbook}/content/page/${plans}?format=markdown&${query}`);
  const document = await get(
    'GET',
    `/v1/spaces/${handbook}/revisions/${revision}/page/${plans}?format=document&${query}`,
  );
  const byPath = await get('GET', `/v1/spaces/${handbook}/content/path/plans?format=markdown&${query}`);
  expect([markdown.status, document.status, byPath.status]).toEqual([200, 200, 200]);
  expect(byPath.json.markdown).toBe(markdown.json.markdown);
  return { markdown: markdown.json.markdown as string, document: JSON.stringify(document.json.document) };
}

describe("a reader's token reads what the reader sees", () => {
  it('an anonymous reader: no condition and nothing a condition hides, in markdown and in the document', async () => {
    const token = await tokenFor(publicSite.url);
    expect(decodeJwt(token)).toMatchObject({ site: publicSite.id, claims: { unsigned: {} } });
    expect(decodeJwt(token).exp! * 1000 - Date.now()).toBeGreaterThan(120_000);
    const seen = await pageAs(token);
    expect(seen.markdown).toContain('Everyone reads this.');
    expect(seen.markdown).toContain('Upgrade to read more.');
    for (const text of [seen.markdown, seen.document]) {
      expect(text).not.toContain('platypus');
      expect(text).not.toMatch(/visitor|claims|\{%/);
    }
    expect(seen.document).not.toContain('"type":"if"');
    // Whatever it asks: `evaluated=false` does not give a reader the source.
    expect((await pageAs(token, 'false')).markdown).not.toMatch(/platypus|\{%/);
  });

  it('a visitor with claims reads the branch its claims select, never the condition', async () => {
    const pro = await tokenFor(partnerSite.url, await signVisitor(partnerSite.key, { plan: 'pro' }));
    expect(decodeJwt(pro).claims).toMatchObject({ plan: 'pro' });
    const seen = await pageAs(pro);
    expect(seen.markdown).toContain('Pro secret: platypus.');
    expect(seen.markdown).not.toContain('Upgrade to read more.');
    expect(seen.document).toContain('platypus');
    for (const text of [seen.markdown, seen.document]) expect(text).not.toMatch(/visitor|claims|\{%|"type":"if"/);
    const free = await tokenFor(partnerSite.url, await signVisitor(partnerSite.key, { plan: 'free' }));
    expect((await pageAs(free)).markdown).not.toContain('platypus');
  });

  it('a hidden page is not found by path or id, nor listed; another site’s space is not found', async () => {
    const get = http(p, await tokenFor(publicSite.url));
    const revision = (await get('GET', `/v1/spaces/${handbook}`)).json.revision as string;
    for (const path of [
      `/v1/spaces/${handbook}/content/path/internal`,
      `/v1/spaces/${handbook}/content/page/${internal}?format=markdown`,
      `/v1/spaces/${handbook}/revisions/${revision}/page/${internal}`,
      `/v1/spaces/${handbook}/revisions/${revision}/path/internal`,
      `/v1/spaces/${elsewhere}`,
      `/v1/spaces/${elsewhere}/content`,
      `/v1/spaces/${elsewhere}/content/path/far?format=markdown`,
    ]) {
      const res = await get('GET', path);
      expect([res.status, res.json.error.code], path).toEqual([404, 404]);
      expect(res.text, path).not.toMatch(/Wombat|Quokka/);
    }
    for (const path of [`/v1/spaces/${handbook}/content`, `/v1/spaces/${handbook}/content/pages`]) {
      const res = await get('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toContain('Plans');
      expect(res.text, path).not.toContain('Internal');
    }
  });

  it('a member token still reads everything as stored, and evaluates only when asked', async () => {
    const get = http(p, acme.token);
    const stored = await get('GET', `/v1/spaces/${handbook}/content/page/${plans}?format=markdown`);
    expect(stored.json.markdown).toContain('{% if visitor.claims.plan == "pro" %}');
    expect(stored.json.markdown).toContain('platypus');
    expect((await get('GET', `/v1/spaces/${handbook}/content/path/internal`)).status).toBe(200);
    expect((await get('GET', `/v1/spaces/${handbook}/content/pages`)).text).toContain('Internal');
    // `evaluated=true`: as an anonymous visitor would see it.
    const evaluated = await get('GET', `/v1/spaces/${handbook}/content/page/${plans}?format=markdown&evaluated=true`);
    expect(evaluated.json.markdown).toContain('Upgrade to read more.');
    expect(evaluated.json.markdown).not.toMatch(/platypus|\{%/);
    // `deterministic-only`: a condition on the visitor is left as it is.
    const deterministic = await get(
      'GET',
      `/v1/spaces/${handbook}/content/page/${plans}?format=document&evaluated=deterministic-only`,
    );
    expect(JSON.stringify(deterministic.json.document)).toContain('"type":"if"');
  });

  it('searches only what the reader reads: no excerpt of a page with blocks hidden from it', async () => {
    const reader = new GitBookAPI({ endpoint: p.url, authToken: await tokenFor(publicSite.url) });
    const member = p.client(acme.token);
    // Wait for the search index (the member's search of the site finds the page's hidden words first).
    for (let i = 0; i < 100; i++) {
      const items = (await member.orgs.searchSiteContent(org, publicSite.id, { query: 'platypus' } as never)).data
        .items;
      if (items.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const items = (await reader.orgs.searchSiteContent(org, publicSite.id, { query: 'platypus' } as never)).data.items;
    expect(JSON.stringify(items)).not.toContain('platypus');
    const wombat = (await reader.orgs.searchSiteContent(org, publicSite.id, { query: 'wombat' } as never)).data.items;
    expect(wombat).toEqual([]);
  });
});
