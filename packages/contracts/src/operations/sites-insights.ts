import { z } from 'zod';
import { listOf, NoContentSchema, queryNumber } from '../common.ts';
import { operationsOf } from '../operation.ts';
import {
  SITE_INSIGHTS_EVENTS_MAX,
  SiteInsightsEventSchema,
  SiteInsightsQueryEventsAggregationResultSchema,
  SiteInsightsQueryEventsAggregationShape,
  SiteInsightsSummarySchema,
  SiteInsightsVisitorSegmentSchema,
} from '../schemas/site-insights.ts';
import { SITE } from './sites-params.ts';

const op = operationsOf('sites', { tags: ['site-insights'] });

export const trackEventsInSiteById = op({
  id: 'siteInsightsEvents.add',
  access: 'reader',
  input: z.object({
    ...SITE.params,
    events: z
      .array(SiteInsightsEventSchema)
      .max(SITE_INSIGHTS_EVENTS_MAX)
      .describe(`The events, at most ${SITE_INSIGHTS_EVENTS_MAX}`),
  }),
  output: NoContentSchema,
  http: {
    route: `POST ${SITE.route}/insights/events`,
    status: 204,
    operationId: 'trackEventsInSiteById',
    summary:
      "Record events of a published site: page views, searches and page ratings are kept (no IP address, cookie or user agent; the visitor id hashed with a daily key); GitBook's other events are accepted and dropped",
  },
});

export const getSiteInsightsSummary = op({
  id: 'siteInsights.get',
  input: z.object({
    ...SITE.params,
    days: queryNumber(z.number().int().min(1).max(365))
      .optional()
      .describe('How many days back from now (1..365, default 30)'),
  }),
  output: SiteInsightsSummarySchema,
  http: {
    route: `GET ${SITE.route}/insights/summary`,
    operationId: 'getSiteInsightsSummary',
    summary:
      "Quire-specific (not in GitBook's API): a summary of a site's page views, visitors, searches (with and without results) and page ratings",
  },
});

export const aggregateSiteEvents = op({
  id: 'siteInsightsEvents.countAggregate',
  type: 'query',
  input: z.object({ ...SITE.params, ...SiteInsightsQueryEventsAggregationShape }),
  output: SiteInsightsQueryEventsAggregationResultSchema,
  http: {
    route: `POST ${SITE.route}/insights/events/aggregate`,
    operationId: 'aggregateSiteEvents',
    summary:
      "Query a site's analytics events, grouped and filtered over a time range. A 404 (a broken link) is a " +
      '`page_view` whose `page` is null; Quire answers the columns it records (see docs/published-content-api.md, "Site insights"), 400 for others',
  },
});

export const listSiteVisitorSegments = op({
  id: 'siteVisitorSegments.list',
  input: z.object({ ...SITE.params }),
  output: listOf(SiteInsightsVisitorSegmentSchema),
  http: {
    route: `GET ${SITE.route}/insights/visitor-segments`,
    operationId: 'listSiteVisitorSegments',
    summary:
      "List a site's visitor segments: Quire keeps no visitor claims, so one segment, all visitors of the last 30 days",
  },
});
