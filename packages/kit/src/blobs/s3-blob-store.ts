import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { asBuffer, blobKeyOf, checkBlob, isBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts';

export interface S3BlobStoreOptions {
  /** MinIO, s3rver, …; AWS's regional endpoint when unset. */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  /** Objects are `<prefix><service>/<sha256>`. */
  prefix: string;
  service: string;
}

const missing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** Blobs as objects of an S3-compatible bucket, `<prefix><service>/<sha256>`, the content type as the object's. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(opts: S3BlobStoreOptions) {
    this.#client = new S3Client({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
      // Checksums only where an operation requires one: the SDK's default (a CRC trailer on every upload)
      // is not understood by every S3-compatible server.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.#bucket = opts.bucket;
    this.#prefix = `${opts.prefix}${opts.service}/`;
  }

  /** The object key of a blob. */
  objectKey(key: string): string {
    return `${this.#prefix}${key}`;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<{ key: string; size: number }> {
    checkBlob(bytes, contentType);
    const key = blobKeyOf(bytes);
    // Same bytes, same object: skip the upload when it is there (a concurrent upload writes identical bytes).
    if (!(await this.has(key))) {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.#bucket,
          Key: this.objectKey(key),
          Body: asBuffer(bytes),
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
    }
    return { key, size: bytes.byteLength };
  }

  async get(key: string): Promise<StoredBlob | null> {
    if (!isBlobKey(key)) return null;
    try {
      const res = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.objectKey(key) }));
      if (!res.Body) return null;
      const bytes = Buffer.from(await res.Body.transformToByteArray());
      return { bytes, contentType: res.ContentType ?? 'application/octet-stream', size: bytes.byteLength };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    if (!isBlobKey(key)) return false;
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.objectKey(key) }));
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}
