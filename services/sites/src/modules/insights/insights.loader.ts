import { createHmac, hkdfSync } from 'node:crypto';
import {
  readerOf,
  SITE_INSIGHTS_CLOCK_SKEW_MS,
  type SiteInsightsEvent,
  type SiteInsightsSummarySchema,
} from '@quire/contracts';
import { invalid } from '@quire/kit';
import type { z } from 'zod';
import type { SitesContext } from '../../trpc.ts';
import type { ISite } from '../sites/site.entity.ts';
import { loadSiteUnder } from '../sites/site.loader.ts';
import { insightsPolicy, type InsightsAction } from './insights.policy.ts';
import { insightsRepository, type SiteEventRow } from './insights.repository.ts';

type Ctx = Pick<SitesContext, 'em' | 'actor' | 'config'>;
interface Where {
  organizationId: string;
  siteId: string;
}

/** The site whose insights the caller may `action` on: 404 when it cannot see the site, 403 when its role is too low. */
export const loadSiteForInsights = (ctx: Ctx, where: Where, action: InsightsAction): Promise<ISite> =>
  loadSiteUnder(ctx, where, insightsPolicy, action);

const keys = new Map<string, Buffer>();
/** The key visitor pseudonyms are made with: HKDF-SHA256 of the deployment's secret, for this purpose alone. */
function visitorKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(hkdfSync('sha256', secret, 'quire', 'quire/insights/visitor/v1', 32))));
  return key;
}

/**
 * A visitor's pseudonym for one day: HMAC of the day and the renderer's visitor id, so the same visitor counts once
 * a day and cannot be followed from one day to the next (nor the id read back).
 */
export const visitorPseudonym = (secret: string, visitorId: string, at: Date): string =>
  createHmac('sha256', visitorKey(secret))
    .update(`${at.toISOString().slice(0, 10)}\n${visitorId}`)
    .digest('base64url')
    .slice(0, 22);

/** When an event happened: its `timestamp`, within 5 minutes of now (400 naming it otherwise), else now. */
function occurredAt(e: SiteInsightsEvent, i: number, now: Date): Date {
  if (e.timestamp === undefined) return now;
  const at = new Date(e.timestamp);
  if (Math.abs(at.getTime() - now.getTime()) > SITE_INSIGHTS_CLOCK_SKEW_MS)
    throw invalid(`Invalid request: events.${i}.timestamp: must be within 5 minutes of now`);
  return at;
}

/** A reader reports events of the site spaces its site shows it only (400 naming the field otherwise). */
function assertReaderLocation(ctx: Ctx, e: SiteInsightsEvent, i: number): void {
  const reader = readerOf(ctx.actor);
  if (!reader) return;
  const { siteSpace, space } = e.location;
  if (siteSpace != null && !reader.siteSpaces.some((s) => s.id === siteSpace))
    throw invalid(`Invalid request: events.${i}.location.siteSpace: not a site space of this site`);
  if (space != null && !reader.siteSpaces.some((s) => s.space === space))
    throw invalid(`Invalid request: events.${i}.location.space: not a space of this site`);
}

/** The path of an event's URL (no query string, no fragment: they may hold a share key), null when it is none. */
export function urlPathOf(url: string): string | null {
  try {
    return new URL(url).pathname.slice(0, URL_PATH_MAX);
  } catch {
    return null;
  }
}
/** The longest URL path kept. */
export const URL_PATH_MAX = 1024;

/** What is kept of an event (page views, searches, ratings), or null for the events Quire does not record. */
function rowOf(site: ISite, e: SiteInsightsEvent, at: Date, visitor: string): SiteEventRow | null {
  const base = {
    siteId: site.id,
    occurredAt: at,
    visitor,
    siteSpaceId: e.location.siteSpace ?? null,
    spaceId: e.location.space ?? null,
    pageId: e.location.page ?? null,
    query: null,
    resultCount: null,
    rating: null,
    comment: null,
    urlPath: urlPathOf(e.location.url),
  };
  switch (e.type) {
    case 'page_view':
      return { ...base, kind: 'page_view' };
    case 'search_type_query':
      return { ...base, kind: 'search', query: e.query.trim(), resultCount: e.resultCount ?? null };
    case 'page_post_feedback':
      return { ...base, kind: 'rating', rating: e.feedback.rating };
    case 'page_post_feedback_comment':
      return { ...base, kind: 'rating', rating: e.feedback.rating, comment: e.feedback.comment };
    default:
      return null;
  }
}

/**
 * The rows to record for a batch of events: each checked (its timestamp, a reader's location), the visitor
 * pseudonymised, and nothing else of the session kept (no IP address, cookie, user agent, referrer).
 */
export function loadEventsToRecord(
  ctx: Ctx,
  site: ISite,
  events: readonly SiteInsightsEvent[],
  now = new Date(),
): SiteEventRow[] {
  const rows: SiteEventRow[] = [];
  for (const [i, e] of events.entries()) {
    const at = occurredAt(e, i, now);
    assertReaderLocation(ctx, e, i);
    const row = rowOf(site, e, at, visitorPseudonym(ctx.config.QUIRE_INTERNAL_SECRET, e.session.visitorId, at));
    if (row) rows.push(row);
  }
  return rows;
}

type Summary = z.infer<typeof SiteInsightsSummarySchema>;

/** The summary of a site's events over the last `days` days (30 unless said). */
export async function loadInsightsSummary(ctx: Ctx, site: ISite, days = 30, now = new Date()): Promise<Summary> {
  const from = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const to = new Date(now.getTime() + 1);
  const [totals, pages, searches, notFound] = await Promise.all([
    insightsRepository.totals(ctx.em, site.id, from, to),
    insightsRepository.topPages(ctx.em, site.id, from, to),
    insightsRepository.topSearches(ctx.em, site.id, from, to),
    insightsRepository.topNotFound(ctx.em, site.id, from, to),
  ]);
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    pageViews: totals.page_views,
    notFound: totals.not_found,
    visitors: totals.visitors,
    searches: totals.searches,
    searchesWithoutResults: totals.searches_without_results,
    ratings: { good: totals.good, ok: totals.ok, bad: totals.bad },
    topPages: pages.map((p) => ({ space: p.space_id, page: p.page_id, views: p.views })),
    topSearches: searches.map((s) => ({ query: s.query, count: s.count, withoutResults: s.without_results })),
    topNotFound: notFound,
  };
}
