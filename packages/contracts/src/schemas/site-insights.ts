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

/** The events Quire records (the others of GitBook's SiteInsightsEvent are accepted and not recorded). */
export const SiteInsightsEventSchema = z
  .discriminatedUnion('type', [
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
    z
      .looseObject({
        ...EventBase,
        type: z
          .enum([
            'page_markdown_request',
            'search_open',
            'search_open_result',
            'agent_feedback',
            'ask_question',
            'ask_view',
            'ask_rate_response',
            'link_click',
            'api_client_open',
            'api_client_request',
            'trademark_click',
            'ad_click',
            'ad_display',
            'llms_request',
            'mcp_request',
            'rss_request',
          ])
          .describe('The kind of event'),
      })
      .describe('Another of GitBook’s events: accepted, not recorded'),
  ])
  .describe("An event of a published site (GitBook's SiteInsightsEvent)");
export type SiteInsightsEvent = z.infer<typeof SiteInsightsEventSchema>;

export const SiteInsightsSummarySchema = z
  .object({
    from: z.string().describe('Start of the period (ISO 8601)'),
    to: z.string().describe('End of the period (ISO 8601)'),
    pageViews: z.number().int().describe('Pages viewed'),
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
  })
  .describe("Quire only: a summary of a site's recorded events over a period");
