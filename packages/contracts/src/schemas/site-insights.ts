import { z } from 'zod';

/** Largest batch of `trackEventsInSiteById`. */
export const SITE_INSIGHTS_EVENTS_MAX = 100;
/** How far an event's `timestamp` may be from now (GitBook: within 5 minutes). */
export const SITE_INSIGHTS_CLOCK_SKEW_MS = 5 * 60 * 1000;

const nullableId = (what: string) => z.string().max(100).nullable().optional().describe(`ID of the concerned ${what}`);

const EventBase = {
  session: z
    .looseObject({
      visitorId: z.string().min(1).max(200).describe("The renderer's id of the visitor (stored only hashed, per day)"),
      sessionId: z.string().min(1).max(200).describe("The renderer's id of the visit (not stored)"),
    })
    .describe('The visitor and visit (cookies, IP address, user agent are accepted and never stored)'),
  location: z
    .looseObject({
      url: z.string().max(2048).describe('URL of the page the event happened on'),
      siteSection: nullableId('site section'),
      siteSpace: nullableId('site space'),
      siteShareKey: nullableId('share link'),
      space: nullableId('space'),
      revision: nullableId('revision'),
      page: nullableId('page'),
    })
    .describe('Where the event happened'),
  timestamp: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('When the event happened (now when absent; within 5 minutes of now)'),
};

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S, description: string) =>
  z.looseObject({ ...EventBase, type: z.literal(type).describe('The kind of event'), ...shape }).describe(description);

const RatingSchema = z.enum(['bad', 'ok', 'good']).describe('How helpful the page was');

/** GitBook's event types (`SiteInsightsEventType`). */
export const SITE_INSIGHTS_EVENT_TYPES = [
  'page_view',
  'page_markdown_request',
  'search_open',
  'search_type_query',
  'search_open_result',
  'page_post_feedback',
  'page_post_feedback_comment',
  'agent_feedback',
  'ask_question',
  'ask_view',
  'ask_rate_response',
  'link_click',
  'api_client_open',
  'api_client_request',
  'ad_click',
  'ad_display',
  'trademark_click',
  'llms_request',
  'mcp_request',
  'rss_request',
] as const;

/** The events Quire records (the others of GitBook's SiteInsightsEvent are accepted and not recorded). */
const RECORDED_EVENTS = [
  event('page_view', {}, 'A page was viewed'),
  event(
    'search_type_query',
    {
      query: z.string().max(512).describe('What was searched'),
      resultCount: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Quire only: how many results the search found (0: a search without results)'),
    },
    'A search was made',
  ),
  event(
    'page_post_feedback',
    { feedback: z.looseObject({ rating: RatingSchema }).describe('The rating') },
    'A page was rated ("Was this page helpful?")',
  ),
  event(
    'page_post_feedback_comment',
    {
      feedback: z
        .looseObject({ rating: RatingSchema, comment: z.string().min(1).max(512).describe('What the visitor wrote') })
        .describe('The rating and its comment'),
    },
    'A page was rated with a comment',
  ),
] as const;

/** The event types Quire records (those of `RECORDED_EVENTS`). */
export const SITE_INSIGHTS_RECORDED_EVENT_TYPES = RECORDED_EVENTS.map((e) => e.shape.type.value);
type OtherEventType = Exclude<
  (typeof SITE_INSIGHTS_EVENT_TYPES)[number],
  (typeof RECORDED_EVENTS)[number]['shape']['type']['value']
>;
const recorded: readonly string[] = SITE_INSIGHTS_RECORDED_EVENT_TYPES;
const OTHER_EVENT_TYPES = SITE_INSIGHTS_EVENT_TYPES.filter((t): t is OtherEventType => !recorded.includes(t));

export const SiteInsightsEventSchema = z
  .discriminatedUnion('type', [
    ...RECORDED_EVENTS,
    z
      .looseObject({
        ...EventBase,
        type: z.enum(OTHER_EVENT_TYPES).describe('The kind of event'),
      })
      .describe('Another of GitBook’s events: accepted, not recorded'),
  ])
  .describe("An event of a published site (GitBook's SiteInsightsEvent)");
export type SiteInsightsEvent = z.infer<typeof SiteInsightsEventSchema>;

export const SiteInsightsSummarySchema = z
  .object({
    from: z.string().describe('Start of the period (ISO 8601)'),
    to: z.string().describe('End of the period (ISO 8601)'),
    pageViews: z.number().int().describe('Pages viewed (404s aside)'),
    notFound: z.number().int().describe('Views of a path under the site that names no page (broken links: 404s)'),
    visitors: z.number().int().describe('Distinct visitors per day, summed over the days'),
    searches: z.number().int().describe('Searches made'),
    searchesWithoutResults: z.number().int().describe('Searches that found nothing (as the renderer reported)'),
    ratings: z
      .object({ good: z.number().int(), ok: z.number().int(), bad: z.number().int() })
      .describe('Page ratings by value'),
    topPages: z
      .array(
        z.object({
          space: z.string().nullable().describe('The space'),
          page: z.string().describe('The page'),
          views: z.number().int().describe('Views'),
        }),
      )
      .describe('The 10 most viewed pages'),
    topSearches: z
      .array(
        z.object({
          query: z.string().describe('The query (lowercased, trimmed)'),
          count: z.number().int().describe('How often'),
          withoutResults: z.number().int().describe('How often it found nothing'),
        }),
      )
      .describe('The 10 most frequent searches'),
    topNotFound: z
      .array(
        z.object({
          path: z.string().describe('The URL path that answered 404'),
          count: z.number().int().describe('How often'),
        }),
      )
      .describe('The 10 paths most often answered 404 (broken links)'),
  })
  .describe("Quire only: a summary of a site's recorded events over a period");

// ——— aggregateSiteEvents (GitBook's SiteInsightsQueryEventsAggregation and its result) ———

/** The columns of GitBook's `SiteInsightsQueryEventsColumn` other than `datetime` and `visitorGeoPoint`. */
const PLAIN_COLUMNS = [
  'dayOfWeek',
  'hourOfDay',
  'url',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSection',
  'siteSpace',
  'siteShareKey',
  'displayContext',
  'page',
  'visitorGeoCountry',
  'visitorDevice',
  'visitorBrowser',
  'visitorOS',
  'visitorBot',
  'visitorLanguage',
  'eventLinkTargetValue',
  'eventLinkTargetKind',
  'eventLinkTargetDomain',
  'eventLinkPosition',
  'eventAPIOperationPath',
  'eventAPIOperationMethod',
  'eventLLMSVariant',
  'eventPageNotFoundType',
  'eventMarkdownSource',
  'eventSearchQuery',
  'eventSearchResultRecordId',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'eventAskResponseRating',
  'pageFeedbackRating',
  'askResponseRating',
  'referrer',
  'referrerDomain',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'visitorAuthenticated',
  'visitorClaimProperty',
  'visitorClaim',
  'eventAdDomain',
  'eventAdPlacement',
  'eventTrademarkPlacement',
] as const;
export const SITE_INSIGHTS_COLUMNS = ['datetime', 'visitorGeoPoint', ...PLAIN_COLUMNS] as const;
export type SiteInsightsColumnName = (typeof SITE_INSIGHTS_COLUMNS)[number];

/**
 * The columns Quire answers (the others name what Quire does not record: 400). `displayContext` is always `site`,
 * `eventPageNotFoundType` always null.
 */
export const SITE_INSIGHTS_ANSWERED_COLUMNS = [
  'datetime',
  'dayOfWeek',
  'hourOfDay',
  'urlPath',
  'eventType',
  'eventsCount',
  'sessionsCount',
  'visitorsCount',
  'siteSpace',
  'page',
  'displayContext',
  'eventPageNotFoundType',
  'eventSearchQuery',
  'eventPageFeedbackRating',
  'eventPageFeedbackComment',
  'pageFeedbackRating',
] as const satisfies readonly SiteInsightsColumnName[];

const ColumnNameSchema = z.enum(SITE_INSIGHTS_COLUMNS).describe('The column');

export const SiteInsightsQueryEventsColumnSchema = z
  .discriminatedUnion('column', [
    z.object({
      column: z.literal('datetime').describe('When the event happened (UTC), truncated to `interval`'),
      interval: z.enum(['hour', 'day', 'week', 'month']).optional().describe('The bucket (`day` unless said)'),
    }),
    z.object({
      column: z.literal('visitorGeoPoint').describe('Where the visitor was (not recorded by Quire)'),
      precision: z.number().int().min(0).max(15).optional().describe('The precision of the point'),
    }),
    z.object({ column: z.enum(PLAIN_COLUMNS).describe('The column') }),
  ])
  .describe("A column of the site's events (GitBook's SiteInsightsQueryEventsColumn)");
export type SiteInsightsQueryEventsColumn = z.infer<typeof SiteInsightsQueryEventsColumnSchema>;

const FilterValueSchema = z
  .union([z.string().max(2048), z.number(), z.boolean(), z.null(), z.looseObject({})])
  .describe('A value of the column');

export const SiteInsightsQueryEventsFilterSchema = z
  .object({
    column: ColumnNameSchema,
    values: z.array(FilterValueSchema).max(100).describe('The values to compare with'),
    claim: z.string().max(200).optional().describe('The claim (`visitorClaim` only)'),
    operator: z
      .enum(['in', 'notIn', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual'])
      .optional()
      .describe('How to compare (`in` unless said; the comparisons take one value)'),
  })
  .describe("A filter of the site's events (GitBook's SiteInsightsQueryEventsFilter)");
export type SiteInsightsQueryEventsFilter = z.infer<typeof SiteInsightsQueryEventsFilterSchema>;

export const SiteInsightsQueryRangeSchema = z
  .union([
    z.enum(['lastYear', 'last3Months', 'last30Days', 'last7Days', 'last24Hours']).describe('A period up to now'),
    z
      .object({
        from: z.iso.datetime({ offset: true }).describe('Start of the period'),
        to: z.iso.datetime({ offset: true }).describe('End of the period'),
      })
      .describe('A period between two dates'),
  ])
  .describe("The period (GitBook's SiteInsightsQueryRange)");
export type SiteInsightsQueryRange = z.infer<typeof SiteInsightsQueryRangeSchema>;

export const SITE_INSIGHTS_AGGREGATE_LIMIT = 1000;

/** The body of `aggregateSiteEvents` (GitBook's SiteInsightsQueryEventsAggregation). */
export const SiteInsightsQueryEventsAggregationShape = {
  select: z
    .array(SiteInsightsQueryEventsColumnSchema)
    .max(20)
    .optional()
    .describe('The columns to answer (`eventsCount` when none is given)'),
  where: z.array(SiteInsightsQueryEventsFilterSchema).max(20).optional().describe('The filters, all applied'),
  groupBy: z.array(SiteInsightsQueryEventsColumnSchema).max(10).optional().describe('The columns to group by'),
  order: z
    .object({
      by: SiteInsightsQueryEventsColumnSchema,
      direction: z.enum(['asc', 'desc']).describe('The direction'),
    })
    .optional()
    .describe('The order of the rows'),
  range: SiteInsightsQueryRangeSchema,
  limit: z
    .number()
    .int()
    .min(1)
    .max(SITE_INSIGHTS_AGGREGATE_LIMIT)
    .optional()
    .describe(`The most rows (${SITE_INSIGHTS_AGGREGATE_LIMIT} unless said)`),
};

const ResultValueSchema = z
  .union([
    z.string(),
    z.number(),
    z.null(),
    z.object({ ok: z.number(), good: z.number(), bad: z.number() }).describe('Ratings by value'),
  ])
  .describe('The value of one row');

export const SiteInsightsQueryEventsAggregationResultSchema = z
  .object({
    columns: z
      .array(
        z.object({
          column: ColumnNameSchema,
          values: z.array(ResultValueSchema).describe('The values, one per row, rows in order'),
        }),
      )
      .describe('Each answered column (the `groupBy` columns, then the `select` ones) with its values'),
  })
  .describe("Aggregated events (GitBook's SiteInsightsQueryEventsAggregationResult)");
export type SiteInsightsQueryEventsAggregationResult = z.infer<typeof SiteInsightsQueryEventsAggregationResultSchema>;

export const SiteInsightsVisitorSegmentSchema = z
  .object({
    title: z.string().describe('The title of the visitor profile'),
    claims: z.record(z.string(), z.unknown()).describe('The claims the visitors of the segment share'),
    events: z.number().describe('The number of events for this visitor profile'),
    visitors: z.number().describe('The number of visitors for this visitor profile'),
    sessions: z.number().describe('The number of sessions for this visitor profile'),
  })
  .describe("A segment of visitors with the same characteristics (GitBook's SiteInsightsVisitorSegment)");
