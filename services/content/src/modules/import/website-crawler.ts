import { imageSize } from 'image-size';
import pMap from 'p-map';
import { DomainError, guardedFetch, invalid, type GuardedResponse } from '@quire/kit';
import { mediaTypeOf, type OutboundConfig } from '../content/remote-file.ts';
import { readHtmlPage } from './html-page.ts';
import { readRobots, type RobotsPolicy } from './robots.ts';
import { pageKey, siteScope, type SiteScope } from './site-scope.ts';

/** The bounds of one import (settings `QUIRE_IMPORT_*`). */
export interface CrawlLimits {
  /** Links followed from the start page: 0 imports the start page alone. */
  maxDepth: number;
  /** Page URLs fetched, the start page included. */
  maxPages: number;
  /** Bytes read, pages and images added up. */
  maxBytes: number;
  /** Time for the whole crawl, images included. */
  timeoutMs: number;
  /** Fetches at a time. */
  concurrency: number;
  /** Largest image kept (as `insert_files`). */
  maxImageBytes: number;
}

/** One fetch of the crawl: `maxBytes` and `timeoutMs` are what is left of the import's budget. */
export type CrawlFetch = (url: string, limits: { maxBytes: number; timeoutMs: number }) => Promise<GuardedResponse>;

export interface CrawledPage {
  /** The page's key (see `pageKey`): the URL it was read from after redirects, or its canonical URL. */
  key: string;
  /** Links followed from the start page to reach it. */
  depth: number;
  title: string | undefined;
  description: string | undefined;
  /** The main content, as HTML (see `readHtmlPage`). */
  content: string;
  /** Its images, in order. */
  images: string[];
}

export interface CrawledImage {
  url: string;
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface CrawledSite {
  /** The URL the import was asked for. */
  url: string;
  scope: SiteScope;
  /** The imported pages, in the order found (the start page first, then breadth first in link order). */
  pages: CrawledPage[];
  /** Other keys of imported pages (the URL asked for before a redirect, a URL whose canonical is an imported page). */
  aliases: ReadonlyMap<string, string>;
  /** The images downloaded, by the URL the pages give. */
  images: ReadonlyMap<string, CrawledImage>;
  /** Pages of the site and images of imported pages found, imported or not. */
  totalResources: number;
  importedResources: number;
  /** What was left out and why (first 100). */
  skipped: { url: string; reason: string }[];
  bytes: number;
  ms: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const IMAGE_EXTENSIONS: Record<string, string> = {
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  gif: 'gif',
  webp: 'webp',
  svg: 'svg',
  bmp: 'bmp',
  ico: 'ico',
  avif: 'avif',
  tiff: 'tiff',
};
const USER_AGENT = 'Quire-Import/1 (website import)';

/** The guarded fetch every request of an import goes through (SSRF guard, redirects checked again). */
export function websiteFetch(config: OutboundConfig): CrawlFetch {
  return (url, limits) =>
    guardedFetch(url, {
      allowPrivate: config.QUIRE_ALLOW_PRIVATE_FETCH,
      allowPublic: config.QUIRE_OUTBOUND_FETCH,
      maxBytes: limits.maxBytes,
      timeoutMs: limits.timeoutMs,
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,image/*;q=0.8,*/*;q=0.5' },
    });
}

const charsetOf = (header: string | string[] | undefined) =>
  /charset="?([^";\s]+)/i.exec((Array.isArray(header) ? header[0] : header) ?? '')?.[1];

function isHtml(res: GuardedResponse): boolean {
  const type = mediaTypeOf(res.headers['content-type']);
  if (type) return HTML_TYPES.has(type);
  return /^\s*(?:<!doctype html|<html|<head|<body)/i.test(res.body.subarray(0, 512).toString('latin1'));
}

/** The media type of image bytes (`image/png`), read from the bytes; undefined when they are not an image. */
function sniffImage(bytes: Buffer): string | undefined {
  try {
    const type = imageSize(bytes).type;
    if (!type) return undefined;
    return `image/${type === 'jpg' ? 'jpeg' : type === 'svg' ? 'svg+xml' : type}`;
  } catch {
    return undefined;
  }
}

/** The file name of an image: its URL's last segment (an extension added from its type when missing). */
function imageName(url: string, contentType: string, index: number): string {
  let base = '';
  if (!url.startsWith('data:')) {
    try {
      base = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    } catch {
      base = '';
    }
  }
  base = base.replace(/[\u0000-\u001f\u007f/\\]/g, '').slice(-200) || `image-${index + 1}`;
  const ext = contentType
    .replace(/^image\//, '')
    .replace(/\+xml$/, '')
    .replace('jpeg', 'jpg');
  return /\.[a-z0-9]{2,5}$/i.test(base) ? base : `${base}.${IMAGE_EXTENSIONS[ext] ?? ext}`;
}

/** The bytes of a `data:` URL (base64 or percent-encoded). */
function dataUrlBytes(url: string): { bytes: Buffer; contentType: string | undefined } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) return null;
  try {
    const bytes = /;base64/i.test(match[2]!)
      ? Buffer.from(match[3]!, 'base64')
      : Buffer.from(decodeURIComponent(match[3]!), 'utf8');
    return { bytes, contentType: match[1]?.trim().toLowerCase() || undefined };
  } catch {
    return null;
  }
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Crawls a website for an import: the page at `url`, then breadth first the pages of the same site (see
 * `siteScope`) it links to, level by level, up to `maxDepth` links away and `maxPages` page URLs; then the
 * images of the pages read. Every fetch goes through `fetch` (the kit's guarded fetch), `concurrency` at a
 * time, within the byte and time budget left. A start page that cannot be read is a 400 naming `url` with the
 * reason; any other page or image that cannot be read is left out and counted (`importedResources <
 * totalResources`). Non-HTML pages are counted, not imported.
 */
export async function crawlWebsite(url: string, fetch: CrawlFetch, limits: CrawlLimits): Promise<CrawledSite> {
  const crawl = new Crawl(fetch, limits);
  const first = await crawl.startPage(url);
  const startKey = pageKey(first.url)!;
  const scope = siteScope(startKey);
  const pages = new PageSet(scope, startKey, crawl);
  const requested = pageKey(url);
  if (requested && requested !== startKey) pages.aliases.set(requested, startKey);
  // The start page is what the member asked for; the links it leads to are followed as the site's robots.txt allows.
  if (limits.maxDepth > 0) {
    const read = await readRobots(first.url, fetch, Math.max(crawl.left(), 1));
    pages.robots = read.policy;
    crawl.bytes += read.bytes;
  }
  crawl.bytes += first.body.length;
  let level: { key: string; url: string }[] = [];
  pages.follow(pages.accept(startKey, first, 0), 1, level);
  for (let depth = 1; level.length > 0; depth++) level = await crawl.readLevel(pages, level, depth);
  const { images, sources } = await crawl.readImages(pages.pages);
  return {
    url,
    scope,
    pages: pages.pages,
    aliases: pages.aliases,
    images,
    totalResources: pages.found.size + sources,
    importedResources: pages.pages.length + images.size,
    skipped: crawl.skipped,
    bytes: crawl.bytes,
    ms: Date.now() - crawl.started,
  };
}

/** One crawl's budget (time, bytes), its fetches and what it left out. */
class Crawl {
  readonly started = Date.now();
  readonly #deadline: number;
  bytes = 0;
  readonly skipped: { url: string; reason: string }[] = [];

  readonly fetch: CrawlFetch;
  readonly limits: CrawlLimits;

  constructor(fetch: CrawlFetch, limits: CrawlLimits) {
    this.fetch = fetch;
    this.limits = limits;
    this.#deadline = this.started + limits.timeoutMs;
  }

  left(): number {
    return this.#deadline - Date.now();
  }

  skip(at: string, reason: string): void {
    if (this.skipped.length < 100) this.skipped.push({ url: at, reason });
  }

  /** The start page: any failure is the caller's to know, as a 400 naming the field. */
  async startPage(url: string): Promise<GuardedResponse> {
    const refuse = (why: string) => invalid(`Invalid request: url: ${why}`);
    let first: GuardedResponse;
    try {
      first = await this.fetch(url, { maxBytes: this.limits.maxBytes, timeoutMs: this.limits.timeoutMs });
    } catch (err) {
      throw err instanceof DomainError ? refuse(err.message) : refuse(`${url} could not be fetched (${reasonOf(err)})`);
    }
    if (first.status >= 400) throw refuse(`${url} answered HTTP ${first.status}`);
    if (first.status >= 300) throw refuse(`${url} answered HTTP ${first.status} without a location to follow`);
    if (!isHtml(first))
      throw refuse(
        `${url} is not an HTML page (${mediaTypeOf(first.headers['content-type']) ?? 'unknown content type'})`,
      );
    return first;
  }

  /** Fetches a resource within what is left of the budget; a reason instead when it cannot be had. */
  async within(at: string, cap: number): Promise<GuardedResponse | string> {
    const { maxBytes, timeoutMs } = this.limits;
    if (this.left() <= 0) return `out of time (QUIRE_IMPORT_TIMEOUT_MS: ${timeoutMs} ms)`;
    const budget = maxBytes - this.bytes;
    if (budget <= 0) return `out of bytes (QUIRE_IMPORT_MAX_BYTES: ${maxBytes})`;
    try {
      const res = await this.fetch(at, { maxBytes: Math.min(cap, budget), timeoutMs: this.left() });
      if (this.bytes + res.body.length > maxBytes) return `out of bytes (QUIRE_IMPORT_MAX_BYTES: ${maxBytes})`;
      this.bytes += res.body.length;
      if (res.status >= 400) return `HTTP ${res.status}`;
      return res.status >= 300 ? `HTTP ${res.status} without a location` : res;
    } catch (err) {
      return reasonOf(err);
    }
  }

  /** Fetches a level of pages concurrently and reads them in the order found (the order does not depend on who answers first); returns the next level. */
  async readLevel(pages: PageSet, level: { key: string; url: string }[], depth: number) {
    const fetched = await pMap(level, ({ url: at }) => this.within(at, this.limits.maxBytes), {
      concurrency: this.limits.concurrency,
    });
    const next: { key: string; url: string }[] = [];
    for (const [i, { key }] of level.entries()) {
      const res = fetched[i]!;
      if (typeof res === 'string') this.skip(key, res);
      else pages.follow(pages.accept(key, res, depth), depth + 1, next);
    }
    return next;
  }

  /** The images of the pages read, each once; `sources` is how many were found. */
  async readImages(pages: CrawledPage[]): Promise<{ images: Map<string, CrawledImage>; sources: number }> {
    const sources = [...new Set(pages.flatMap((p) => p.images))];
    const images = new Map<string, CrawledImage>();
    await pMap(
      sources,
      async (src, index) => {
        const image = await this.readImage(src, index);
        if (image) images.set(src, image);
      },
      { concurrency: this.limits.concurrency },
    );
    return { images, sources: sources.length };
  }

  /** One image (a `data:` URL or fetched), checked to be one and within the size limit; skipped otherwise. */
  async readImage(src: string, index: number): Promise<CrawledImage | undefined> {
    const shown = src.slice(0, 100);
    let body: { bytes: Buffer; contentType: string | undefined };
    if (src.startsWith('data:')) {
      const data = dataUrlBytes(src);
      if (!data) return void this.skip(shown, 'not a readable data: URL');
      body = data;
    } else if (/^https?:/.test(src)) {
      const res = await this.within(src, this.limits.maxImageBytes);
      if (typeof res === 'string') return void this.skip(src, res);
      body = { bytes: res.body, contentType: mediaTypeOf(res.headers['content-type']) };
    } else return void this.skip(shown, 'not an http(s) URL');
    if (body.bytes.length > this.limits.maxImageBytes)
      return void this.skip(shown, `larger than ${this.limits.maxImageBytes} bytes`);
    const sniffed = sniffImage(body.bytes);
    const contentType = body.contentType?.startsWith('image/') ? body.contentType : sniffed;
    if (!contentType || !sniffed)
      return void this.skip(shown, `not an image (${body.contentType ?? 'unknown content type'})`);
    return { url: src, name: imageName(src, contentType, index), contentType, bytes: body.bytes };
  }
}

/** The site's pages found and read so far, under their keys and aliases. */
class PageSet {
  /** Keys of the site's pages found so far (each counted once as a resource). */
  readonly found: Set<string>;
  readonly pages: CrawledPage[] = [];
  readonly byKey = new Map<string, CrawledPage>();
  readonly aliases = new Map<string, string>();
  robots: RobotsPolicy | undefined;
  #scheduled = 1;

  readonly scope: SiteScope;
  readonly crawl: Crawl;

  constructor(scope: SiteScope, startKey: string, crawl: Crawl) {
    this.scope = scope;
    this.crawl = crawl;
    this.found = new Set([startKey]);
  }

  /** `other` is one more URL of the page `target`: one resource, not two. */
  alias(other: string, target: string): void {
    if (other === target) return;
    this.aliases.set(other, target);
    this.found.delete(other);
  }

  /** Reads a fetched page (in the order of its level); returns the links to follow. */
  accept(key: string, res: GuardedResponse, depth: number): string[] {
    const finalKey = pageKey(res.url)!;
    if (finalKey !== key && !this.scope.contains(finalKey))
      return (this.crawl.skip(key, `redirected out of the site to ${res.url}`), []);
    if (this.byKey.has(finalKey)) return (this.alias(key, finalKey), []);
    if (!isHtml(res)) {
      const type = mediaTypeOf(res.headers['content-type']) ?? 'unknown content type';
      return (this.crawl.skip(key, `not an HTML page (${type})`), []);
    }
    const html = readHtmlPage(res.body, res.url, charsetOf(res.headers['content-type']));
    const canonical = html.canonical ? pageKey(html.canonical) : null;
    // A canonical URL of the site names the page (`?ref=nav` variants are one page); an imported one already read it.
    const pageAt = canonical && this.scope.contains(canonical) ? canonical : finalKey;
    if (this.byKey.has(pageAt)) return (this.alias(key, pageAt), this.alias(finalKey, pageAt), []);
    const { title, description, content, images } = html;
    const page: CrawledPage = { key: pageAt, depth, title, description, content, images };
    this.pages.push(page);
    this.byKey.set(pageAt, page);
    this.found.add(pageAt);
    this.alias(key, pageAt);
    this.alias(finalKey, pageAt);
    return html.links;
  }

  /** The site's pages a page links to, not found before: to fetch next (as the link gives them: `/api/` and `/api` may differ). */
  follow(links: string[], depth: number, next: { key: string; url: string }[]): void {
    const { maxDepth, maxPages } = this.crawl.limits;
    for (const link of links) {
      const key = pageKey(link);
      if (!key || !this.scope.contains(key) || this.found.has(key) || this.aliases.has(key)) continue;
      this.found.add(key);
      if (this.robots && !this.robots.allows(link)) this.crawl.skip(key, this.robots.reason);
      else if (depth > maxDepth)
        this.crawl.skip(key, `more than ${maxDepth} links away from the start page (QUIRE_IMPORT_MAX_DEPTH)`);
      else if (this.#scheduled >= maxPages) this.crawl.skip(key, `over ${maxPages} pages (QUIRE_IMPORT_MAX_PAGES)`);
      else this.#scheduled++, next.push({ key, url: link.replace(/#.*$/s, '') });
    }
  }
}
