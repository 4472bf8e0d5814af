import { describe, expect, it } from 'vitest';
import { ops, type Actor, type SiteInsightsEvent } from '@quire/contracts';
import { sql } from '@quire/kit';
import { buildSpace, failureOf } from '@quire/kit/testing';
import { orgActors, useSitesAndContent, type SitesPlatform } from '../../test-support.ts';
import { visitorPseudonym } from './insights.loader.ts';

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
