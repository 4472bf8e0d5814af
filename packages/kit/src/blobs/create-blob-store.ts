import type { Orm } from '../db/orm.ts';
import type { BlobStore } from './blob-store.ts';
import { PostgresBlobStore } from './postgres-blob-store.ts';

/** The blob settings of `BaseEnvShape`. */
export interface BlobConfig {
  QUIRE_S3_BUCKET?: string | undefined;
  QUIRE_S3_ENDPOINT?: string | undefined;
  QUIRE_S3_REGION: string;
  QUIRE_S3_ACCESS_KEY_ID?: string | undefined;
  QUIRE_S3_SECRET_ACCESS_KEY?: string | undefined;
  QUIRE_S3_FORCE_PATH_STYLE: boolean;
  QUIRE_S3_PREFIX: string;
}

/**
 * The store of one service: the S3-compatible bucket when `QUIRE_S3_BUCKET` is set, else the service's
 * schema. The AWS SDK is loaded only then (it adds ~100 ms to the start of every process that imports it).
 */
export async function createBlobStore(config: BlobConfig, orm: Orm, service: string): Promise<BlobStore> {
  if (!config.QUIRE_S3_BUCKET) return new PostgresBlobStore(orm);
  if (!config.QUIRE_S3_ACCESS_KEY_ID || !config.QUIRE_S3_SECRET_ACCESS_KEY)
    throw new Error('QUIRE_S3_BUCKET needs QUIRE_S3_ACCESS_KEY_ID and QUIRE_S3_SECRET_ACCESS_KEY');
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  return new S3BlobStore({
    endpoint: config.QUIRE_S3_ENDPOINT,
    region: config.QUIRE_S3_REGION,
    bucket: config.QUIRE_S3_BUCKET,
    accessKeyId: config.QUIRE_S3_ACCESS_KEY_ID,
    secretAccessKey: config.QUIRE_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.QUIRE_S3_FORCE_PATH_STYLE,
    prefix: config.QUIRE_S3_PREFIX,
    service,
  });
}
