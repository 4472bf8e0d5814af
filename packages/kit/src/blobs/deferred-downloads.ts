import type { StoredBlob } from './blob-store.ts';

/** Why a deferred download has no bytes yet, and when to ask again. */
export interface DownloadPending {
  /** Seconds after which the link is worth following again (the `Retry-After` the gateway answers). */
  retryAfterSeconds: number;
  /** The sentence the caller sees. */
  message: string;
}

/**
 * What a service answers for a deferred download (a link signed with a `ref`, see `DownloadTarget`): the key
 * of its blob once made, how long to wait while it is being made, or null when the service knows no such
 * download (404). A failure is thrown as a `DomainError`.
 */
export type DeferredDownload = { key: string } | { pending: DownloadPending } | null;

/** A service's resolution of its deferred downloads by reference (it may wait a little for one being made). */
export type DeferredDownloadResolver = (ref: string) => Promise<DeferredDownload>;

/** What following a deferred link yields: the bytes, or the wait; null when there is nothing (404). */
export type DeferredRead = { blob: StoredBlob } | { pending: DownloadPending } | null;

/** The header a service's blob route marks a "not made yet" answer with (503 + `Retry-After`), to tell it from a service that is down. */
export const DOWNLOAD_PENDING_HEADER = 'x-quire-download-pending';
