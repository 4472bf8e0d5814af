import { describe, expect, it } from 'vitest';
import {
  SITE_INSIGHTS_EVENT_TYPES,
  SITE_INSIGHTS_RECORDED_EVENT_TYPES,
  SiteInsightsEventSchema,
} from './site-insights.ts';

const base = {
  session: { visitorId: 'v', sessionId: 's' },
  location: { url: 'https://docs.example.test/a', siteSection: null, siteSpace: 'ss', siteShareKey: null },
};

describe("the site insights events: GitBook's types listed once", () => {
  it('records four of them, each with its own fields; accepts the others as they are; refuses an unknown type', () => {
    expect(SITE_INSIGHTS_RECORDED_EVENT_TYPES).toEqual([
      'page_view',
      'search_type_query',
      'page_post_feedback',
      'page_post_feedback_comment',
    ]);
    for (const type of SITE_INSIGHTS_EVENT_TYPES) {
      const parsed = SiteInsightsEventSchema.safeParse({ ...base, type });
      // A recorded event needs its fields (a search its query, a rating its feedback); a page view none.
      const needsFields = type !== 'page_view' && SITE_INSIGHTS_RECORDED_EVENT_TYPES.includes(type as never);
      expect(parsed.success, type).toBe(!needsFields);
    }
    expect(SiteInsightsEventSchema.safeParse({ ...base, type: 'search_type_query', query: 'x' }).success).toBe(true);
    expect(SiteInsightsEventSchema.safeParse({ ...base, type: 'bogus' }).success).toBe(false);
  });
});
