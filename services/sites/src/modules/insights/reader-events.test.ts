import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ops, type Actor } from '@quire/contracts';
import { sql, TokenSigner, type EntityManager, type Logger } from '@quire/kit';
import { eventually } from '@quire/kit/testing';
import { orgActors, spaceWithPages, useSitesAndContent } from '../../test-support.ts';
import {
  flushReaderEvents,
  queuedReaderEvents,
  queueReaderEvent,
  setReaderEventsFlushInterval,
  SITE_EVENTS_QUEUE_MAX,
} from './reader-events.ts';

/**
 * What a published site records by itself (reader-events.ts): the "Was this page helpful?" form of every page and
 * its POST, the page views of readers and the searches of the site's search page, against PostgreSQL.
 */
const ORG = 'org-reader-events';
const { admin } = orgActors(ORG, 'org-elsewhere');
const gateway: Actor = { kind: 'service', service: 'gateway' };
const p = useSitesAndContent('reader-events', { orgAdmin: true, inProcessBus: true });
// Events wait for an explicit flush here, so that the tests see them queued, not yet written.
beforeAll(() => setReaderEventsFlushInterval(600_000));
afterAll(() => setReaderEventsFlushInterval());
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function publishedSite(title: string) {
  const spaceId = await spaceWithPages(p, { org: ORG, title: `${title} space`, as: admin }, [
    { title: 'Welcome', markdown: 'Hello readers.' },
  ]);
  const site = await p.sites.call(ops.createSite, { organizationId: ORG, title, spaces: [spaceId] }, admin);
  // The form is there when the customization turns page feedback on (GitBook's default is off).
  await p.sites.call(
    ops.updateSiteCustomizationById,
    { organizationId: ORG, siteId: site.id, feedback: { enabled: true } },
    admin,
  );
  await p.sites.call(ops.publishSite, { organizationId: ORG, siteId: site.id }, admin);
  return { siteId: site.id, spaceId, path: `/sites/${site.basename}` };
}

type Req = { userAgent?: string; doNotTrack?: boolean; clientAddress?: string; query?: Record<string, string> };
const reader = { userAgent: FIREFOX, clientAddress: '203.0.113.9' };
const open = (path: string, r: Req = reader) =>
  p.sites.call(
    ops.getPublishedSitePage,
    { host: 'quire.test', path, query: r.query ?? {}, cookies: {}, ...r },
    gateway,
  );
const post = (path: string, form: Record<string, string>, r: Req = reader) =>
  p.sites.call(
    ops.getPublishedSitePage,
    { host: 'quire.test', path, query: {}, cookies: {}, method: 'POST', form, ...r },
    gateway,
  );

/** The hidden token and the action of a page's rating form. */
function ratingFormOf(body: string): { action: string; token: string } {
  const form = /<form class="page-rating" method="post" action="([^"]+)">[\s\S]*?<\/form>/.exec(body);
  expect(form, 'the page has a rating form').not.toBeNull();
  expect(form![0]).toContain('<legend>Was this page helpful?</legend>');
  expect(form![0]).toContain('<button type="submit" name="rating" value="good">Yes</button>');
  expect(form![0]).toContain('<button type="submit" name="rating" value="bad">No</button>');
  return { action: form![1]!, token: /name="token" value="([^"]+)"/.exec(form![0])![1]! };
}

const events = (siteId: string) =>
  sql<{
    kind: string;
    page_id: string | null;
    rating: string | null;
    query: string | null;
    result_count: number | null;
    visitor: string;
  }>(
    p.sites.em(),
    'select kind, page_id, rating, query, result_count, visitor from :schema.site_insight_event where site_id = ? order by id',
    [siteId],
  );

describe('a published site records its readers', () => {
  it('a vote of the rating form is recorded once a day per visitor, and thanked', async () => {
    const s = await publishedSite('Rated');
    const page = await open(s.path);
    expect(page.status).toBe(200);
    const { action, token } = ratingFormOf(page.body);
    expect(action).toBe(`${s.path}/~rating`);

    const voted = await post(action, { token, rating: 'good' });
    expect(voted.status).toBe(200);
    expect(voted.body).toContain('<h1>Thank you</h1>');
    expect(voted.body).toContain(`<a href="${s.path}">Back to the page</a>`);
    expect(voted.headers['cache-control']).toBe('private, no-store');
    // A second vote the same day, by the same visitor: thanked, not counted. Another visitor's counts.
    expect((await post(action, { token, rating: 'bad' })).status).toBe(200);
    expect((await post(action, { token, rating: 'bad' }, { ...reader, clientAddress: '198.51.100.7' })).status).toBe(
      200,
    );

    const rows = (await events(s.siteId)).filter((e) => e.kind === 'rating');
    expect(rows.map((r) => r.rating)).toEqual(['good', 'bad']);
    expect(rows[0]!.page_id).toMatch(/\S/);
    expect(JSON.stringify(rows)).not.toContain('203.0.113.9');
  });

  it('records nothing for a reader saying DNT or Sec-GPC, and still thanks it', async () => {
    const s = await publishedSite('Private reader');
    const { action, token } = ratingFormOf((await open(s.path, { ...reader, doNotTrack: true })).body);
    const voted = await post(action, { token, rating: 'good' }, { ...reader, doNotTrack: true });
    expect(voted.status).toBe(200);
    expect(voted.body).toContain('<h1>Thank you</h1>');
    await open(`${s.path}/~search`, { ...reader, doNotTrack: true, query: { q: 'hello' } });
    await flushReaderEvents();
    expect(await events(s.siteId)).toEqual([]);
  });

  it('refuses a vote without a valid token of this site, or with an unknown rating (400, nothing recorded)', async () => {
    const s = await publishedSite('Guarded');
    const other = await publishedSite('Other');
    const { action, token } = ratingFormOf((await open(s.path)).body);
    const { token: otherToken } = ratingFormOf((await open(other.path)).body);
    const forged = await new TokenSigner('x'.repeat(40), 'site-rating').sign({ site: s.siteId }, Date.now() + 60_000);
    const forms: Record<string, string>[] = [
      { rating: 'good' },
      { token: 'nope', rating: 'good' },
      { token: forged, rating: 'good' },
      { token: otherToken, rating: 'good' },
      { token, rating: 'excellent' },
      { token },
    ];
    for (const form of forms) {
      const res = await post(action, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body).toContain('Your vote was not counted');
    }
    // A GET of the path is no vote, nor is a POST elsewhere on the site.
    expect((await open(action)).status).toBe(404);
    expect((await post(`${s.path}/welcome`, { token, rating: 'good' })).status).toBe(404);
    // A form of a page served before the site turned feedback off counts no more; the pages show none.
    await p.sites.call(
      ops.updateSiteCustomizationById,
      { organizationId: ORG, siteId: s.siteId, feedback: { enabled: false } },
      admin,
    );
    const off = await post(action, { token, rating: 'good' });
    expect(off.status).toBe(400);
    expect(off.body).toContain('This site no longer asks for feedback on its pages.');
    expect((await open(s.path)).body).not.toContain('page-rating');
    expect(await events(s.siteId)).toEqual([]);
  });

  it('records page views and searches (with their result count) of readers, batched; not of robots', async () => {
    const s = await publishedSite('Viewed');
    // The search index follows the page's write by an event: wait until it finds the page, asking as a reader who
    // says Do Not Track (nothing recorded), so that the counted search below has its result.
    const dnt = { ...reader, doNotTrack: true };
    await eventually(
      async () => !(await open(`${s.path}/~search`, { ...dnt, query: { q: 'readers' } })).body.includes('No results'),
      10_000,
      'the page indexed',
    );
    await flushReaderEvents();
    expect((await open(s.path)).status).toBe(200);
    expect((await open(s.path)).status).toBe(200); // from the cache of rendered pages: still a view
    await open(s.path, { ...reader, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    await open(s.path, { clientAddress: '203.0.113.9' }); // no user agent: not a reader
    await open(`${s.path}/~search`, { ...reader, query: { q: 'readers' } });
    await open(`${s.path}/~search`, { ...reader, query: { q: 'zebra crossing' } });
    await open(`${s.path}/~search`, { ...reader, query: { q: '' } }); // an empty search page is no search
    expect(queuedReaderEvents()).toBe(4);
    expect(await events(s.siteId)).toEqual([]); // not written during the render
    await flushReaderEvents();
    expect(queuedReaderEvents()).toBe(0);
    const rows = await events(s.siteId);
    expect(rows.filter((r) => r.kind === 'page_view')).toHaveLength(2);
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(1);
    const searches = rows.filter((r) => r.kind === 'search').map((r) => [r.query, r.result_count]);
    expect(searches).toEqual([
      ['readers', 1],
      ['zebra crossing', 0],
    ]);
    const summary = await p.sites.call(ops.getSiteInsightsSummary, { organizationId: ORG, siteId: s.siteId }, admin);
    expect(summary).toMatchObject({ pageViews: 2, visitors: 1, searches: 2, searchesWithoutResults: 1 });
  });

  it('records a reader following a link to a page that does not exist (a broken link) as a view without a page', async () => {
    const s = await publishedSite('Broken links');
    await flushReaderEvents();
    expect((await open(`${s.path}/old-name`)).status).toBe(404);
    expect((await open(`${s.path}/old-name`, { ...reader, clientAddress: '198.51.100.7' })).status).toBe(404);
    expect((await open(`${s.path}/gone/deeper`)).status).toBe(404);
    await open(`${s.path}/old-name`, { ...reader, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    await open(`${s.path}/old-name`, { ...reader, doNotTrack: true });
    // What a browser asks for by itself is no broken link.
    expect((await open(`${s.path}/favicon.ico`)).status).toBe(404);
    await flushReaderEvents();
    const rows = await events(s.siteId);
    expect(rows.map((r) => [r.kind, r.page_id])).toEqual([
      ['page_view', null],
      ['page_view', null],
      ['page_view', null],
    ]);
    const where = { organizationId: ORG, siteId: s.siteId };
    const summary = await p.sites.call(ops.getSiteInsightsSummary, where, admin);
    expect(summary).toMatchObject({
      pageViews: 0,
      notFound: 3,
      topNotFound: [
        { path: `${s.path}/old-name`, count: 2 },
        { path: `${s.path}/gone/deeper`, count: 1 },
      ],
    });
    const broken = await p.sites.call(
      ops.aggregateSiteEvents,
      {
        ...where,
        range: 'last24Hours',
        where: [
          { column: 'eventType', values: ['page_view'] },
          { column: 'page', values: [null] },
        ],
        groupBy: [{ column: 'urlPath' }],
        select: [{ column: 'visitorsCount' }],
      },
      admin,
    );
    expect(broken.columns).toEqual([
      { column: 'urlPath', values: [`${s.path}/old-name`, `${s.path}/gone/deeper`] },
      { column: 'visitorsCount', values: [2, 1] },
    ]);
  });

  it('drops events when the queue is full, and logs a failed write without throwing', async () => {
    await flushReaderEvents();
    const warn = vi.fn();
    const broken = {
      fork: () => {
        throw new Error('database away');
      },
    } as unknown as EntityManager;
    const ctx = { em: broken, log: { warn } as unknown as Logger, secret: 's'.repeat(32) };
    const e = { site: 'site-x', kind: 'page_view' as const, siteSpace: null, space: null, page: 'p' };
    for (let i = 0; i < SITE_EVENTS_QUEUE_MAX; i++) expect(queueReaderEvent(ctx, reader, e)).toBe(true);
    expect(queueReaderEvent(ctx, reader, e)).toBe(false);
    expect(queuedReaderEvents()).toBe(SITE_EVENTS_QUEUE_MAX);
    await expect(flushReaderEvents()).resolves.toBeUndefined();
    expect(queuedReaderEvents()).toBe(0);
    expect(warn).toHaveBeenCalledWith({ dropped: 1 }, 'site insights: events dropped, the queue was full');
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ lost: 500 }), 'site insights: events not recorded');
  });
});
