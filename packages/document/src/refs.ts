import type { DocumentContentRef, DocumentRef } from '@quire/contracts/document';

/**
 * Files of a space in markdown. A link or image whose URL is
 *
 *     gitbook-file:<fileId>                   a file of the page's own space
 *     gitbook-file:<fileId>?space=<spaceId>   a file of another space
 *
 * is GitBook's `{ kind: 'file', file, space? }` reference; any other URL is `{ kind: 'url', url }`, relative
 * URLs included (the content engine resolves page links). IDs are percent-encoded when they need it.
 * `![Diagram](gitbook-file:abc123)` ⇄ `{ kind: 'file', file: 'abc123' }`.
 */
export const FILE_URL_SCHEME = 'gitbook-file:';

const FILE_URL = /^gitbook-file:([^?#\s]+)(?:\?space=([^&#\s]+))?$/;

/** `part` percent-decoded; `fallback` when it is not valid percent-encoding. */
export function decodeOr<F>(part: string, fallback: F): string | F {
  try {
    return decodeURIComponent(part);
  } catch {
    return fallback;
  }
}

const decode = (part: string) => decodeOr(part, null);

export function refFromUrl(url: string): DocumentRef {
  const match = FILE_URL.exec(url);
  if (match?.[1] !== undefined) {
    const file = decode(match[1]);
    const space = match[2] === undefined ? undefined : decode(match[2]);
    if (file && space !== null && space !== '')
      return space === undefined ? { kind: 'file', file } : { kind: 'file', file, space };
  }
  return { kind: 'url', url };
}

export function urlFromRef(ref: DocumentRef): string {
  if (ref.kind === 'url') return ref.url;
  const file = `${FILE_URL_SCHEME}${encodeURIComponent(ref.file)}`;
  return ref.space === undefined ? file : `${file}?space=${encodeURIComponent(ref.space)}`;
}

/**
 * Every other kind of GitBook content reference, for links, mentions, content-refs and buttons, is written
 * as a URL of its own scheme, its ID percent-encoded, its optional scope as query parameters:
 *
 *     gitbook-page:<page>[?space=<space>]            gitbook-anchor:<anchor>[?page=<page>][&space=<space>]
 *     gitbook-user:<user>   gitbook-space:<space>    gitbook-collection:<collection>   gitbook-openapi:<spec>
 *     gitbook-reusable-content:<id>[?space=<space>]  gitbook-tag:<tag>[?space=<space>]
 */
type AnyRef = DocumentContentRef;
const SCHEMES: { kind: AnyRef['kind']; id: string; scope: string[] }[] = [
  { kind: 'page', id: 'page', scope: ['space'] },
  { kind: 'anchor', id: 'anchor', scope: ['page', 'space'] },
  { kind: 'user', id: 'user', scope: [] },
  { kind: 'space', id: 'space', scope: [] },
  { kind: 'collection', id: 'collection', scope: [] },
  { kind: 'openapi', id: 'spec', scope: [] },
  { kind: 'reusable-content', id: 'reusableContent', scope: ['space'] },
  { kind: 'tag', id: 'tag', scope: ['space'] },
];
const REF_URL = /^gitbook-([a-z-]+):([^?#\s]+)(?:\?([^#\s]*))?$/;

export function contentRefFromUrl(url: string): AnyRef {
  const match = REF_URL.exec(url);
  const scheme = SCHEMES.find((s) => s.kind === match?.[1]);
  const id = match?.[2] === undefined ? null : decode(match[2]);
  if (!match || !scheme || !id) return refFromUrl(url);
  const ref: Record<string, string> = { kind: scheme.kind, [scheme.id]: id };
  for (const pair of (match[3] ?? '').split('&').filter(Boolean)) {
    const [key = '', raw = ''] = pair.split('=');
    const value = decode(raw);
    if (!scheme.scope.includes(key) || !value || key in ref) return { kind: 'url', url };
    ref[key] = value;
  }
  return ref as unknown as AnyRef;
}

export function urlFromContentRef(ref: AnyRef): string {
  if (ref.kind === 'url' || ref.kind === 'file') return urlFromRef(ref);
  const scheme = SCHEMES.find((s) => s.kind === ref.kind);
  if (!scheme) return '';
  const fields = ref as unknown as Record<string, string | undefined>;
  const query = scheme.scope.flatMap((key) => {
    const value = fields[key];
    return value === undefined ? [] : [`${key}=${encodeURIComponent(value)}`];
  });
  return `gitbook-${ref.kind}:${encodeURIComponent(fields[scheme.id] ?? '')}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}
