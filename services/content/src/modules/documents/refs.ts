import type { DocumentRef } from '@quire/contracts';

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

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function refFromUrl(url: string): DocumentRef {
  const match = FILE_URL.exec(url);
  if (match?.[1] !== undefined) {
    const file = decode(match[1]);
    const space = match[2] === undefined ? undefined : decode(match[2]);
    if (file && space !== null && space !== '') return space === undefined ? { kind: 'file', file } : { kind: 'file', file, space };
  }
  return { kind: 'url', url };
}

export function urlFromRef(ref: DocumentRef): string {
  if (ref.kind === 'url') return ref.url;
  const file = `${FILE_URL_SCHEME}${encodeURIComponent(ref.file)}`;
  return ref.space === undefined ? file : `${file}?space=${encodeURIComponent(ref.space)}`;
}
