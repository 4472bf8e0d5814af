import { request } from 'node:http';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { setTxtResolver } from '@quire/kit';
import { mergeChanges, useCast } from './harness.ts';
import { type PageSpec, publishDemoSite, spaceWithPage, writePages } from './published-sites.fixtures.ts';

const { p, acme, other } = useCast({});
let site: Awaited<ReturnType<typeof publishDemoSite>>;

beforeAll(async () => {
  site = await publishDemoSite(p.client(acme.token), acme.organization.id);
}, 180_000);

/** GET a URL of the site on the gateway (its `urls.published` is on the public URL, http://quire.test). */
async function open(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url.replace('http://quire.test', p.url), { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A request with exactly this path and Host (fetch would normalise `..` and refuse some hosts). */
function raw(path: string, host = new URL(p.url).host): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(p.url);
  return new Promise((done, fail) => {
    const req = request({ host: hostname, port, path, method: 'GET', headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end();
  });
}

const cookieOf = (h: Headers) =>
  h
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

describe('a published site, as a reader opens it', () => {
  it('serves urls.published of a freshly published site: the docs, their navigation and their content', async () => {
    expect(site.site.urls.published).toBe('http://quire.test/sites/acme-cloud-docs');
    const home = await open(site.site.urls.published!);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.text).toContain('<h1>Introduction</h1>');
    expect(home.text).toContain('Acme Cloud Docs');
    expect(home.text).toMatch(/<nav class="sections" aria-label="Sections">.*Guide.*API Reference/s);
    expect(home.text).toContain('aria-current="page"');
    expect(home.text).toContain('class="shiki');
    expect(home.text).toContain('<figcaption>hello.ts</figcaption>');
    expect(home.text).toContain('class="hint hint-info"');
    expect(home.text).toContain('<table>');
    expect(home.text).toMatch(
      /<img [^>]*src="\/v1\/downloads\/[^"]+" alt="Architecture diagram" width="320" height="160"/,
    );
    expect(home.text).toContain('href="/sites/acme-cloud-docs/getting-started/installation"');
    expect(home.text).toContain('href="/sites/acme-cloud-docs/getting-started/configuration#options"');
    expect(home.text).toContain('<link rel="canonical" href="http://quire.test/sites/acme-cloud-docs">');
    const nested = await open(`${site.site.urls.published}/getting-started/configuration`);
    expect(nested.status).toBe(200);
    expect(nested.text).toContain('<h1>Configuration</h1>');
    expect(nested.text).toMatch(/<nav class="breadcrumbs"[^>]*>.*Getting started.*Configuration/s);
    expect(nested.text).toContain('<nav class="toc" aria-label="On this page">');
    expect(nested.text).toContain('rel="prev"');
    const reference = await open(`${site.site.urls.published}/api-reference`);
    expect(reference.status).toBe(200);
    expect(reference.text).toContain('<h1>API overview</h1>');
  });

  it('answers the site 404 page for unknown pages', async () => {
    const missing = await open(`${site.site.urls.published}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found');
    expect(missing.text).toContain('Acme Cloud Docs');
  });
});

describe('for machines and caches', () => {
  it('serves robots.txt, sitemap.xml, llms.txt, llms-full.txt and every page as markdown', async () => {
    const base = site.site.urls.published!;
    const robots = await open(`${base}/robots.txt`);
    expect(robots.text).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${base}/sitemap.xml\n`);
    const sitemap = await open(`${base}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(sitemap.text).toContain(`<loc>${base}</loc>`);
    expect(sitemap.text).toContain(`<loc>${base}/getting-started/configuration</loc>`);
    expect(sitemap.text).toContain(`<loc>${base}/api-reference/jobs-endpoint</loc>`);
    const llms = await open(`${base}/llms.txt`);
    expect(llms.text).toContain('# Acme Cloud Docs');
    expect(llms.text).toContain(
      `- [Introduction](${base}/index.md): What Acme Cloud is and how these docs are organised.`,
    );
    expect(llms.text).toContain(`- [Installation](${base}/getting-started/installation.md)`);
    const md = await open(`${base}/getting-started/installation.md`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.text).toMatch(/^# Installation\n\nInstall the CLI:/);
    expect((await open(`${base}/index.md`)).text).toMatch(/^# Introduction\n/);
    const full = await open(`${base}/llms-full.txt`);
    expect(full.text).toContain('curl -fsSL https://acme.test/install | sh');
    expect(full.text).toContain('Create, list and cancel jobs.');
  });

  it('answers 304 to a matching ETag, caches public pages publicly, compresses', async () => {
    const url = `${site.site.urls.published}/getting-started/installation`;
    const first = await open(url);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect((await open(url, { 'if-none-match': etag })).status).toBe(304);
    const zipped = await fetch(url.replace('http://quire.test', p.url), { headers: { 'accept-encoding': 'br, gzip' } });
    expect(zipped.headers.get('content-encoding')).toMatch(/br|gzip/);
    expect(first.text.length).toBeLessThan(200_000);
    expect(first.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('shows new content once merged (the cache follows the revision)', async () => {
    const api = p.client(acme.token);
    await writePages(api, site.reference.id, [{ ref: 'new', title: 'Webhooks endpoint', markdown: 'Fresh content.' }]);
    const url = `${site.site.urls.published}/api-reference/webhooks-endpoint`;
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await open(url)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

describe('audiences', () => {
  const org = () => acme.organization.id;
  /** A site of this visibility showing a new space holding one page, published. */
  const publishedSite = async (title: string, visibility: string, space: string, page: Omit<PageSpec, 'ref'>) => {
    const api = p.client(acme.token);
    const { id } = await spaceWithPage(api, org(), space, page);
    const site = (await api.orgs.createSite(org(), { title, visibility, spaces: [id] } as never)).data;
    await api.orgs.publishSite(org(), site.id);
    return site;
  };

  it('opens a share-link site with an active key only (the key sets a cookie)', async () => {
    const api = p.client(acme.token);
    const created = await publishedSite('Partners', 'share-link', 'Partner guide', {
      title: 'Partner intro',
      markdown: 'For partners.',
    });
    const link = (await api.orgs.createSiteShareLink(org(), created.id, { name: 'ACME partners' })).data as {
      id: string;
      urls: { published?: string };
    };
    const base = link.urls.published!.split('?')[0]!;
    expect((await open(base)).status).toBe(404);
    expect((await open(`${base}?share=not-a-key`)).status).toBe(404);
    const withKey = await open(link.urls.published!);
    expect(withKey.status).toBe(200);
    expect(withKey.text).toContain('<h1>Partner intro</h1>');
    expect(withKey.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(withKey.headers.get('cache-control')).toBe('private, no-store');
    expect(withKey.headers.getSetCookie()[0]).toMatch(
      /^quire_share=\w+; Path=\/sites\/partners; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
    );
    const cookie = cookieOf(withKey.headers);
    expect((await open(base, { cookie })).status).toBe(200);
    expect((await open(`${base}/robots.txt`)).text).toBe('User-agent: *\nDisallow: /\n');
    expect((await open(`${base}/sitemap.xml`, { cookie })).status).toBe(404);
    await api.orgs.updateSiteShareLinkById(org(), created.id, link.id, { active: false } as never);
    expect((await open(base, { cookie })).status).toBe(404);
    expect((await open(link.urls.published!)).status).toBe(404);
  });

  it('opens a visitor-auth site with a JWT signed by the site key; another key or an expired token go to sign-in', async () => {
    const api = p.client(acme.token);
    const created = await publishedSite('Portal', 'visitor-auth', 'Customer portal', {
      title: 'Welcome back',
      markdown: 'Signed-in only.',
    });
    const auth = (
      await api.orgs.updateSitePublishingAuthById(org(), created.id, {
        backend: 'custom',
        fallbackURL: 'https://login.acme.test/sso',
      } as never)
    ).data as { privateKey: string };
    const base = `${p.url}/sites/portal`;
    const sign = (key: string, exp: string | number) =>
      new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const none = await open(base);
    expect(none.status).toBe(302);
    expect(none.headers.get('location')).toBe(
      'https://login.acme.test/sso?location=http%3A%2F%2Fquire.test%2Fsites%2Fportal',
    );
    const good = await open(`${base}?jwt_token=${await sign(auth.privateKey, '1h')}`);
    expect(good.status).toBe(200);
    expect(good.text).toContain('<h1>Welcome back</h1>');
    expect(good.headers.get('cache-control')).toBe('private, no-store');
    expect((await open(base, { cookie: cookieOf(good.headers) })).status).toBe(200);
    expect((await open(`${base}?jwt_token=${await sign('another-key-of-32-characters-long!!', '1h')}`)).status).toBe(
      302,
    );
    expect(
      (await open(`${base}?jwt_token=${await sign(auth.privateKey, Math.floor(Date.now() / 1000) - 3600)}`)).status,
    ).toBe(302);
    expect((await open(`${base}/llms.txt`)).status).toBe(302);
  });

  it('shows an adaptive section only to visitors with the claim (unsigned from the URL, signed from the JWT)', async () => {
    const api = p.client(acme.token);
    const main = await spaceWithPage(api, org(), 'Handbook', { title: 'Handbook home', markdown: 'For everyone.' });
    const beta = await spaceWithPage(api, org(), 'Beta features', { title: 'Beta home', markdown: 'Zanzibar flag.' });
    const enterprise = await spaceWithPage(api, org(), 'Enterprise', {
      title: 'Enterprise home',
      markdown: 'For enterprise.',
    });
    const created = (await api.orgs.createSite(org(), { title: 'Adaptive handbook' } as never)).data;
    await api.orgs.updateSiteById(org(), created.id, { adaptiveContent: { enabled: true } } as never);
    await api.orgs.updateSiteAdaptiveSchema(org(), created.id, {
      jsonSchema: {
        type: 'object',
        properties: {
          isEnterprise: { type: 'boolean', description: 'Enterprise' },
          unsigned: {
            type: 'object',
            properties: { isBetaUser: { type: 'boolean', description: 'Beta' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    } as never);
    await api.orgs.addSectionToSite(org(), created.id, { spaceId: main.id, title: 'Handbook' } as never);
    const betaSection = (
      await api.orgs.addSectionToSite(org(), created.id, { spaceId: beta.id, title: 'Beta' } as never)
    ).data as { id: string };
    const entSection = (
      await api.orgs.addSectionToSite(org(), created.id, { spaceId: enterprise.id, title: 'Enterprise' } as never)
    ).data as { id: string };
    await api.orgs.updateSiteSectionById(org(), created.id, betaSection.id, {
      condition: 'visitor.claims.unsigned.isBetaUser',
    } as never);
    await api.orgs.updateSiteSectionById(org(), created.id, entSection.id, {
      condition: 'visitor.claims.isEnterprise == true',
    } as never);
    await api.orgs.publishSite(org(), created.id);
    const key = ((await api.orgs.getSitePublishingAuthById(org(), created.id)).data as { privateKey: string })
      .privateKey;
    const base = `${p.url}/sites/adaptive-handbook`;
    const anon = await open(base);
    expect(anon.text).not.toContain('Beta');
    expect((await open(`${base}/beta`)).status).toBe(404);
    expect((await open(`${base}/~search?q=zanzibar`)).text).toContain('No results');
    expect((await open(`${base}/llms.txt`)).text).not.toContain('Beta home');
    const betaPage = await open(`${base}/beta?visitor.isBetaUser=true`);
    expect(betaPage.status).toBe(200);
    expect(betaPage.text).toContain('<h1>Beta home</h1>');
    expect(betaPage.headers.get('cache-control')).toBe('private, no-store');
    expect((await open(`${base}/~search?q=zanzibar&visitor.isBetaUser=true`)).text).toContain('Beta home');
    expect((await open(`${base}/enterprise`)).status).toBe(404);
    const jwt = await new SignJWT({ isEnterprise: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
    expect((await open(`${base}/enterprise?jwt_token=${jwt}`)).text).toContain('<h1>Enterprise home</h1>');
    // A claim in the URL cannot pass for a signed one.
    expect((await open(`${base}/enterprise?visitor.isEnterprise=true`)).status).toBe(404);
  });
});

describe('isolation and hostile requests', () => {
  it("never reaches an unpublished site, another organization's site, a space not on the site or a hidden page", async () => {
    const theirs = p.client(other.token);
    const space = await spaceWithPage(theirs, other.organization.id, 'Their space', {
      title: 'Quarterly numbers',
      markdown: 'Xylophone revenue.',
    });
    await theirs.orgs.createSite(other.organization.id, { title: 'Internal', spaces: [space.id] } as never);
    expect((await open(`${p.url}/sites/internal`)).status).toBe(404);
    // A space of the same organization that is not on the site: no path, search, sitemap or llms.txt reaches it.
    const api = p.client(acme.token);
    await spaceWithPage(api, acme.organization.id, 'Not on the site', {
      title: 'Loose page',
      markdown: 'Quokka secret.',
    });
    const base = site.site.urls.published!;
    for (const path of ['/not-on-the-site', '/loose-page', '/not-on-the-site/loose-page', '/loose-page.md'])
      expect((await open(`${base}${path}`)).status).toBe(404);
    expect((await open(`${base}/~search?q=quokka`)).text).toContain('No results');
    expect((await open(`${base}/~search?q=xylophone`)).text).toContain('No results');
    for (const file of ['/sitemap.xml', '/llms.txt', '/llms-full.txt'])
      expect((await open(`${base}${file}`)).text).not.toMatch(/Loose page|Quokka|Quarterly/);
    // A hidden page (and its sub-page): at no URL of the site, nor in its search, sitemap or llms files.
    await mergeChanges(
      api,
      site.guide.id,
      [
        {
          operation: 'insert_page',
          ref: 'h',
          title: 'Internal notes',
          hidden: true,
          document: { markdown: 'Wombat plans.' },
        },
        { operation: 'insert_page', into: 'h', title: 'Wombat budget', document: { markdown: 'Wombat money.' } },
        { operation: 'insert_page', title: 'Public notes', document: { markdown: 'Numbat facts.' } },
      ],
      'Hide',
    );
    // The merge reaches the site through space.content-updated: wait for the visible page (a busy machine takes longer).
    let shown = await open(`${base}/public-notes`);
    for (let i = 0; i < 100 && shown.status === 404; i++) {
      await new Promise((r) => setTimeout(r, 100));
      shown = await open(`${base}/public-notes`);
    }
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain('Internal notes');
    for (const path of [
      '/internal-notes',
      '/internal-notes.md',
      '/internal-notes/wombat-budget',
      '/internal-notes/wombat-budget.md',
    ])
      expect((await open(`${base}${path}`)).status, path).toBe(404);
    expect((await open(`${base}/~search?q=wombat`)).text).toContain('No results');
    for (const file of ['/sitemap.xml', '/llms.txt', '/llms-full.txt'])
      expect((await open(`${base}${file}`)).text).not.toMatch(/Internal notes|Wombat/);
  });

  it('answers traversal, oversized paths and odd Host headers without a 500 or another resource', async () => {
    for (const path of [
      '/sites/acme-cloud-docs/../../v1/orgs',
      '/sites/acme-cloud-docs/%2e%2e/%2e%2e/v1/orgs',
      '/sites/acme-cloud-docs/a%2Fb',
      '/sites/acme-cloud-docs/%ZZ',
      '/sites/acme-cloud-docs/%00',
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, path).not.toContain('"items"');
    }
    expect((await raw(`/sites/acme-cloud-docs/${'x'.repeat(20_000)}`)).status).toBeLessThan(500);
    for (const host of [
      '<script>alert(1)</script>',
      'docs.evil.example.com',
      `${'a'.repeat(60)}.b.c`,
      '',
      'quire.test',
    ]) {
      const res = await raw('/', host);
      expect(res.status, host).toBeLessThan(500);
      expect(res.text).not.toContain('<script>alert(1)</script>');
    }
    const unknownSite = await raw('/sites/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(unknownSite.status).toBe(404);
    expect(unknownSite.text).not.toContain('<script>');
  });

  it('keeps the proxy path in links when the site is reached through its proxy', async () => {
    const api = p.client(acme.token);
    await api.orgs.updateSiteById(acme.organization.id, site.site.id, { proxy: 'www.acme.example/docs' } as never);
    const res = await open(`${site.site.urls.published}/getting-started/installation`, {
      'x-forwarded-host': 'www.acme.example',
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('href="/docs/getting-started/configuration"');
    expect(res.text).toContain('action="/docs/~search"');
    expect(res.text).not.toContain('href="/sites/acme-cloud-docs');
    // Another forwarded host is not the proxy: the instance paths stay.
    const direct = await open(`${site.site.urls.published}/getting-started/installation`, {
      'x-forwarded-host': 'evil.example',
    });
    expect(direct.text).toContain('href="/sites/acme-cloud-docs/getting-started/configuration"');
    await api.orgs.updateSiteById(acme.organization.id, site.site.id, { proxy: null } as never);
  });

  it('routes a custom hostname to its site once its DNS TXT record proves it', async () => {
    const api = p.client(acme.token);
    await api.orgs.updateSiteById(acme.organization.id, site.site.id, { hostname: 'docs.acme.example' } as never);
    expect((await raw('/getting-started/installation', 'docs.acme.example')).status).toBe(404);
    const call = (method: string) =>
      fetch(`${p.url}/v1/custom-hostnames/docs.acme.example`, {
        method,
        headers: { authorization: `Bearer ${acme.token}` },
      });
    const pending = await (await call('GET')).json();
    expect(pending).toMatchObject({ object: 'custom-hostname', isActive: false, status: 'dns_no_cname' });
    // The organization publishes the TXT record (a DNS of the test's own, in the standalone process).
    const zone = new Map([[pending.verification.name, [pending.verification.value]]]);
    setTxtResolver(async (name) => zone.get(name) ?? []);
    try {
      expect((await call('PATCH')).status).toBe(204);
    } finally {
      setTxtResolver(null);
    }
    expect(await (await call('GET')).json()).toMatchObject({ isActive: true, status: 'dns_passed' });
    const res = await raw('/getting-started/installation', 'docs.acme.example');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Installation</h1>');
    expect(res.text).toContain('<link rel="canonical" href="https://docs.acme.example/getting-started/installation">');
    expect(res.text).toContain('href="/getting-started/configuration"');
    // The API stays the API on that host.
    expect((await raw('/v1/openapi.json', 'docs.acme.example')).status).toBe(200);
    await api.orgs.updateSiteById(acme.organization.id, site.site.id, { hostname: null } as never);
  });
});
