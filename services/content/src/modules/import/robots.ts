import robotsParser from 'robots-parser';
import type { CrawlFetch } from './website-crawler.ts';

/** The product token the import's user agent (`Quire-Import/1`) is matched by in robots.txt groups. */
export const ROBOTS_AGENT = 'Quire-Import';
/** A robots.txt larger than this is read up to here (RFC 9309 asks crawlers to read at least 500 KiB). */
const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 5_000;

/** Whether the site's robots.txt lets the import follow a link to `url`; `reason` says why not. */
export interface RobotsPolicy {
  allows(url: string): boolean;
  /** Why a URL is refused (for the import's `skipped` list). */
  reason: string;
}

/**
 * The robots.txt of the site at `origin`, read as RFC 9309 says: a missing one (HTTP 4xx) allows everything;
 * one that cannot be had (HTTP 5xx, unreachable, out of time) disallows everything — links are then not
 * followed, and the import holds the start page alone.
 */
export async function readRobots(
  origin: string,
  fetch: CrawlFetch,
  timeoutMs: number,
): Promise<{ policy: RobotsPolicy; bytes: number }> {
  const at = new URL('/robots.txt', origin).toString();
  try {
    const res = await fetch(at, { maxBytes: ROBOTS_MAX_BYTES, timeoutMs: Math.min(ROBOTS_TIMEOUT_MS, timeoutMs) });
    const bytes = res.body.length;
    if (res.status >= 500) return { policy: denyAll(`robots.txt answered HTTP ${res.status}`), bytes };
    if (res.status >= 300) return { policy: allowAll, bytes };
    const robots = robotsParser(at, res.body.toString('utf8'));
    const policy = {
      allows: (url: string) => robots.isAllowed(url, ROBOTS_AGENT) !== false,
      reason: `disallowed by ${at}`,
    };
    return { policy, bytes };
  } catch (err) {
    if (err instanceof Error && /larger than|too large|maxBytes/i.test(err.message)) {
      // Over the cap: what a crawler may not read in full it must not guess from; follow nothing.
      return { policy: denyAll(`robots.txt over ${ROBOTS_MAX_BYTES} bytes`), bytes: 0 };
    }
    return {
      policy: denyAll(`robots.txt could not be read (${err instanceof Error ? err.message : String(err)})`),
      bytes: 0,
    };
  }
}

const allowAll: RobotsPolicy = { allows: () => true, reason: '' };
const denyAll = (why: string): RobotsPolicy => ({ allows: () => false, reason: `${why}: links not followed` });
