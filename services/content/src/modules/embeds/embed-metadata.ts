import * as cheerio from 'cheerio';
import { LRUCache } from 'lru-cache';
import type { Embed } from '@quire/contracts';
import { guardedFetch, type GuardedResponse } from '@quire/kit';
import { mediaTypeOf, type OutboundConfig } from '../content/remote-file.ts';

/** Bounds of what an embed reads: a page's first 1 MB, an oEmbed answer's first 256 KB, 5 s each. */
export const EMBED_LIMITS = { pageBytes: 1024 * 1024, oembedBytes: 256 * 1024, timeoutMs: 5_000 } as const;
const MAX_TITLE = 300;
const MAX_HTML = 64 * 1024;
/** How long an answer is kept: a day for a page read, 5 minutes for a link card of a page that could not be read. */
export const EMBED_TTL_MS = { read: 24 * 60 * 60 * 1000, unreachable: 5 * 60 * 1000 } as const;

const HEADERS = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', 'user-agent': 'Quire-Embed/1.0' };

const clip = (s: string | undefined, max = MAX_TITLE): string | undefined => {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : undefined;
};

/** An http(s) URL given by a page, absolute against the page's URL; undefined for anything else. */
function httpUrl(href: string | undefined, base: string): string | undefined {
  if (!href || !URL.canParse(href.trim(), base)) return undefined;
  const url = new URL(href.trim(), base);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** The card of a URL that could not be read: its URL as title, its host as site. */
export const linkCard = (url: string): Embed => ({
  type: 'link',
  title: url.slice(0, MAX_TITLE),
  site: new URL(url).hostname,
});

/** What an oEmbed answer (JSON) gives an embed, when it gives HTML to embed (`video` or `rich`). */
function fromOEmbed(res: GuardedResponse): { html: string; title?: string; site?: string } | undefined {
  if (res.status >= 400) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined; // not JSON: the page's own metadata is used instead
  }
  if (!data || typeof data !== 'object') return undefined;
  const o = data as Record<string, unknown>;
  if ((o.type !== 'video' && o.type !== 'rich') || typeof o.html !== 'string' || o.html.length > MAX_HTML)
    return undefined;
  const str = (v: unknown) => (typeof v === 'string' ? clip(v) : undefined);
  return { html: o.html, ...optional('title', str(o.title)), ...optional('site', str(o.provider_name)) };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;

/**
 * Describes a URL for an embed block, every request through the kit's guarded fetch (public addresses only unless
 * `QUIRE_ALLOW_PRIVATE_FETCH=1`, each redirect checked, bounded in bytes and time): the page's oEmbed (discovered
 * from its `<link rel="alternate" type="application/json+oembed">`) when it gives HTML, else a link card titled
 * from its OpenGraph `og:title` or `<title>`, named from `og:site_name` or its host, with its icon. A page that
 * cannot be read (refused, unreachable, an error status, not HTML) is a link card of the URL.
 */
export async function describeUrl(config: OutboundConfig, url: string): Promise<{ embed: Embed; read: boolean }> {
  const fetchOpts = {
    allowPrivate: config.QUIRE_ALLOW_PRIVATE_FETCH,
    allowPublic: config.QUIRE_OUTBOUND_FETCH,
    timeoutMs: EMBED_LIMITS.timeoutMs,
    headers: HEADERS,
  };
  let page: GuardedResponse;
  try {
    page = await guardedFetch(url, { ...fetchOpts, maxBytes: EMBED_LIMITS.pageBytes });
  } catch {
    return { embed: linkCard(url), read: false }; // refused by the guard, unreachable, too slow or too large
  }
  const type = mediaTypeOf(page.headers['content-type']);
  if (page.status >= 400 || (type !== 'text/html' && type !== 'application/xhtml+xml'))
    return { embed: linkCard(url), read: false };
  const $ = cheerio.load(page.body.toString('utf8'));
  const meta = (p: string) => $(`meta[property="${p}"], meta[name="${p}"]`).first().attr('content');
  const title = clip(meta('og:title')) ?? clip($('title').first().text()) ?? url.slice(0, MAX_TITLE);
  const site = clip(meta('og:site_name')) ?? new URL(page.url).hostname;
  const icon = httpUrl($('link[rel~="icon"]').first().attr('href'), page.url);
  const card = { title, site, ...optional('icon', icon) };
  const oembedUrl = httpUrl($('link[rel~="alternate"][type="application/json+oembed"]').first().attr('href'), page.url);
  if (oembedUrl) {
    const oembed = await guardedFetch(oembedUrl, { ...fetchOpts, maxBytes: EMBED_LIMITS.oembedBytes }).then(
      fromOEmbed,
      () => undefined, // an oEmbed endpoint that fails leaves the page's own metadata
    );
    if (oembed) return { embed: { type: 'rich', ...card, ...oembed }, read: true };
  }
  return { embed: { type: 'link', ...card }, read: true };
}

/**
 * Embeds by URL, kept per process: at most 5,000 URLs and 32 M characters, a day each (5 minutes for a link card
 * of a page that could not be read, so it is tried again soon); concurrent asks for one URL share one fetch.
 */
const cache = new LRUCache<string, Embed, OutboundConfig>({
  max: 5_000,
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (e) =>
    64 + e.title.length + e.site.length + (e.icon?.length ?? 0) + ('html' in e ? e.html.length : 0),
  ttl: EMBED_TTL_MS.read,
  fetchMethod: async (url, _stale, { options, context }) => {
    const { embed, read } = await describeUrl(context, url);
    if (!read) options.ttl = EMBED_TTL_MS.unreachable;
    return embed;
  },
});

/** The embed of a URL, from the cache or read now (see `describeUrl`). */
export async function embedOf(config: OutboundConfig, url: string): Promise<Embed> {
  const key = new URL(url).href;
  return (await cache.fetch(key, { context: config })) ?? linkCard(key);
}

/** Forgets every kept embed (tests). */
export const forgetEmbeds = (): void => cache.clear();
