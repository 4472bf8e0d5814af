import { LRUCache } from 'lru-cache';
import { markdownToDocument, refFromUrl } from '../documents/index.ts';
import { headingsOf } from '../documents/document-outline.ts';

/**
 * The links of a page document, as written: read once per document (documents are content-addressed, so the
 * result is cached by hash) and resolved against a revision each time (`classifyTarget`).
 *
 * | In the markdown                          | Target                                       |
 * |------------------------------------------|----------------------------------------------|
 * | `/pages/<pageId>`, `/pages/<pageId>#a`   | `{ kind: 'page', page, anchor? }`            |
 * | `#a`                                     | `{ kind: 'anchor', anchor }` (the same page) |
 * | `gitbook-file:<fileId>`, `/files/<id>`   | `{ kind: 'file', file, space? }`             |
 * | anything else                            | `{ kind: 'url', url }`                       |
 */
export type LinkTarget =
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'url'; url: string };

export interface ExtractedDocument {
  /** Distinct targets, in reading order (links and images alike). */
  targets: readonly LinkTarget[];
  /** The anchors of the document's headings (GitHub-style ids). */
  anchors: ReadonlySet<string>;
}

const PAGE_URL = /^\/pages\/([^/?#\s]+)\/?(?:#(.*))?$/;
const FILE_PATH = /^\/files\/([^/?#\s]+)\/?$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The target of a link or image URL as the stored markdown writes it. */
export function targetOfUrl(url: string): LinkTarget {
  const page = PAGE_URL.exec(url);
  if (page) return page[2] ? { kind: 'page', page: decode(page[1]!), anchor: decode(page[2]) } : { kind: 'page', page: decode(page[1]!) };
  const file = FILE_PATH.exec(url);
  if (file) return { kind: 'file', file: decode(file[1]!) };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: decode(url.slice(1)) };
  const ref = refFromUrl(url);
  return ref.kind === 'file' ? { kind: 'file', file: ref.file, ...(ref.space !== undefined ? { space: ref.space } : {}) } : { kind: 'url', url };
}

/** A stable key of a target within one page (two links to the same place are one target). */
export function targetKey(t: LinkTarget): string {
  switch (t.kind) {
    case 'page':
      return `page:${t.page}${t.anchor !== undefined ? `#${t.anchor}` : ''}`;
    case 'anchor':
      return `#${t.anchor}`;
    case 'file':
      return `file:${t.space ?? ''}:${t.file}`;
    case 'url':
      return `url:${t.url}`;
  }
}

/** Every `data.ref` of the JSON document (links, inline images, image blocks), in reading order. */
function collectRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) collectRefs(child, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as { data?: { ref?: { kind?: string; url?: unknown; file?: unknown; space?: unknown } }; nodes?: unknown; fragments?: unknown };
  const ref = o.data?.ref;
  if (ref?.kind === 'url' && typeof ref.url === 'string') out.push(ref.url);
  else if (ref?.kind === 'file' && typeof ref.file === 'string') out.push(`gitbook-file:${encodeURIComponent(ref.file)}${typeof ref.space === 'string' ? `?space=${encodeURIComponent(ref.space)}` : ''}`);
  for (const value of Object.values(o)) if (value !== null && typeof value === 'object' && value !== o.data) collectRefs(value, out);
}

/** The links and heading anchors of a markdown document (no cache: see `extractCached`). */
export function extractLinks(markdown: string): ExtractedDocument {
  const document = markdownToDocument(markdown);
  const urls: string[] = [];
  collectRefs(document.nodes, urls);
  const seen = new Set<string>();
  const targets: LinkTarget[] = [];
  for (const url of urls) {
    const target = targetOfUrl(url);
    const key = targetKey(target);
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(target);
  }
  return { targets, anchors: new Set(headingsOf(document).map((h) => h.id).filter(Boolean)) };
}

/** Extractions are kept by document hash (documents never change): an LRU bounded in entries. */
const cache = new LRUCache<string, ExtractedDocument>({ max: 20_000 });

export function extractCached(hash: string, markdown: string): ExtractedDocument {
  const known = cache.get(hash);
  if (known) return known;
  const extracted = extractLinks(markdown);
  cache.set(hash, extracted);
  return extracted;
}

export type Status = 'ok' | 'broken' | 'in-app';

/** What a classification looks at: the revision's pages and files, heading anchors of its pages, the platform's base URL. */
export interface Resolution {
  spaceId: string;
  hasPage(pageId: string): boolean;
  hasFile(fileId: string): boolean;
  /** The anchors of a page of the revision (undefined when unknown: not a document). */
  anchorsOf(pageId: string): ReadonlySet<string> | undefined;
  /** The platform's public base URL (`ctx.urls.base`). */
  base: string;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Whether an absolute URL points into the platform: same origin as the base URL, below its path. */
export function isInApp(url: string, base: string): boolean {
  let target: URL;
  let root: URL;
  try {
    target = new URL(url.startsWith('//') ? `https:${url}` : url);
    root = new URL(base);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.host.toLowerCase() !== root.host.toLowerCase()) return false;
  const prefix = root.pathname.replace(/\/+$/, '');
  return prefix === '' || target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
}

/**
 * The status of a target of page `sourcePage` in a revision: a page, file or heading that exists is `ok`, one
 * that does not is `broken`; an absolute URL into the platform is `in-app`, any other absolute URL `ok` (never
 * fetched); a root-relative URL (`/o/…`) points into the platform too: `in-app`; any other relative URL
 * (`./setup.md`) is one the content engine could not resolve to a page or file, it points nowhere: `broken`.
 * Files of another space are not looked up: `ok`.
 */
export function classifyTarget(target: LinkTarget, sourcePage: string, r: Resolution): Status {
  switch (target.kind) {
    case 'page': {
      if (!r.hasPage(target.page)) return 'broken';
      if (target.anchor === undefined) return 'ok';
      return r.anchorsOf(target.page)?.has(target.anchor) ? 'ok' : 'broken';
    }
    case 'anchor':
      return r.anchorsOf(sourcePage)?.has(target.anchor) ? 'ok' : 'broken';
    case 'file':
      if (target.space !== undefined && target.space !== r.spaceId) return 'ok';
      return r.hasFile(target.file) ? 'ok' : 'broken';
    case 'url': {
      const url = target.url.trim();
      if (url.startsWith('//') || SCHEME.test(url)) return isInApp(url, r.base) ? 'in-app' : 'ok';
      return url.startsWith('/') ? 'in-app' : 'broken';
    }
  }
}
