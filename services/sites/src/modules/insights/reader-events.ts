import { createHash } from 'node:crypto';
import { html, type Html } from '@quire/document/render';
import { TokenSigner, type EntityManager, type Logger } from '@quire/kit';
import { siteEventsRecorder } from '../../commands/site-events-recorder.ts';
import { URL_PATH_MAX, visitorPseudonym } from './insights.loader.ts';
import { insightsRepository, type SiteEventKind, type SiteEventRow } from './insights.repository.ts';

/**
 * What a published site records by itself (docs/published-sites.md, "Insights"): the page views and searches of
 * its readers, batched in memory and written every few seconds, and the votes of the "Was this page helpful?"
 * form at the end of every page (a plain HTML form: no JavaScript, no cookie). Privacy as for
 * `trackEventsInSiteById`: the visitor is a daily pseudonym (an HMAC of the day and a hash of the client's address,
 * user agent and site, none of them stored); a request saying `DNT: 1` or `Sec-GPC: 1` records nothing.
 */

/** The last path segment a page's rating form posts to (`<site>/~rating`). */
export const RATING_SEGMENT = '~rating';
/** How long a page's rating form stays valid (it is part of the cached page, kept 20 minutes at most). */
export const RATING_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** GitBook's ratings (`page_post_feedback`); the form offers Yes (`good`) and No (`bad`). */
export const RATINGS = ['good', 'ok', 'bad'] as const;
export type Rating = (typeof RATINGS)[number];

/** What a page's rating form is about, signed into its hidden `token` field. */
export interface RatingTarget {
  site: string;
  siteSpace: string;
  space: string;
  page: string;
  /** The page's URL path, to link back to it. */
  href: string;
}

const signers = new Map<string, TokenSigner<Record<string, unknown>>>();
function signer(secret: string): TokenSigner<Record<string, unknown>> {
  let s = signers.get(secret);
  if (!s) signers.set(secret, (s = new TokenSigner(secret, 'site-rating')));
  return s;
}

export const signRatingToken = (secret: string, t: RatingTarget, now = Date.now()): Promise<string> =>
  signer(secret).sign({ ...t }, now + RATING_TOKEN_TTL_MS);

/** The target of a rating form's token when it is valid, else why not. */
export async function verifyRatingToken(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<RatingTarget | 'expired' | 'invalid'> {
  const claims = await signer(secret).verify(token.slice(0, 4096), now);
  if (typeof claims === 'string') return claims;
  const { site, siteSpace, space, page, href } = claims as Record<string, unknown>;
  const strings = [site, siteSpace, space, page, href];
  if (!strings.every((x) => typeof x === 'string')) return 'invalid';
  return { site, siteSpace, space, page, href } as RatingTarget;
}

/** The "Was this page helpful?" form at the end of a page: two labelled submit buttons, a signed hidden field. */
export async function ratingForm(secret: string, action: string, target: RatingTarget): Promise<Html> {
  const token = await signRatingToken(secret, target);
  return html`<form class="page-rating" method="post" action="${action}">
<fieldset><legend>Was this page helpful?</legend>
<input type="hidden" name="token" value="${token}">
<button type="submit" name="rating" value="good">Yes</button>
<button type="submit" name="rating" value="bad">No</button>
</fieldset>
</form>`;
}

/** What the server knows of a request, to tell readers from robots and make the day's visitor pseudonym. */
export interface ReaderRequest {
  doNotTrack?: boolean | undefined;
  userAgent?: string | undefined;
  clientAddress?: string | undefined;
}

const ROBOT =
  /bot\b|bot\/|crawl|spider|slurp|curl\/|wget\/|python-requests|python-urllib|go-http-client|java\/|okhttp|axios\/|node-fetch|undici|facebookexternalhit|embedly|preview|lighthouse|pingdom|monitor|headlesschrome/i;

/** Whether a request's events may be recorded: not when it says DNT or Sec-GPC, nor when it looks like a robot. */
export function mayRecord(r: ReaderRequest): boolean {
  if (r.doNotTrack) return false;
  const ua = r.userAgent?.trim() ?? '';
  return ua !== '' && !ROBOT.test(ua);
}

/** The day's pseudonym of the reader of `site`: its address, user agent and the site hashed, then HMACed with the day. */
export function readerPseudonym(secret: string, site: string, r: ReaderRequest, at: Date): string {
  const id = createHash('sha256')
    .update(`${site}\n${r.clientAddress ?? ''}\n${r.userAgent ?? ''}`)
    .digest('base64url');
  return visitorPseudonym(secret, id, at);
}

export type RatingOutcome = 'recorded' | 'already-rated' | 'not-recorded';

/**
 * Records a reader's rating of a page, once per page a day per visitor pseudonym (a second vote the same day is
 * thanked, not counted); with DNT/Sec-GPC nothing is recorded. Robots are not filtered here: a POST is a vote.
 */
export async function recordRating(
  em: EntityManager,
  secret: string,
  target: RatingTarget,
  rating: Rating,
  r: ReaderRequest,
  now = new Date(),
): Promise<RatingOutcome> {
  if (r.doNotTrack) return 'not-recorded';
  const visitor = readerPseudonym(secret, target.site, r, now);
  const dayStart = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  if (await insightsRepository.hasRated(em, target.site, target.page, visitor, dayStart)) return 'already-rated';
  await siteEventsRecorder(em, {
    rows: [
      {
        siteId: target.site,
        kind: 'rating',
        occurredAt: now,
        visitor,
        siteSpaceId: target.siteSpace,
        spaceId: target.space,
        pageId: target.page,
        query: null,
        resultCount: null,
        rating,
        comment: null,
        urlPath: target.href.slice(0, URL_PATH_MAX),
      },
    ],
  });
  return 'recorded';
}

// ——— page views and searches: batched in memory, flushed every few seconds ———

/** The most events waiting to be written; beyond, new events are dropped (and counted in the log). */
export const SITE_EVENTS_QUEUE_MAX = 10_000;
/** How often the waiting events are written. */
export const SITE_EVENTS_FLUSH_MS = 3_000;
let flushMs = SITE_EVENTS_FLUSH_MS;
/** Sets how long events wait before they are written (tests hold them to look at the queue). */
export function setReaderEventsFlushInterval(ms: number = SITE_EVENTS_FLUSH_MS): void {
  flushMs = ms;
}
const FLUSH_BATCH = 500;

interface Queue {
  rows: SiteEventRow[];
  dropped: number;
  timer: NodeJS.Timeout | null;
  em: EntityManager | null;
  log: Logger | null;
  flushing: Promise<void> | null;
}
const queue: Queue = { rows: [], dropped: 0, timer: null, em: null, log: null, flushing: null };

export interface ReaderEvent {
  site: string;
  kind: Exclude<SiteEventKind, 'rating'>;
  siteSpace: string | null;
  space: string | null;
  page: string | null;
  query?: string;
  resultCount?: number;
  /** The URL path the reader asked for (without its query string). */
  urlPath?: string;
}

/**
 * Queues a reader's page view (of a page, or of a path that answered 404: a broken link) or search to be recorded
 * (nothing when it may not be: DNT, a robot). Never throws, never waits: the render goes on whatever happens to the
 * event.
 */
export function queueReaderEvent(
  ctx: { em: EntityManager; log: Logger; secret: string },
  r: ReaderRequest,
  e: ReaderEvent,
  now = new Date(),
): boolean {
  try {
    if (!mayRecord(r)) return false;
    if (queue.rows.length >= SITE_EVENTS_QUEUE_MAX) {
      queue.dropped++;
      return false;
    }
    queue.rows.push({
      siteId: e.site,
      kind: e.kind,
      occurredAt: now,
      visitor: readerPseudonym(ctx.secret, e.site, r, now),
      siteSpaceId: e.siteSpace,
      spaceId: e.space,
      pageId: e.page,
      query: e.query?.trim().slice(0, 200) ?? null,
      resultCount: e.resultCount ?? null,
      rating: null,
      comment: null,
      urlPath: e.urlPath?.slice(0, URL_PATH_MAX) ?? null,
    });
    queue.em = ctx.em;
    queue.log = ctx.log;
    if (!queue.timer) {
      queue.timer = setTimeout(() => void flushReaderEvents(), flushMs);
      queue.timer.unref();
    }
    return true;
  } catch (err) {
    ctx.log.warn({ err }, 'site insights: an event could not be queued');
    return false;
  }
}

/** Writes the waiting events now (also what the timer does); a failed batch is logged and dropped. */
export async function flushReaderEvents(): Promise<void> {
  if (queue.timer) clearTimeout(queue.timer);
  queue.timer = null;
  while (queue.flushing) await queue.flushing;
  const { em, log } = queue;
  if (!em || (queue.rows.length === 0 && queue.dropped === 0)) return;
  const rows = queue.rows.splice(0);
  const dropped = queue.dropped;
  queue.dropped = 0;
  queue.flushing = (async () => {
    if (dropped) log?.warn({ dropped }, 'site insights: events dropped, the queue was full');
    for (let i = 0; i < rows.length; i += FLUSH_BATCH) {
      try {
        await siteEventsRecorder(em.fork(), { rows: rows.slice(i, i + FLUSH_BATCH) });
      } catch (err) {
        log?.warn({ err, lost: Math.min(FLUSH_BATCH, rows.length - i) }, 'site insights: events not recorded');
      }
    }
  })();
  try {
    await queue.flushing;
  } finally {
    queue.flushing = null;
  }
}

/** How many events wait to be written (for tests). */
export const queuedReaderEvents = (): number => queue.rows.length;
