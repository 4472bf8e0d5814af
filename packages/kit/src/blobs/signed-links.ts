import { z } from 'zod';
import { SERVICES, type ServiceName } from '@quire/contracts';
import { TokenSigner } from '../crypto/tokens.ts';
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

/** The compact claim set inside a token: `k` (a blob) or `r` (a deferred download), never both; `exp` is jose's. */
const ClaimsSchema = z
  .object({
    s: z.enum(SERVICES),
    k: z.string().refine(isBlobKey).optional(),
    r: z.string().refine(isDownloadRef).optional(),
    n: z.string().min(1),
    t: z.string().refine(isMediaType),
    exp: z.number().int(),
  })
  .refine((c) => (c.k === undefined) !== (c.r === undefined));
type LinkClaims = Omit<z.infer<typeof ClaimsSchema>, 'exp'>;

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
 * Signed, expiring download links: `/v1/downloads/<token>`, the token one of the kit's `TokenSigner` (a JWT of
 * purpose `download`), claims `{s: service, k: key | r: ref, n: filename, t: contentType}` and its expiry, so a
 * link can never stand for an actor header or anything else signed with the same secret.
 */
export class DownloadSigner {
  readonly #tokens: TokenSigner<LinkClaims>;

  constructor(secret: string) {
    this.#tokens = new TokenSigner(secret, 'download');
  }

  /**
   * The path (`/v1/downloads/<token>`) of a link to `link.key`, working for `ttlMs` from `now` (expiries are
   * whole seconds: rounded down).
   */
  async signDownload(link: DownloadLink, now = Date.now()): Promise<string> {
    const ttlMs = link.ttlMs ?? DOWNLOAD_TTL_MS;
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error('ttlMs must be a positive number of milliseconds');
    const target = link.ref === undefined ? { k: link.key } : { r: link.ref };
    if (target.k !== undefined && !isBlobKey(target.k)) throw new Error(`not a blob key: ${target.k}`);
    if (target.r !== undefined && !isDownloadRef(target.r)) throw new Error(`not a download reference: ${target.r}`);
    if (!isMediaType(link.contentType)) throw new Error(`not a media type: ${link.contentType}`);
    const filename = shorten(link.filename.trim());
    if (!filename) throw new Error('a download needs a filename');
    const claims = { s: link.service, ...target, n: filename, t: link.contentType };
    const token = await this.#tokens.sign(claims, now + ttlMs);
    if (token.length > MAX_TOKEN_LENGTH) throw new Error('the download link is too long: shorten its content type');
    return `${DOWNLOADS_PATH}${token}`;
  }

  /** The claims of `token` when its signature holds and it has not expired at `now`. */
  async verifyDownload(token: string, now = Date.now()): Promise<DownloadClaims | 'expired' | 'invalid'> {
    if (token.length > MAX_TOKEN_LENGTH) return 'invalid';
    const verified = await this.#tokens.verify(token, now);
    if (typeof verified === 'string') return verified;
    const result = ClaimsSchema.safeParse(verified);
    if (!result.success) return 'invalid';
    const c = result.data;
    const target = c.r === undefined ? { key: c.k! } : { ref: c.r };
    return { service: c.s, ...target, filename: c.n, contentType: c.t, expiresAt: c.exp * 1000 };
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Absolute download links to the blobs of one service: what `ctx.downloads` is. */
export interface DownloadLinks {
  /** `<QUIRE_PUBLIC_URL>/v1/downloads/<token>`: works without the API token until it expires (one hour by default). */
  url(link: DistributiveOmit<DownloadLink, 'service'>, now?: number): Promise<string>;
}

export function downloadLinks(signer: DownloadSigner, service: ServiceName, urls: PublicUrls): DownloadLinks {
  return { url: async (link, now) => urls.page(await signer.signDownload({ ...link, service }, now)) };
}
