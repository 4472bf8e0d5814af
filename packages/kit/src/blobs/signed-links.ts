import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { SERVICES, type ServiceName } from '@quire/contracts';
import type { PublicUrls } from '../urls.ts';
import { isBlobKey, isMediaType } from './blob-store.ts';

/** How long a download link works unless the signer says otherwise: one hour. */
export const DOWNLOAD_TTL_MS = 3600_000;
/** Where the gateway serves download links. */
export const DOWNLOADS_PATH = '/v1/downloads/';
/** The longest token the gateway's router takes as a path parameter. */
const MAX_TOKEN_LENGTH = 1024;
/** Filenames longer than this (UTF-8 bytes) are shortened, keeping their extension, so links stay short. */
const MAX_FILENAME_BYTES = 200;

/**
 * What a link points at: a blob (`key`, its hex SHA-256 from `BlobStore.put`), or a download the owning
 * service makes after handing the link out (`ref`, e.g. a PDF being rendered), which the service resolves
 * to a blob when the link is followed (see `DeferredDownloadResolver`).
 */
export type DownloadTarget = { key: string; ref?: never } | { ref: string; key?: never };

/** What a link lets its holder download: a blob of a service, under a filename and a content type. */
export type DownloadLink = DownloadTarget & {
  service: ServiceName;
  /** The name the browser saves it under. */
  filename: string;
  contentType: string;
  /** How long the link works, in milliseconds (default one hour). */
  ttlMs?: number;
};

/** The claims of a valid link. */
export type DownloadClaims = DownloadTarget & {
  service: ServiceName;
  filename: string;
  contentType: string;
  /** Epoch milliseconds after which the link is expired. */
  expiresAt: number;
};

/** A deferred download's reference: what the owning service names it by (`pdf:<id>`). */
const REF = /^[\w.:-]{1,128}$/;
/** Whether `ref` can name a deferred download. */
export const isDownloadRef = (ref: string): boolean => REF.test(ref);

/** The compact claim set inside a token: `k` (a blob) or `r` (a deferred download), never both. */
const ClaimsSchema = z
  .object({
    s: z.enum(SERVICES),
    k: z.string().refine(isBlobKey).optional(),
    r: z.string().refine(isDownloadRef).optional(),
    n: z.string().min(1),
    t: z.string().refine(isMediaType),
    e: z.number().int(),
  })
  .refine((c) => (c.k === undefined) !== (c.r === undefined));

/** `name` in at most `max` UTF-8 bytes, cut before its extension. */
function shorten(name: string, max = MAX_FILENAME_BYTES): string {
  if (Buffer.byteLength(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const chars = [...name.slice(0, name.length - ext.length)];
  while (chars.length && Buffer.byteLength(chars.join('') + ext) > max) chars.pop();
  return chars.join('') + ext;
}

/**
 * Signed, expiring download links: `/v1/downloads/<token>`, token = `base64url(claims).base64url(hmac)`,
 * claims `{s: service, k: key | r: ref, n: filename, t: contentType, e: expiry}`, HMAC-SHA256 with a key derived
 * by HKDF-SHA256 from the deployment's internal secret (info `quire/signed-downloads/v1`), so a link
 * signature can never stand for an actor header or anything else signed with the same secret.
 */
export class DownloadSigner {
  readonly #key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('the internal secret must be at least 32 characters');
    this.#key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'quire/signed-downloads/v1', 32));
  }

  /** The path (`/v1/downloads/<token>`) of a link to `link.key`, working for `ttlMs` from `now`. */
  signDownload(link: DownloadLink, now = Date.now()): string {
    const ttlMs = link.ttlMs ?? DOWNLOAD_TTL_MS;
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error('ttlMs must be a positive number of milliseconds');
    const target = link.ref === undefined ? { k: link.key } : { r: link.ref };
    if (target.k !== undefined && !isBlobKey(target.k)) throw new Error(`not a blob key: ${target.k}`);
    if (target.r !== undefined && !isDownloadRef(target.r)) throw new Error(`not a download reference: ${target.r}`);
    if (!isMediaType(link.contentType)) throw new Error(`not a media type: ${link.contentType}`);
    const filename = shorten(link.filename.trim());
    if (!filename) throw new Error('a download needs a filename');
    const claims = Buffer.from(
      JSON.stringify({ s: link.service, ...target, n: filename, t: link.contentType, e: Math.floor(now + ttlMs) }),
    ).toString('base64url');
    const token = `${claims}.${this.#mac(claims)}`;
    if (token.length > MAX_TOKEN_LENGTH) throw new Error('the download link is too long: shorten its content type');
    return `${DOWNLOADS_PATH}${token}`;
  }

  /** The claims of `token` when its signature holds and it has not expired at `now`. */
  verifyDownload(token: string, now = Date.now()): DownloadClaims | 'expired' | 'invalid' {
    if (token.length > MAX_TOKEN_LENGTH) return 'invalid';
    const dot = token.indexOf('.');
    if (dot <= 0 || token.indexOf('.', dot + 1) !== -1) return 'invalid';
    const claims = token.slice(0, dot);
    // Compared as text, not decoded bytes: base64url decoding ignores stray characters and padding bits,
    // so two spellings could decode alike; only the one canonical signature is accepted.
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.#mac(claims));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
    } catch {
      return 'invalid';
    }
    const result = ClaimsSchema.safeParse(parsed);
    if (!result.success) return 'invalid';
    const c = result.data;
    if (c.e <= now) return 'expired';
    const target = c.r === undefined ? { key: c.k! } : { ref: c.r };
    return { service: c.s, ...target, filename: c.n, contentType: c.t, expiresAt: c.e };
  }

  #mac(data: string): string {
    return createHmac('sha256', this.#key).update(data).digest('base64url');
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Absolute download links to the blobs of one service: what `ctx.downloads` is. */
export interface DownloadLinks {
  /** `<QUIRE_PUBLIC_URL>/v1/downloads/<token>`: works without the API token until it expires (one hour by default). */
  url(link: DistributiveOmit<DownloadLink, 'service'>, now?: number): string;
}

export function downloadLinks(signer: DownloadSigner, service: ServiceName, urls: PublicUrls): DownloadLinks {
  return { url: (link, now) => urls.page(signer.signDownload({ ...link, service }, now)) };
}
