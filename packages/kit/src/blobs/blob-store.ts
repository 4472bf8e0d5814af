import { createHash } from 'node:crypto';
import { DomainError, invalid } from '../errors.ts';

/** The most bytes one blob may hold, whatever the caller's own limit (each feature states a smaller one). */
export const BLOB_MAX_BYTES = 64 * 1024 * 1024;

/** A stored blob: its bytes and the content type it was first stored with. */
export interface StoredBlob {
  bytes: Buffer;
  contentType: string;
  size: number;
}

/**
 * Bytes stored content-addressed: the key is the hex SHA-256 of the bytes, so storing the same bytes
 * twice keeps one copy (and the content type given first). Each service has its own store (its own
 * schema, or its own prefix in the bucket); hand blobs out through signed download links.
 */
export interface BlobStore {
  readonly kind: 'postgres' | 's3';
  /** Stores `bytes` (at most `BLOB_MAX_BYTES`: 413 above); resolves to its key and size. */
  put(bytes: Uint8Array, contentType: string): Promise<{ key: string; size: number }>;
  /** The blob under `key`, or null when there is none (or the key is not a SHA-256). */
  get(key: string): Promise<StoredBlob | null>;
  has(key: string): Promise<boolean>;
  /** Removes the blob (nothing happens when there is none). */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

const KEY = /^[0-9a-f]{64}$/;

/** Whether `key` can name a blob (64 lowercase hex digits). */
export const isBlobKey = (key: string): boolean => KEY.test(key);

/** The key of `bytes`: their hex SHA-256. */
export const blobKeyOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*$`);

/** Whether `contentType` is a media type (`type/subtype; param=value`) that can go in a header as is. */
export const isMediaType = (contentType: string): boolean => contentType.length <= 255 && MEDIA_TYPE.test(contentType);

/** What every store checks before writing: the hard size cap and a content type fit for a header. */
export function checkBlob(bytes: Uint8Array, contentType: string): void {
  if (bytes.byteLength > BLOB_MAX_BYTES)
    throw new DomainError('payload_too_large', `A blob may hold at most ${BLOB_MAX_BYTES} bytes`);
  if (!isMediaType(contentType)) throw invalid(`Invalid content type: ${JSON.stringify(contentType.slice(0, 100))}`);
}

export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
