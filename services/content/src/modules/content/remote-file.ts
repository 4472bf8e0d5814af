import pMap from 'p-map';
import type { ContentChange } from '@quire/contracts';
import { guardedFetch, invalid } from '@quire/kit';
import type { ContentConfig } from '../../env.ts';

/** The outbound settings every fetch of a user-given URL obeys (`QUIRE_ALLOW_PRIVATE_FETCH`, `QUIRE_OUTBOUND_FETCH`). */
export type OutboundConfig = Pick<ContentConfig, 'QUIRE_ALLOW_PRIVATE_FETCH' | 'QUIRE_OUTBOUND_FETCH'> &
  Partial<Pick<ContentConfig, 'QUIRE_CONTENT_MAX_URL_FILES'>>;

export interface RemoteFile {
  bytes: Buffer;
  /** The media type the server gave (`image/png`), lowercased, without parameters. */
  contentType: string | undefined;
}

/** `text/html; charset=utf-8` → `text/html`. */
export function mediaTypeOf(header: string | string[] | undefined): string | undefined {
  return (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/**
 * The bytes of a file given by URL, through the kit's guarded fetch: http(s) only, public addresses only unless
 * `QUIRE_ALLOW_PRIVATE_FETCH=1`, every redirect checked again, at most `maxBytes` read. An HTTP error status
 * is an error (`HTTP 404`).
 */
export async function fetchRemoteFile(
  config: OutboundConfig,
  url: string,
  limits: { maxBytes: number; timeoutMs?: number },
): Promise<RemoteFile> {
  const res = await guardedFetch(url, {
    allowPrivate: config.QUIRE_ALLOW_PRIVATE_FETCH,
    allowPublic: config.QUIRE_OUTBOUND_FETCH,
    maxBytes: limits.maxBytes,
    ...(limits.timeoutMs !== undefined ? { timeoutMs: limits.timeoutMs } : {}),
  });
  if (res.status >= 400) throw new Error(`HTTP ${res.status}`);
  return { bytes: res.body, contentType: mediaTypeOf(res.headers['content-type']) };
}

/**
 * Fetches every file a batch of changes gives by URL (`insert_files` with `url`; at most `QUIRE_CONTENT_MAX_URL_FILES`
 * distinct URLs, a 400 naming the first one past it), at most 4 at a time, before
 * the batch's transaction opens; the content editor then reads them from the result (a failed fetch fails
 * there, naming its change, as if fetched in place).
 */
export async function prefetchFiles(
  config: OutboundConfig,
  changes: readonly ContentChange[],
  maxBytes: number,
): Promise<(url: string) => Promise<RemoteFile>> {
  const urls = new Set<string>();
  const max = config.QUIRE_CONTENT_MAX_URL_FILES ?? 20;
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [j, file] of change.files.entries()) {
      if (file.url === undefined || urls.has(file.url)) continue;
      if (urls.size >= max)
        throw invalid(
          `Invalid request: changes.${i}.files.${j}.url: a content write fetches at most ${max} files by URL; give the others as base64 or in another write`,
        );
      urls.add(file.url);
    }
  }
  const fetched = new Map<string, RemoteFile | Error>();
  await pMap(
    urls,
    async (url) => {
      fetched.set(
        url,
        await fetchRemoteFile(config, url, { maxBytes }).catch((err: unknown) =>
          err instanceof Error ? err : new Error(String(err)),
        ),
      );
    },
    { concurrency: 4 },
  );
  return async (url) => {
    const file = fetched.get(url) ?? new Error('not fetched ahead');
    if (file instanceof Error) throw file;
    return file;
  };
}
