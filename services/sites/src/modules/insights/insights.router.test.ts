import { describe, expect, it } from 'vitest';
import { ops, type Actor, type SiteInsightsEvent } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { visitorPseudonym } from './insights.loader.ts';
import { insightsRepository } from './insights.repository.ts';

// trackEventsInSiteById (GitBook's event shapes) and the Quire-only getSiteInsightsSummary, against PostgreSQL.

const ORG = 'org-insights';
const { admin, creator, reader: member, stranger } = orgActors(ORG, 'org-elsewhere');
const p = useSitesAndContent('insights-router');
const call: SitesPlatform['sites']['call'] = (op, input, actor) => p.sites.call(op, input, actor);

async function site() {
  const space = await buildSpace(p.content, { org: ORG, title: 'Guide', as: admin });
  const dto = await call(ops.createSite, { organizationId: ORG, title: 'Docs', spaces: [space.id] }, admin);
  const [siteSpace] = (await call(ops.listSiteSpaces, { organizationId: ORG, siteId: dto.id }, admin)).items;
  const readerActor: Actor = {
    kind: 'reader',
    reader: {
      site: dto.id,
      organization: ORG,
      siteSpaces: [{ id: siteSpace!.id, space: space.id }],
      claims: { unsigned: {} },
    },
  };
  return { siteId: dto.id, space: space.id, siteSpace: siteSpace!.id, reader: readerActor };
}

type S = Awaited<ReturnType<typeof site>>;
const where = (s: S) => ({ organizationId: ORG, siteId: s.siteId });
const base = (s: S, visitorId: string, page: string | null = 'page-1') => ({
  session: {
    visitorId,
    sessionId: `session-${visitorId}`,
    ip: '203.0.113.9',
    userAgent: 'Firefox',
    cookies: { a: 'b' },
  },
  location: {
    url: 'https://docs.example.test/guide/page-1',
    siteSection: null,
    siteSpace: s.siteSpace,
    siteShareKey: null,
    space: s.space,
    revision: null,
    page,
  },
});
const track = (s: S, events: unknown[], as: Actor = s.reader) =>
  call(ops.trackEventsInSiteById, { ...where(s), events: events as SiteInsightsEvent[] }, as);

describe('site insights', () => {
  it('records page views, searches (with their result count) and ratings, and summarises them', async () => {
    const s = await site();
    await track(s, [
      { ...base(s, 'v1'), type: 'page_view' },
      { ...base(s, 'v1'), type: 'page_view' },
      { ...base(s, 'v2'), type: 'page_view' },
      { ...base(s, 'v2', 'page-2'), type: 'page_view', timestamp: new Date(Date.now() - 60_000).toISOString() },
      { ...base(s, 'v1'), type: 'search_type_query', query: ' Wombat ', resultCount: 3 },
      { ...base(s, 'v2'), type: 'search_type_query', query: 'wombat', resultCount: 0 },
      { ...base(s, 'v2'), type: 'search_type_query', query: 'platypus' },
      { ...base(s, 'v1'), type: 'page_post_feedback', feedback: { rating: 'good' } },
      { ...base(s, 'v2'), type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Too short' } },
      // GitBook's other events are accepted and not recorded.
      { ...base(s, 'v1'), type: 'search_open' },
      {
        ...base(s, 'v1'),
        type: 'link_click',
        link: { target: { kind: 'url', url: 'https://x' }, position: 'content' },
      },
    ]);
    const summary = await call(ops.getSiteInsightsSummary, where(s), creator);
    expect(summary).toMatchObject({
      pageViews: 4,
      visitors: 2,
      searches: 3,
      searchesWithoutResults: 1,
      ratings: { good: 1, ok: 0, bad: 1 },
      topPages: [
        { space: s.space, page: 'page-1', views: 3 },
        { space: s.space, page: 'page-2', views: 1 },
      ],
      topSearches: [
        { query: 'wombat', count: 2, withoutResults: 1 },
        { query: 'platypus', count: 1, withoutResults: 0 },
      ],
    });
    // Nothing of the session but a daily pseudonym of the visitor is stored.
    const rows = await sql<{ visitor: string }>(
      p.sites.em(),
      'select * from :schema.site_insight_event where site_id = ?',
      [s.siteId],
    );
    expect(rows).toHaveLength(9);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113\.9|Firefox|session-v|"v1"|"v2"/);
    expect(new Set(rows.map((r) => r.visitor)).size).toBe(2);
    // The pseudonym changes with the day, so a visitor cannot be followed from one day to the next.
    const today = new Date();
    const tomorrow = new Date(today.getTime() + 24 * 60 * 60 * 1000);
    expect(visitorPseudonym('k'.repeat(32), 'v1', today)).toMatch(/^[\w-]{22}$/);
    expect(visitorPseudonym('k'.repeat(32), 'v1', today)).not.toBe(visitorPseudonym('k'.repeat(32), 'v1', tomorrow));
  });

  it('answers 400 naming the field: a timestamp far from now, another site space, a batch too large, a bad rating', async () => {
    const s = await site();
    const msg = async (events: unknown[]) => (await failureOf(track(s, events))).message;
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    expect(
      await msg([
        { ...base(s, 'v'), type: 'page_view' },
        { ...base(s, 'v'), type: 'page_view', timestamp: old },
      ]),
    ).toBe('Invalid request: events.1.timestamp: must be within 5 minutes of now');
    const elsewhere = { ...base(s, 'v'), type: 'page_view', location: { ...base(s, 'v').location, siteSpace: 'ss-x' } };
    expect(await msg([elsewhere])).toMatch(/^Invalid request: events\.0\.location\.siteSpace/);
    expect(await msg(Array.from({ length: 101 }, () => ({ ...base(s, 'v'), type: 'page_view' })))).toMatch(/events/);
    expect(await msg([{ ...base(s, 'v'), type: 'page_post_feedback', feedback: { rating: 'great' } }])).toMatch(
      /events\.0\.feedback\.rating/,
    );
    // Nothing of a refused batch is recorded.
    expect((await call(ops.getSiteInsightsSummary, where(s), admin)).pageViews).toBe(0);
  });

  it('a reader tracks its own site only; members read the summary with `create`; others get 404', async () => {
    const s = await site();
    const other = await site();
    expect((await failureOf(track(other, [{ ...base(other, 'v'), type: 'page_view' }], s.reader))).reason).toBe(
      'not_found',
    );
    expect((await failureOf(track(s, [], stranger))).reason).toBe('not_found');
    await track(s, [{ ...base(s, 'v'), type: 'page_view' }], member);
    expect((await failureOf(call(ops.getSiteInsightsSummary, where(s), member))).reason).toBe('forbidden');
    expect((await failureOf(call(ops.getSiteInsightsSummary, where(s), s.reader))).reason).toBe('forbidden');
    expect((await failureOf(call(ops.getSiteInsightsSummary, where(s), stranger))).reason).toBe('not_found');
    expect((await call(ops.getSiteInsightsSummary, { ...where(s), days: 1 }, admin)).pageViews).toBe(1);
  });
});

const aggregate = (s: S, query: Record<string, unknown>, as: Actor = admin) =>
  call(ops.aggregateSiteEvents, { ...where(s), range: 'last24Hours', ...query } as never, as);
const columnsOf = (r: { columns: { column: string; values: unknown[] }[] }) =>
  Object.fromEntries(r.columns.map((c) => [c.column, c.values]));

/** A page view, two 404s, searches and ratings of two visitors, reported by the renderer. */
async function trafficOf(s: S) {
  const notFound = (visitorId: string, path: string) => ({
    ...base(s, visitorId, null),
    type: 'page_view',
    location: { ...base(s, visitorId, null).location, url: `https://docs.example.test${path}?share=secret#top` },
  });
  await track(s, [
    { ...base(s, 'v1'), type: 'page_view' },
    { ...base(s, 'v1'), type: 'page_view' },
    { ...base(s, 'v2'), type: 'page_view' },
    { ...base(s, 'v2', 'page-2'), type: 'page_view' },
    notFound('v1', '/guide/old-page'),
    notFound('v2', '/guide/old-page'),
    notFound('v2', '/guide/typo'),
    { ...base(s, 'v1'), type: 'search_type_query', query: 'wombat', resultCount: 0 },
    { ...base(s, 'v1'), type: 'page_post_feedback', feedback: { rating: 'good' } },
    { ...base(s, 'v2'), type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Too short' } },
  ]);
}

describe("aggregateSiteEvents (GitBook's shapes)", () => {
  it('groups, counts and filters the recorded events; a 404 is a page view without a page', async () => {
    const s = await site();
    await trafficOf(s);
    const byType = await aggregate(s, { groupBy: [{ column: 'eventType' }], select: [{ column: 'eventsCount' }] });
    expect(byType).toEqual({
      columns: [
        {
          column: 'eventType',
          values: ['page_view', 'page_post_feedback', 'page_post_feedback_comment', 'search_type_query'],
        },
        { column: 'eventsCount', values: [7, 1, 1, 1] },
      ],
    });
    // The top broken URLs: their path only (no query string, no fragment), most frequent first.
    const broken = await aggregate(s, {
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'page', values: [null] },
        { column: 'eventPageNotFoundType', operator: 'notIn', values: ['conditional'] },
      ],
      groupBy: [{ column: 'urlPath' }],
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }],
    });
    expect(columnsOf(broken)).toEqual({
      urlPath: ['/guide/old-page', '/guide/typo'],
      eventsCount: [2, 1],
      visitorsCount: [2, 1],
    });
    expect(JSON.stringify(broken)).not.toContain('secret');
    // Totals without a group; the ratings as one object; a day's trend.
    const totals = await aggregate(s, {
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    });
    expect(columnsOf(totals)).toEqual({ eventsCount: [10], visitorsCount: [2], sessionsCount: [2] });
    const ratings = await aggregate(s, { select: [{ column: 'pageFeedbackRating' }] });
    expect(columnsOf(ratings)).toEqual({ pageFeedbackRating: [{ ok: 0, good: 1, bad: 1 }] });
    const trend = await aggregate(s, {
      range: 'last7Days',
      groupBy: [{ column: 'datetime', interval: 'day' }],
      select: [{ column: 'eventsCount' }],
    });
    expect(columnsOf(trend)).toEqual({
      datetime: [`${new Date().toISOString().slice(0, 10)}T00:00:00Z`],
      eventsCount: [10],
    });
    // A count compared (HAVING), an order, a limit.
    const viewed = await aggregate(s, {
      where: [
        { column: 'eventType', values: ['page_view'] },
        { column: 'eventsCount', operator: 'greaterThanOrEqual', values: [2] },
      ],
      groupBy: [{ column: 'page' }],
      order: { by: { column: 'eventsCount' }, direction: 'asc' },
      limit: 5,
    });
    // Ties in the order are broken by the grouped columns, nulls last.
    expect(columnsOf(viewed)).toEqual({ page: ['page-1', null], eventsCount: [3, 3] });
    const top = await aggregate(s, { groupBy: [{ column: 'page' }], select: [{ column: 'eventsCount' }], limit: 1 });
    expect(columnsOf(top)).toEqual({ page: ['page-1'], eventsCount: [6] });
    // A date compares the event's time; an hour of the day, a number.
    const since = (iso: string, operator: string) =>
      aggregate(s, { where: [{ column: 'datetime', operator, values: [iso] }], select: [{ column: 'eventsCount' }] });
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect(columnsOf(await since(hourAgo, 'greaterThanOrEqual'))).toEqual({ eventsCount: [10] });
    expect(columnsOf(await since('2020-01-01', 'lessThan'))).toEqual({ eventsCount: [0] });
    const hour = await aggregate(s, {
      where: [{ column: 'hourOfDay', values: [new Date().getUTCHours(), 25.5] }],
      groupBy: [{ column: 'dayOfWeek' }],
    });
    expect(columnsOf(hour)).toEqual({ dayOfWeek: [((new Date().getUTCDay() + 6) % 7) + 1], eventsCount: [10] });
    // Another range sees nothing.
    const before = await aggregate(s, {
      range: { from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' },
      select: [{ column: 'eventsCount' }],
    });
    expect(columnsOf(before)).toEqual({ eventsCount: [0] });
  });

  it("counts a session as a visitor's events at most 30 minutes apart", async () => {
    const s = await site();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const row = (occurredAt: Date, visitor: string) => ({
      siteId: s.siteId,
      kind: 'page_view' as const,
      occurredAt,
      visitor,
      siteSpaceId: s.siteSpace,
      spaceId: s.space,
      pageId: 'page-1',
      query: null,
      resultCount: null,
      rating: null,
      comment: null,
      urlPath: '/guide/page-1',
    });
    await insightsRepository.insert(p.sites.em(), [
      row(at(200), 'a'),
      row(at(180), 'a'),
      row(at(100), 'a'),
      row(at(90), 'b'),
    ]);
    const totals = await aggregate(s, {
      select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }, { column: 'sessionsCount' }],
    });
    expect(columnsOf(totals)).toEqual({ eventsCount: [4], visitorsCount: [2], sessionsCount: [3] });
    const segments = await call(ops.listSiteVisitorSegments, where(s), admin);
    expect(segments).toEqual({
      count: 1,
      items: [{ title: 'All visitors', claims: {}, events: 4, visitors: 2, sessions: 3 }],
    });
  });

  it('answers 400 naming the field for what Quire does not record or cannot compare', async () => {
    const s = await site();
    const msg = async (query: Record<string, unknown>) => (await failureOf(aggregate(s, query))).message;
    expect(await msg({ groupBy: [{ column: 'visitorGeoCountry' }] })).toMatch(
      /^Invalid request: groupBy\.0\.column: Quire does not record `visitorGeoCountry`/,
    );
    expect(await msg({ select: [{ column: 'eventsCount' }, { column: 'referrer' }] })).toMatch(
      /^Invalid request: select\.1\.column/,
    );
    expect(await msg({ where: [{ column: 'hourOfDay', values: ['noon'] }] })).toBe(
      'Invalid request: where.0.values.0: not a value of `hourOfDay`',
    );
    expect(await msg({ where: [{ column: 'eventsCount', operator: 'greaterThan', values: [1, 2] }] })).toBe(
      'Invalid request: where.0.values: `greaterThan` compares with exactly one value',
    );
    expect(
      await msg({ groupBy: [{ column: 'page' }], order: { by: { column: 'urlPath' }, direction: 'asc' } }),
    ).toMatch(/^Invalid request: order\.by/);
    expect(await msg({ range: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } })).toBe(
      'Invalid request: range.to: must not be before range.from',
    );
    expect(await msg({ range: 'lastDecade' })).toMatch(/range/);
    expect(await msg({ limit: 1001 })).toMatch(/limit/);
    expect(await msg({ select: [{ column: 'nope' }] })).toMatch(/select\.0/);
  });

  it('is read by members who can manage the site; a member, a reader and a stranger are refused', async () => {
    const s = await site();
    const query = { select: [{ column: 'eventsCount' }] };
    expect(columnsOf(await aggregate(s, query, creator))).toEqual({ eventsCount: [0] });
    expect((await failureOf(aggregate(s, query, member))).reason).toBe('forbidden');
    expect((await failureOf(aggregate(s, query, s.reader))).reason).toBe('forbidden');
    expect((await failureOf(aggregate(s, query, stranger))).reason).toBe('not_found');
    expect(await call(ops.listSiteVisitorSegments, where(s), admin)).toEqual({ count: 0, items: [] });
    expect((await failureOf(call(ops.listSiteVisitorSegments, where(s), member))).reason).toBe('forbidden');
    expect((await failureOf(call(ops.listSiteVisitorSegments, where(s), stranger))).reason).toBe('not_found');
  });
});
