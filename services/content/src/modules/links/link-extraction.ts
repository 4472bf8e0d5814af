import { LRUCache } from 'lru-cache';
import { decodeOr, headingsOf, markdownToDocument, refFromUrl } from '@quire/document/model';

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
  | { kind: 'page'; page: string; anchor?: string; space?: string }
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

/** `part` percent-decoded, or as it is when it is not valid percent-encoding. */
const decode = (part: string) => decodeOr(part, part);

/** The target of a link or image URL as the stored markdown writes it. */
export function targetOfUrl(url: string): LinkTarget {
  const page = PAGE_URL.exec(url);
  if (page)
    return page[2]
      ? { kind: 'page', page: decode(page[1]!), anchor: decode(page[2]) }
      : { kind: 'page', page: decode(page[1]!) };
  const file = FILE_PATH.exec(url);
  if (file) return { kind: 'file', file: decode(file[1]!) };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: decode(url.slice(1)) };
  const ref = refFromUrl(url);
  return ref.kind === 'file'
    ? { kind: 'file', file: ref.file, ...(ref.space !== undefined ? { space: ref.space } : {}) }
    : { kind: 'url', url };
}

/** A stable key of a target within one page (two links to the same place are one target). */
export function targetKey(t: LinkTarget): string {
  switch (t.kind) {
    case 'page':
      return `page:${t.space !== undefined ? `${t.space}/` : ''}${t.page}${t.anchor !== undefined ? `#${t.anchor}` : ''}`;
    case 'anchor':
      return `#${t.anchor}`;
    case 'file':
      return `file:${t.space ?? ''}:${t.file}`;
    case 'url':
      return `url:${t.url}`;
  }
}

export type LinkRef =
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string };

const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/** Whether a value of the document is a content reference a link can go to (GitBook's `ContentRef` of those kinds). */
export function isLinkRef(v: unknown): v is LinkRef {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  switch (r.kind) {
    case 'url':
      return isString(r.url);
    case 'file':
      return isString(r.file) && optionalString(r.space);
    case 'page':
      return isString(r.page) && optionalString(r.space);
    case 'anchor':
      return isString(r.anchor) && optionalString(r.page) && optionalString(r.space);
    default:
      return false;
  }
}

/**
 * The target of a reference as the document holds it: a URL is read as the stored markdown writes it, a page
 * or heading keeps the space it names (another space's are left out when resolved, see links.loader.ts).
 */
export function targetOfRef(ref: LinkRef): LinkTarget {
  const space = ref.kind !== 'url' && ref.space !== undefined ? { space: ref.space } : {};
  switch (ref.kind) {
    case 'url':
      return targetOfUrl(ref.url);
    case 'file':
      return { kind: 'file', file: ref.file, ...space };
    case 'page':
      return { kind: 'page', page: ref.page, ...space };
    case 'anchor':
      // Without a page, the heading is one of the page the reference is in.
      return ref.page !== undefined
        ? { kind: 'page', page: ref.page, anchor: ref.anchor, ...space }
        : { kind: 'anchor', anchor: ref.anchor };
  }
}

/** The file IDs of a table's `files` columns (GitBook keeps them as plain strings in the records). */
function tableFiles(node: Record<string, unknown>): LinkRef[] {
  const data = node.data as
    | {
        definition?: Record<string, { type?: unknown }>;
        records?: Record<string, { values?: Record<string, unknown> }>;
      }
    | undefined;
  const files = Object.entries(data?.definition ?? {})
    .filter(([, d]) => d?.type === 'files')
    .map(([id]) => id);
  if (!files.length) return [];
  return Object.values(data?.records ?? {}).flatMap((record) =>
    files.flatMap((column) => {
      const value = record?.values?.[column];
      return Array.isArray(value) ? value.filter(isString).map((file): LinkRef => ({ kind: 'file', file })) : [];
    }),
  );
}

/**
 * Every reference of a JSON document a link can go to, in reading order: links, mentions of pages and headings,
 * content-refs, buttons, images and files (blocks, inline, table cells of content-ref, image and files columns,
 * drawings), and the URL of embeds. Mentions of users, spaces, reusable content and OpenAPI specs are not links.
 */
export function refsOfDocument(node: unknown, out: LinkRef[] = []): LinkRef[] {
  if (Array.isArray(node)) {
    for (const child of node) refsOfDocument(child, out);
    return out;
  }
  if (node === null || typeof node !== 'object') return out;
  if (isLinkRef(node)) {
    out.push(node);
    return out;
  }
  const o = node as Record<string, unknown>;
  if (o.object === 'block' && o.type === 'embed' && isString((o.data as { url?: unknown } | undefined)?.url))
    out.push({ kind: 'url', url: (o.data as { url: string }).url });
  for (const value of Object.values(o)) if (value !== null && typeof value === 'object') refsOfDocument(value, out);
  if (o.object === 'block' && o.type === 'table') out.push(...tableFiles(o));
  return out;
}

/** The distinct link targets of a JSON document, in reading order. */
export function targetsOfDocument(document: unknown): LinkTarget[] {
  const seen = new Set<string>();
  const targets: LinkTarget[] = [];
  for (const ref of refsOfDocument(document)) {
    const target = targetOfRef(ref);
    const key = targetKey(target);
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(target);
  }
  return targets;
}

/** The links and heading anchors of a markdown document (no cache: see `extractCached`). */
export function extractLinks(markdown: string): ExtractedDocument {
  const document = markdownToDocument(markdown);
  return {
    targets: targetsOfDocument(document.nodes),
    anchors: new Set(
      headingsOf(document)
        .map((h) => h.id)
        .filter(Boolean),
    ),
  };
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
