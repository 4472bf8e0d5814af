import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { apiError, useCast } from './harness.ts';
import { plansHandbook } from './published-sites.fixtures.ts';

// Issue 42: the calls GitBook's site renderer makes (../shared/spec/renderer-api.md), through the official client,
// with a member's token and with the published-content token `POST /v1/urls/published` gives a site's reader.

// QUIRE_ALLOW_PRIVATE_FETCH=1 lets the embeds reach the local page server below (the guard refuses loopback otherwise).
const { p, acme, other, bob } = useCast(
  { bob: ['bob@acme.io', 'read', 'Bob'] },
  { env: { QUIRE_ALLOW_PRIVATE_FETCH: '1', QUIRE_OPENAPI_SCAN_EVERY_MS: '200' } },
);
let org: string;
let handbook: string;
let revision: string;
let plans: string;
let internal: string;
let readerToken: string;
let siteId: string;
let siteSpaceId: string;
let plansDocument: string;
let pageServer: Server;
let pagesUrl: string;

/** An OpenAPI block showing an operation of the specification `slug`, as GitBook's Git Sync writes it. */
const operation = (slug: string) =>
  `{% openapi-operation spec="${slug}" path="/pets" method="get" %}\n[OpenAPI ${slug}](gitbook-openapi:${slug})\n{% endopenapi-operation %}`;

const PLANS = `Everyone reads this.

${operation('pets')}

{% if visitor.claims.plan == "pro" %}
Pro secret: platypus.

${operation('pro-api')}
{% endif %}
`;
const PETS_SPEC = `openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n`;

beforeAll(async () => {
  org = acme.organization.id;
  const api = p.client(acme.token);
  const h = await plansHandbook(api, org, PLANS, `Wombat plans.\n\n${operation('internal-api')}\n`);
  handbook = h.space;
  plans = h.plans.id;
  internal = h.internal.id;
  plansDocument = h.plans.documentId!;
  revision = (await api.spaces.getSpaceById(handbook)).data.revision;
  const site = (await api.orgs.createSite(org, { title: 'Public handbook' } as never)).data;
  await api.orgs.addSpaceToSite(org, site.id, { spaceId: handbook } as never);
  const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
  const found = await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({
    url: `${published.urls.published}/plans`,
  });
  readerToken = (found.data as { apiToken: string }).apiToken;
  siteId = site.id;
  siteSpaceId = (found.data as { siteSpace: string }).siteSpace;
  pageServer = createServer((req, res) => {
    if (req.url === '/pets.yaml') return void res.writeHead(200, { 'content-type': 'application/yaml' }).end(PETS_SPEC);
    if (req.url === '/film')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>x</title><link rel="alternate" type="application/json+oembed" href="/film.json">');
    if (req.url === '/film.json')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ type: 'video', title: 'Wombat film', provider_name: 'Tube', html: '<iframe></iframe>' }));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<meta property="og:title" content="Wombat facts">');
  });
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  pagesUrl = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
}, 180_000);
afterAll(() => new Promise<void>((r) => (pageServer ? pageServer.close(() => r()) : r())));

describe("the 22 calls of GitBook's renderer (its data fetcher), through the official client", () => {
  it('answers each with what the renderer reads, as the renderer asks it (a reader, or a member for previews)', async () => {
    const member = p.client(acme.token);
    const reader = p.client(readerToken);
    const published = `http://quire.test/sites/public-handbook`;
    await member.orgs.createSiteRedirect(org, siteId, {
      source: '/old-plans',
      permanent: true,
      destination: { kind: 'path', spaceId: handbook, path: 'plans' },
    } as never);
    const cr = (await member.spaces.createChangeRequest(handbook, { subject: 'Preview' })).data;
    const ok = (status: number) => expect([200, 204]).toContain(status);
    const calls: Record<string, () => Promise<void>> = {
      resolvePublishedContentByUrl: async () => {
        const found = await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({
          url: `${published}/plans`,
          visitor: { unsignedClaims: {}, type: 'human' },
          redirectOnError: false,
        } as never);
        expect(found.data).toMatchObject({
          site: siteId,
          space: handbook,
          pathname: 'plans',
          apiToken: expect.any(String),
        });
      },
      getPublishedContentSite: async () => {
        const { data } = await reader.orgs.getPublishedContentSite(org, siteId);
        // The whole customization (the renderer reads its themes, its locale…), the site's and each site space's.
        const full = { themes: expect.any(Object), internationalization: { locale: expect.any(String) } };
        expect(data).toMatchObject({
          site: { id: siteId },
          customizations: { site: full, siteSpaces: { [siteSpaceId]: full } },
          scripts: [],
        });
      },
      getSpaceById: async () => expect((await reader.spaces.getSpaceById(handbook)).data.revision).toBe(revision),
      getRevisionById: async () => {
        const { data } = await reader.spaces.getRevisionById(handbook, revision, { metadata: true });
        expect(data.pages.map((pg) => pg.title)).toEqual(['Plans']);
      },
      getPageDocumentInRevisionById: async () =>
        ok((await reader.spaces.getPageDocumentInRevisionById(handbook, revision, plans)).status),
      getPageInRevisionById: async () => {
        const { data } = await reader.spaces.getPageInRevisionById(handbook, revision, plans, {
          format: 'markdown',
        } as never);
        expect((data as { markdown: string }).markdown).toContain('Everyone reads this.');
      },
      getPageInRevisionByPath: async () =>
        expect((await reader.spaces.getPageInRevisionByPath(handbook, revision, 'plans')).data.id).toBe(plans),
      listRevisionPageMetaLinks: async () =>
        ok((await reader.spaces.listRevisionPageMetaLinks(handbook, revision, plans)).status),
      listSpacePageMetaLinks: async () => ok((await reader.spaces.listSpacePageMetaLinks(handbook, plans)).status),
      listChangeRequestPageMetaLinks: async () =>
        ok((await member.spaces.listChangeRequestPageMetaLinks(handbook, cr.id, plans)).status),
      getSiteRedirectBySource: async () => {
        const { data } = await reader.orgs.getSiteRedirectBySource(org, siteId, { source: '/old-plans' });
        expect(data.target).toBe(`${published}/plans`);
      },
      searchSiteContent: async () =>
        ok(
          (await reader.orgs.searchSiteContent(org, siteId, { query: 'plans', scope: { mode: 'all' } } as never))
            .status,
        ),
      getReusableContentDocumentInRevisionById: async () => {
        const none = reader.spaces.getReusableContentDocumentInRevisionById(handbook, revision, 'rc1');
        expect(await apiError(none)).toMatchObject({ code: 404, message: expect.stringMatching(/^Reusable content/) });
      },
      getDocumentById: async () => ok((await reader.spaces.getDocumentById(handbook, plansDocument)).status),
      getComputedDocument: async () => {
        const source = { type: 'builtin:openapi', props: {}, dependencies: {} } as never;
        const computed = reader.spaces.getComputedDocument(handbook, { source, seed: 's' });
        expect((await apiError(computed)).code).toBe(400);
      },
      getLatestOpenApiSpecVersionContent: async () => {
        const none = reader.orgs.getLatestOpenApiSpecVersionContent(org, 'no-such-spec');
        expect((await apiError(none)).code).toBe(404);
      },
      getEmbedByUrlInSpace: async () =>
        ok((await reader.spaces.getEmbedByUrlInSpace(handbook, { url: `${pagesUrl}/facts` })).status),
      renderIntegrationUiWithPost: async () => {
        const render = reader.integrations.renderIntegrationUiWithPost('github', {
          componentId: 'block',
          props: {},
          context: { type: 'document' } as never,
        });
        expect((await apiError(render)).code).toBe(404);
      },
      getUserById: async () => ok((await reader.users.getUserById(bob.user.id)).status),
      getChangeRequestById: async () =>
        expect((await member.spaces.getChangeRequestById(handbook, cr.id)).data.id).toBe(cr.id),
      getChangeRequestChanges: async () => ok((await member.spaces.getChangeRequestChanges(handbook, cr.id)).status),
      getRevisionSemanticChanges: async () =>
        ok((await member.spaces.getRevisionSemanticChanges(handbook, revision)).status),
    };
    expect(Object.keys(calls)).toHaveLength(22);
    for (const [name, call] of Object.entries(calls))
      await call().catch((err: Error) => {
        throw new Error(`${name}: ${err.message}`);
      });
  });
});

describe('getPageDocumentInRevisionById', () => {
  it("answers the page's JSON document, as the renderer asks for it", async () => {
    const query = { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' } as const;
    for (const token of [acme.token, readerToken]) {
      const doc = (await p.client(token).spaces.getPageDocumentInRevisionById(handbook, revision, plans, query)).data;
      expect(doc).toMatchObject({ object: 'document', data: expect.any(Object), nodes: expect.any(Array) });
      expect(JSON.stringify(doc)).toContain('Everyone reads this.');
    }
    // A member asking for the stored document sees the condition; a reader never does, nor what it hides.
    const stored = (await p.client(acme.token).spaces.getPageDocumentInRevisionById(handbook, revision, plans)).data;
    expect(JSON.stringify(stored)).toContain('platypus');
    const asReader = p.client(readerToken).spaces.getPageDocumentInRevisionById(handbook, revision, plans, {
      evaluated: false,
    });
    expect(JSON.stringify((await asReader).data)).not.toMatch(/platypus|visitor/);
  });

  it('answers 404 for a hidden page to a reader and for another organization', async () => {
    const hidden = p.client(readerToken).spaces.getPageDocumentInRevisionById(handbook, revision, internal);
    expect((await apiError(hidden)).code).toBe(404);
    const member = await p.client(acme.token).spaces.getPageDocumentInRevisionById(handbook, revision, internal);
    expect(JSON.stringify(member.data)).toContain('Wombat');
    const foreign = p.client(other.token).spaces.getPageDocumentInRevisionById(handbook, revision, plans);
    expect((await apiError(foreign)).code).toBe(404);
  });
});

describe('OpenAPI specifications for readers', () => {
  it('answers a reader the latest version of a specification a page of its site shows, as the renderer asks', async () => {
    const member = p.client(acme.token).orgs;
    const slugs = ['pets', 'pro-api', 'internal-api', 'unused-api'];
    for (const slug of slugs) await member.createOpenApiSpec(org, { slug, source: { url: `${pagesUrl}/pets.yaml` } });
    for (const slug of slugs)
      for (let i = 0; (await member.getOpenApiSpecBySlug(org, slug)).data.processingState !== 'complete'; i++) {
        if (i > 150) throw new Error(`${slug} not processed`);
        await new Promise((r) => setTimeout(r, 100));
      }
    const reader = p.client(readerToken).orgs;
    const content = (await reader.getLatestOpenApiSpecVersionContent(org, 'pets')).data;
    expect(content).toMatchObject({ filesystem: { entrypoint: expect.any(String) }, url: expect.any(String) });
    expect(JSON.stringify((content.filesystem as { files: unknown }).files)).toContain('/pets');
    expect((await reader.getLatestOpenApiSpecVersion(org, 'pets')).data).toMatchObject({
      object: 'openapi-spec-version',
      url: `${pagesUrl}/pets.yaml`,
    });
    // Shown only in a block the reader's claims hide, only on a hidden page, on no page, or not there: 404.
    for (const slug of ['pro-api', 'internal-api', 'unused-api', 'nowhere']) {
      expect((await apiError(reader.getLatestOpenApiSpecVersionContent(org, slug))).code, slug).toBe(404);
      expect((await apiError(reader.getLatestOpenApiSpecVersion(org, slug))).code, slug).toBe(404);
    }
    // A member reads them all; the other reads of specifications stay closed to readers.
    for (const slug of slugs) expect((await member.getLatestOpenApiSpecVersionContent(org, slug)).status).toBe(200);
    expect((await apiError(reader.getOpenApiSpecBySlug(org, 'pets'))).code).toBe(403);
    expect((await apiError(reader.listOpenApiSpecs(org))).code).toBe(403);
    // Another organization's token learns nothing.
    expect((await apiError(p.client(other.token).orgs.getLatestOpenApiSpecVersionContent(org, 'pets'))).code).toBe(404);
  });
});

describe('search and reusable content', () => {
  it("finds a page by the words of the reusable content it includes, in the site's search and the organization's", async () => {
    const api = p.client(acme.token);
    const spaceId = (await api.orgs.createSpace(org, { title: 'Runbook' })).data.id;
    const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Note' })).data;
    const write = (id: string, changes: unknown[]) =>
      api.spaces.updateChangeRequestContent(spaceId, id, { changes } as never);
    const note = (markdown: string) => ({ markdown: `## Backups\n\n${markdown}\n` });
    await write(cr.id, [
      { operation: 'insert_reusable_content', title: 'Backup note', document: note('Copy the zeppelin archive.') },
    ]);
    const [rc] = (await api.spaces.getRevisionOfChangeRequestById(spaceId, cr.id)).data.reusableContents;
    await write(cr.id, [
      { operation: 'insert_page', title: 'Upgrade', document: { markdown: `First.\n\n{% include "${rc!.id}" %}\n` } },
    ]);
    await api.spaces.mergeChangeRequest(spaceId, cr.id);
    const site = (await api.orgs.createSite(org, { title: 'Runbook site' } as never)).data;
    await api.orgs.addSpaceToSite(org, site.id, { spaceId } as never);
    const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
    const lookup = await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({
      url: published.urls.published,
    });
    const reader = p.client((lookup.data as { apiToken: string }).apiToken);
    /** The pages the site's search (as its reader) and the organization's (as a member) find, once both agree. */
    const found = async (query: string, expected: string[]) => {
      let last: unknown;
      for (let i = 0; i < 50; i++) {
        const siteHits = (await reader.orgs.searchSiteContent(org, site.id, { query, scope: { mode: 'all' } } as never))
          .data as unknown as { items: { pages: { title: string; sections: { body: string }[] }[] }[] };
        const orgHits = (await api.orgs.searchOrganizationContent(org, { query } as never)).data as unknown as {
          items: { id: string; pages: { title: string }[] }[];
        };
        last = {
          site: siteHits.items.flatMap((s) => s.pages.map((pg) => pg.title)),
          org: orgHits.items.filter((s) => s.id === spaceId).flatMap((s) => s.pages.map((pg) => pg.title)),
        };
        if (JSON.stringify(last) === JSON.stringify({ site: expected, org: expected })) return siteHits;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(last).toEqual({ site: expected, org: expected });
    };
    const hits = await found('zeppelin', ['Upgrade']);
    expect(hits!.items[0]!.pages[0]!.sections.map((s) => s.body)).toEqual(['Copy the zeppelin archive.']);

    // The reusable content edited in a change request and merged: the page is found by its new words only.
    const edit = (await api.spaces.createChangeRequest(spaceId, { subject: 'Edit note' })).data;
    await write(edit.id, [
      { operation: 'update_reusable_content', reusableContent: rc!.id, document: note('Copy the quokka archive.') },
    ]);
    await api.spaces.mergeChangeRequest(spaceId, edit.id);
    await found('quokka', ['Upgrade']);
    await found('zeppelin', []);
  });
});

describe('getUserById', () => {
  it("answers GitBook's User to a member of the same organization, without the e-mail to a reader", async () => {
    const seen = (await p.client(bob.token).users.getUserById(acme.user.id)).data;
    expect(seen).toMatchObject({ object: 'user', id: acme.user.id, email: 'ann@acme.io', urls: expect.any(Object) });
    const asReader = (await p.client(readerToken).users.getUserById(bob.user.id)).data;
    expect(asReader).toMatchObject({ object: 'user', id: bob.user.id, displayName: 'Bob' });
    expect(asReader).not.toHaveProperty('email');
  });

  it('answers 404 for a user of another organization, to members and readers', async () => {
    for (const token of [acme.token, readerToken])
      expect((await apiError(p.client(token).users.getUserById(other.user.id))).code).toBe(404);
  });
});

describe('page meta links', () => {
  it("answers GitBook's RevisionPageMetaLinks of a document page (Quire pages declare none) in all three places", async () => {
    for (const token of [acme.token, readerToken]) {
      const api = p.client(token).spaces;
      expect((await api.listRevisionPageMetaLinks(handbook, revision, plans)).data).toEqual({ alternates: [] });
      expect((await api.listSpacePageMetaLinks(handbook, plans)).data).toEqual({ alternates: [] });
    }
    const api = p.client(acme.token).spaces;
    const cr = (await api.createChangeRequest(handbook, { subject: 'Links' })).data;
    expect((await api.listChangeRequestPageMetaLinks(handbook, cr.id, plans)).data).toEqual({ alternates: [] });
  });

  it('answers 404 (never a 403) for a hidden page to a reader, an unknown page, another organization', async () => {
    const reader = p.client(readerToken).spaces;
    expect((await apiError(reader.listRevisionPageMetaLinks(handbook, revision, internal))).code).toBe(404);
    expect((await apiError(reader.listRevisionPageMetaLinks(handbook, revision, 'nope'))).code).toBe(404);
    const foreign = p.client(other.token).spaces.listRevisionPageMetaLinks(handbook, revision, plans);
    expect((await apiError(foreign)).code).toBe(404);
  });
});

describe('getDocumentById and getComputedDocument', () => {
  it("answers a page's document by its documentId: stored for a member, evaluated for a reader", async () => {
    const stored = (await p.client(acme.token).spaces.getDocumentById(handbook, plansDocument)).data;
    expect(stored).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(JSON.stringify(stored)).toContain('platypus');
    const asReader = (await p.client(readerToken).spaces.getDocumentById(handbook, plansDocument)).data;
    expect(JSON.stringify(asReader)).toContain('Everyone reads this.');
    expect(JSON.stringify(asReader)).not.toMatch(/platypus|visitor/);
    expect((await apiError(p.client(other.token).spaces.getDocumentById(handbook, plansDocument))).code).toBe(404);
    expect((await apiError(p.client(acme.token).spaces.getDocumentById(handbook, 'f'.repeat(64)))).code).toBe(404);
  });

  it('answers a computed document with a 400 naming `source.type`: Quire has no computed content source', async () => {
    const source = { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: {} } as never;
    const failure = await apiError(p.client(acme.token).spaces.getComputedDocument(handbook, { source, seed: 's' }));
    expect(failure.code).toBe(400);
    expect(failure.message).toMatch(/^Invalid request: source\.type: Quire computes no documents yet/);
  });
});

describe('embeds', () => {
  it("answers a page's oEmbed HTML, or a link card from its OpenGraph title, or of its URL when unreachable", async () => {
    expect((await p.client(acme.token).urls.getEmbedByUrl({ url: `${pagesUrl}/film` })).data).toEqual({
      type: 'rich',
      title: 'Wombat film',
      site: 'Tube',
      html: '<iframe></iframe>',
    });
    for (const token of [acme.token, readerToken])
      expect((await p.client(token).spaces.getEmbedByUrlInSpace(handbook, { url: `${pagesUrl}/facts` })).data).toEqual({
        type: 'link',
        title: 'Wombat facts',
        site: '127.0.0.1',
      });
    const closed = 'http://127.0.0.1:9/nothing-listens';
    expect((await p.client(acme.token).urls.getEmbedByUrl({ url: closed })).data).toEqual({
      type: 'link',
      title: closed,
      site: '127.0.0.1',
    });
  });

  it('answers 400 naming `url` for a URL that is not http(s), 404 for a space the token cannot read', async () => {
    const bad = await apiError(p.client(acme.token).urls.getEmbedByUrl({ url: 'file:///etc/passwd' }));
    expect(bad.code).toBe(400);
    expect(bad.message).toMatch(/url/);
    const foreign = p.client(other.token).spaces.getEmbedByUrlInSpace(handbook, { url: `${pagesUrl}/facts` });
    expect((await apiError(foreign)).code).toBe(404);
  });
});

describe('trackEventsInSiteById', () => {
  it("records a reader's page view, search and rating, which the site's summary shows", async () => {
    const at = {
      session: { visitorId: 'visitor-1', sessionId: 'session-1' },
      location: {
        url: 'https://quire.test/sites/public-handbook/plans',
        siteSection: null,
        siteSpace: siteSpaceId,
        siteShareKey: null,
        space: handbook,
        revision,
        page: plans,
      },
    };
    const events = [
      { ...at, type: 'page_view' },
      { ...at, type: 'search_type_query', query: 'wombat', resultCount: 0 },
      { ...at, type: 'page_post_feedback', feedback: { rating: 'good' } },
    ] as never[];
    const tracked = await p.client(readerToken).orgs.trackEventsInSiteById(org, siteId, { events });
    expect(tracked.status).toBe(204);
    const res = await fetch(`${p.url}/v1/orgs/${org}/sites/${siteId}/insights/summary`, {
      headers: { authorization: `Bearer ${acme.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      pageViews: 1,
      visitors: 1,
      searches: 1,
      searchesWithoutResults: 1,
      ratings: { good: 1, ok: 0, bad: 0 },
      topPages: [{ space: handbook, page: plans, views: 1 }],
      topSearches: [{ query: 'wombat', count: 1, withoutResults: 1 }],
    });
    // The summary is the site owner's: a reader's token and a `read` member are refused.
    for (const token of [readerToken, bob.token]) {
      const refused = await fetch(`${p.url}/v1/orgs/${org}/sites/${siteId}/insights/summary`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 403, message: expect.any(String) } });
    }
  });

  it('answers 400 naming the field for an event of another site space, 404 for another site', async () => {
    const event = {
      session: { visitorId: 'v', sessionId: 's' },
      location: { url: 'https://x.test/', siteSection: null, siteSpace: 'elsewhere', siteShareKey: null },
      type: 'page_view',
    } as never;
    const bad = await apiError(p.client(readerToken).orgs.trackEventsInSiteById(org, siteId, { events: [event] }));
    expect(bad).toMatchObject({ code: 400, message: expect.stringMatching(/events\.0\.location\.siteSpace/) });
    const foreign = p.client(other.token).orgs.trackEventsInSiteById(org, siteId, { events: [] });
    expect((await apiError(foreign)).code).toBe(404);
  });
});

describe('answers for readers, and what Quire does not have yet (a documented 404, never "No route")', () => {
  const notThere = async (call: Promise<unknown>, message: RegExp) => {
    const failure = await apiError(call);
    expect(failure.code).toBe(404);
    expect(failure.message).toMatch(message);
    expect(failure.message).not.toMatch(/No route/);
  };

  it('reusable content of an unknown id: 404 once the token may read the revision (reusable-content.e2e.test.ts)', async () => {
    const none = /^Reusable content not found/;
    for (const token of [acme.token, readerToken]) {
      const api = p.client(token).spaces;
      await notThere(api.getReusableContentById(handbook, 'rc1'), none);
      await notThere(api.getReusableContentInRevisionById(handbook, revision, 'rc1'), none);
      await notThere(api.getReusableContentDocumentInRevisionById(handbook, revision, 'rc1'), none);
    }
    const cr = (await p.client(acme.token).spaces.createChangeRequest(handbook, { subject: 'Reuse' })).data;
    await notThere(p.client(acme.token).spaces.getReusableContentInChangeRequestById(handbook, cr.id, 'rc1'), none);
    // Another organization's token is told nothing more than for any space it cannot read.
    await notThere(p.client(other.token).spaces.getReusableContentById(handbook, 'rc1'), /^Space not found/);
  });

  it('a question to a site without a model: cited passages, as the reader sees the site (server-sent events)', async () => {
    const ask = async (question: string) => {
      const events: { type: string; answer: { answer?: { markdown: string }; sources: { page: string }[] } }[] = [];
      const stream = p.client(readerToken).orgs.streamAskInSite(org, siteId, {
        question,
        scope: { mode: 'default' } as never,
      });
      for await (const e of stream) events.push(e as never);
      return events;
    };
    // The search index is filled as the merge is processed: wait for the page to be found.
    let events = await ask('Everyone reads');
    for (let i = 0; i < 50 && !events[0]?.answer.sources.length; i++) {
      await new Promise((r) => setTimeout(r, 200));
      events = await ask('Everyone reads');
    }
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('answer');
    expect(events[0]!.answer.sources.map((s) => s.page)).toEqual([plans]);
    const markdown = events[0]!.answer.answer!.markdown;
    expect(markdown).toMatch(/\*\*\[Plans\]\(http[^)]*\/plans\)\*\*/);
    // Neither what the reader's claims hide nor a hidden page.
    expect(markdown).not.toMatch(/platypus/);
    expect(JSON.stringify(await ask('Wombat plans'))).not.toContain(internal);
    // Nothing on the site answers: an answer without passages, not an error.
    expect((await ask('zzyzx quokka')).map((e) => e.answer)).toEqual([{ followupQuestions: [], sources: [] }]);
  });

  it("an AI response to a reader without a model: the passages with links, in GitBook's response events", async () => {
    const respond = async () => {
      const events: { type: string; operation?: string; blocks?: unknown[] }[] = [];
      const stream = p.client(readerToken).orgs.streamAiResponseInSite(org, siteId, {
        input: [{ role: 'user', content: 'Everyone reads' }],
      } as never);
      for await (const e of stream) events.push(e as never);
      return events;
    };
    // The search index is filled as the merge is processed: wait for the page to be found.
    let events = await respond();
    for (let i = 0; i < 50 && JSON.stringify(events).includes('Nothing on this site matches'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      events = await respond();
    }
    expect(events.map((e) => e.type)).toEqual([
      'response_start',
      'response_step_start',
      'response_document',
      'response_finish',
    ]);
    // The page's link, titled; no excerpt of a page with a block the reader's claims hide.
    const blocks = JSON.stringify(events[2]!.blocks);
    expect(blocks).toMatch(
      /"url":"http[^"]*\/plans"\}\},"nodes":\[\{"object":"text","leaves":\[\{"object":"leaf","text":"Plans"/,
    );
    expect(blocks).not.toMatch(/platypus/);
  });

  it('integration UI rendering: 404 saying so', async () => {
    const render = p.client(readerToken).integrations.renderIntegrationUiWithPost('github', {
      componentId: 'block',
      props: {},
      context: { type: 'document' } as never,
    });
    await notThere(render, /^Integration UI rendering is not available: Quire's integrations run no code yet/);
  });
});
