import { imageSize } from 'image-size';
import pMap from 'p-map';
import { DomainError, guardedFetch, invalid, type GuardedResponse } from '@quire/kit';
import { mediaTypeOf, type OutboundConfig } from '../content/remote-file.ts';
import { readHtmlPage } from './html-page.ts';
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
const IMAGE_EXTENSIONS: Record<string, string> = { png: 'png', jpg: 'jpg', jpeg: 'jpg', gif: 'gif', webp: 'webp', svg: 'svg', bmp: 'bmp', ico: 'ico', avif: 'avif', tiff: 'tiff' };
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

const charsetOf = (header: string | string[] | undefined) => /charset="?([^";\s]+)/i.exec((Array.isArray(header) ? header[0] : header) ?? '')?.[1];

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
  const ext = contentType.replace(/^image\//, '').replace(/\+xml$/, '').replace('jpeg', 'jpg');
  return /\.[a-z0-9]{2,5}$/i.test(base) ? base : `${base}.${IMAGE_EXTENSIONS[ext] ?? ext}`;
}

/** The bytes of a `data:` URL (base64 or percent-encoded). */
function dataUrlBytes(url: string): { bytes: Buffer; contentType: string | undefined } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(url);
  if (!match) return null;
  try {
    const bytes = /;base64/i.test(match[2]!) ? Buffer.from(match[3]!, 'base64') : Buffer.from(decodeURIComponent(match[3]!), 'utf8');
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
  const started = Date.now();
  const deadline = started + limits.timeoutMs;
  const left = () => deadline - Date.now();
  let bytes = 0;
  const skipped: { url: string; reason: string }[] = [];
  const skip = (at: string, reason: string) => {
    if (skipped.length < 100) skipped.push({ url: at, reason });
  };

  // The start page: any failure is the caller's to know, as a 400 naming the field.
  const refuse = (why: string) => invalid(`Invalid request: url: ${why}`);
  let first: GuardedResponse;
  try {
    first = await fetch(url, { maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs });
  } catch (err) {
    throw err instanceof DomainError ? refuse(err.message) : refuse(`${url} could not be fetched (${reasonOf(err)})`);
  }
  if (first.status >= 400) throw refuse(`${url} answered HTTP ${first.status}`);
  if (first.status >= 300) throw refuse(`${url} answered HTTP ${first.status} without a location to follow`);
  if (!isHtml(first)) throw refuse(`${url} is not an HTML page (${mediaTypeOf(first.headers['content-type']) ?? 'unknown content type'})`);
  const startKey = pageKey(first.url)!;
  const scope = siteScope(startKey);

  /** Keys of the site's pages found so far (each counted once as a resource). */
  const found = new Set<string>([startKey]);
  const pages: CrawledPage[] = [];
  const byKey = new Map<string, CrawledPage>();
  const aliases = new Map<string, string>();
  const requested = pageKey(url);
  if (requested && requested !== startKey) aliases.set(requested, startKey);
  let scheduled = 1;

  /** `other` is one more URL of the page `target`: one resource, not two. */
  const alias = (other: string, target: string) => {
    if (other === target) return;
    aliases.set(other, target);
    found.delete(other);
  };

  /** Reads a fetched page (in the order of its level); returns the links to follow. */
  const accept = (key: string, res: GuardedResponse, depth: number): string[] => {
    const finalKey = pageKey(res.url)!;
    if (finalKey !== key && !scope.contains(finalKey)) return (skip(key, `redirected out of the site to ${res.url}`), []);
    if (byKey.has(finalKey)) return (alias(key, finalKey), []);
    if (!isHtml(res)) return (skip(key, `not an HTML page (${mediaTypeOf(res.headers['content-type']) ?? 'unknown content type'})`), []);
    const html = readHtmlPage(res.body, res.url, charsetOf(res.headers['content-type']));
    const canonical = html.canonical ? pageKey(html.canonical) : null;
    // A canonical URL of the site names the page (`?ref=nav` variants are one page); an imported one already read it.
    const pageAt = canonical && scope.contains(canonical) ? canonical : finalKey;
    if (byKey.has(pageAt)) return (alias(key, pageAt), alias(finalKey, pageAt), []);
    const page: CrawledPage = { key: pageAt, depth, title: html.title, description: html.description, content: html.content, images: html.images };
    pages.push(page);
    byKey.set(pageAt, page);
    found.add(pageAt);
    alias(key, pageAt);
    alias(finalKey, pageAt);
    return html.links;
  };

  /** The site's pages a page links to, not found before: to fetch next (as the link gives them: `/api/` and `/api` may differ). */
  const follow = (links: string[], depth: number, next: { key: string; url: string }[]) => {
    for (const link of links) {
      const key = pageKey(link);
      if (!key || !scope.contains(key) || found.has(key) || aliases.has(key)) continue;
      found.add(key);
      if (depth > limits.maxDepth) skip(key, `more than ${limits.maxDepth} links away from the start page (QUIRE_IMPORT_MAX_DEPTH)`);
      else if (scheduled >= limits.maxPages) skip(key, `over ${limits.maxPages} pages (QUIRE_IMPORT_MAX_PAGES)`);
      else (scheduled++, next.push({ key, url: link.replace(/#.*$/s, '') }));
    }
  };

  /** Fetches a resource within what is left of the budget; a reason instead when it cannot be had. */
  const fetchWithin = async (at: string, cap: number): Promise<GuardedResponse | string> => {
    if (left() <= 0) return `out of time (QUIRE_IMPORT_TIMEOUT_MS: ${limits.timeoutMs} ms)`;
    const budget = limits.maxBytes - bytes;
    if (budget <= 0) return `out of bytes (QUIRE_IMPORT_MAX_BYTES: ${limits.maxBytes})`;
    try {
      const res = await fetch(at, { maxBytes: Math.min(cap, budget), timeoutMs: left() });
      if (bytes + res.body.length > limits.maxBytes) return `out of bytes (QUIRE_IMPORT_MAX_BYTES: ${limits.maxBytes})`;
      bytes += res.body.length;
      return res.status >= 400 ? `HTTP ${res.status}` : res.status >= 300 ? `HTTP ${res.status} without a location` : res;
    } catch (err) {
      return reasonOf(err);
    }
  };

  bytes += first.body.length;
  let level: { key: string; url: string }[] = [];
  follow(accept(startKey, first, 0), 1, level);
  for (let depth = 1; level.length > 0; depth++) {
    // Fetched concurrently, read in the order found: the pages' order does not depend on who answers first.
    const fetched = await pMap(level, ({ url: at }) => fetchWithin(at, limits.maxBytes), { concurrency: limits.concurrency });
    const next: { key: string; url: string }[] = [];
    for (const [i, { key }] of level.entries()) {
      const res = fetched[i]!;
      if (typeof res === 'string') skip(key, res);
      else follow(accept(key, res, depth), depth + 1, next);
    }
    level = next;
  }

  // The images of the pages read, each once.
  const sources = [...new Set(pages.flatMap((p) => p.images))];
  const images = new Map<string, CrawledImage>();
  await pMap(
    sources,
    async (src, index) => {
      let body: { bytes: Buffer; contentType: string | undefined };
      if (src.startsWith('data:')) {
        const data = dataUrlBytes(src);
        if (!data) return skip(src.slice(0, 100), 'not a readable data: URL');
        body = data;
      } else if (/^https?:/.test(src)) {
        const res = await fetchWithin(src, limits.maxImageBytes);
        if (typeof res === 'string') return skip(src, res);
        body = { bytes: res.body, contentType: mediaTypeOf(res.headers['content-type']) };
      } else return skip(src.slice(0, 100), 'not an http(s) URL');
      if (body.bytes.length > limits.maxImageBytes) return skip(src.slice(0, 100), `larger than ${limits.maxImageBytes} bytes`);
      const sniffed = sniffImage(body.bytes);
      const contentType = body.contentType?.startsWith('image/') ? body.contentType : sniffed;
      if (!contentType || !sniffed) return skip(src.slice(0, 100), `not an image (${body.contentType ?? 'unknown content type'})`);
      images.set(src, { url: src, name: imageName(src, contentType, index), contentType, bytes: body.bytes });
    },
    { concurrency: limits.concurrency },
  );

  return {
    url,
    scope,
    pages,
    aliases,
    images,
    totalResources: found.size + sources.length,
    importedResources: pages.length + images.size,
    skipped,
    bytes,
    ms: Date.now() - started,
  };
}
