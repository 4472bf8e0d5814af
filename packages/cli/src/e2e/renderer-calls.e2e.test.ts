import { beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI } from '@gitbook/api';
import { apiError, mergeChanges, useCast } from './harness.ts';

// Issue 42: the calls GitBook's site renderer makes (../shared/spec/renderer-api.md), through the official client,
// with a member's token and with the published-content token `POST /v1/urls/published` gives a site's reader.

const { p, acme, other, bob } = useCast({ bob: ['bob@acme.io', 'read', 'Bob'] });
let org: string;
let handbook: string;
let revision: string;
let plans: string;
let internal: string;
let readerToken: string;

const PLANS = `Everyone reads this.

{% if visitor.claims.plan == "pro" %}
Pro secret: platypus.
{% endif %}
`;

beforeAll(async () => {
  org = acme.organization.id;
  const api = p.client(acme.token);
  handbook = (await api.orgs.createSpace(org, { title: 'Handbook' })).data.id;
  await mergeChanges(
    api,
    handbook,
    [
      { operation: 'insert_page', title: 'Plans', document: { markdown: PLANS } },
      { operation: 'insert_page', title: 'Internal', hidden: true, document: { markdown: 'Wombat plans.' } },
    ],
    'Write',
  );
  const pages = (await api.spaces.listPages(handbook)).data.pages;
  plans = pages.find((pg) => pg.title === 'Plans')!.id;
  internal = pages.find((pg) => pg.title === 'Internal')!.id;
  revision = (await api.spaces.getSpaceById(handbook)).data.revision;
  const site = (await api.orgs.createSite(org, { title: 'Public handbook' } as never)).data;
  await api.orgs.addSpaceToSite(org, site.id, { spaceId: handbook } as never);
  const published = (await api.orgs.publishSite(org, site.id)).data as { urls: { published: string } };
  const found = await new GitBookAPI({ endpoint: p.url }).urls.resolvePublishedContentByUrl({
    url: `${published.urls.published}/plans`,
  });
  readerToken = (found.data as { apiToken: string }).apiToken;
}, 180_000);

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

describe('listRevisionPageMetaLinks', () => {
  it('is not an operation of Quire: 404 for every token, which the renderer tolerates (never a 403)', async () => {
    for (const token of [acme.token, readerToken]) {
      const links = p.client(token).spaces.listRevisionPageMetaLinks(handbook, revision, plans);
      expect((await apiError(links)).code).toBe(404);
    }
  });
});
