import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseEnvShape, loadConfig } from '../config.ts';
import { createOrm, migrate, type Orm } from '../db/orm.ts';
import { SchemaMigration } from '../db/migration.ts';
import { sql } from '../db/sql.ts';
import { DomainError } from '../errors.ts';
import { createTestDatabase, TEST_SECRET, type TestDatabase } from '../testing/index.ts';
import { BLOB_MAX_BYTES, type BlobStore } from './blob-store.ts';
import { createBlobStore } from './create-blob-store.ts';

interface StoreUnderTest {
  store: BlobStore;
  /** How many blobs (rows, objects) the store holds. */
  count(): Promise<number>;
}

const baseEnv = () => ({ DATABASE_URL: db.url, QUIRE_INTERNAL_SECRET: TEST_SECRET });
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let db: TestDatabase;
let orm: Orm;

class ServiceTable extends SchemaMigration {
  override up(): void {
    this.addSql(`create table ${this.t('thing')} (id text primary key)`);
  }
}

beforeAll(async () => {
  db = await createTestDatabase('blobs');
  orm = await createOrm({
    url: db.url,
    schema: 'blobs_test',
    entities: [],
    migrations: [{ name: '0001_thing', class: ServiceTable }],
  });
  await migrate(orm);
});
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

/** The same cases against every implementation. */
function blobStoreSuite(name: string, setup: () => Promise<StoreUnderTest & { teardown(): Promise<void> }>) {
  describe(`${name} blob store`, () => {
    let t: StoreUnderTest & { teardown(): Promise<void> };
    beforeAll(async () => {
      t = await setup();
    });
    afterAll(async () => {
      await t?.teardown();
    });

    it('keys blobs by their SHA-256 and keeps one copy of the same bytes', async () => {
      const before = await t.count();
      const bytes = Buffer.from(`dedupe ${name}`);
      const first = await t.store.put(bytes, 'text/plain');
      expect(first).toEqual({ key: sha256(bytes), size: bytes.length });
      const again = await t.store.put(Buffer.from(`dedupe ${name}`), 'text/plain');
      expect(again).toEqual(first);
      expect(await t.count()).toBe(before + 1);
      const other = await t.store.put(Buffer.from(`other ${name}`), 'text/plain');
      expect(other.key).not.toBe(first.key);
      expect(await t.count()).toBe(before + 2);
    });

    it('gives back the bytes and content type, answers has, and deletes', async () => {
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i)); // every byte value
      const { key } = await t.store.put(new Uint8Array(bytes), 'application/octet-stream');
      expect(await t.store.has(key)).toBe(true);
      const got = await t.store.get(key);
      expect(got).not.toBeNull();
      expect(Buffer.compare(got!.bytes, bytes)).toBe(0);
      expect(got!.contentType).toBe('application/octet-stream');
      expect(got!.size).toBe(256);

      await t.store.delete(key);
      expect(await t.store.has(key)).toBe(false);
      expect(await t.store.get(key)).toBeNull();
      await expect(t.store.delete(key)).resolves.toBeUndefined();
    });

    it('keeps the content type with its parameters, and the first one for the same bytes', async () => {
      const { key } = await t.store.put(Buffer.from(`# Title ${name}`), 'text/markdown; charset=utf-8');
      expect((await t.store.get(key))!.contentType).toBe('text/markdown; charset=utf-8');
      await t.store.put(Buffer.from(`# Title ${name}`), 'text/plain');
      expect((await t.store.get(key))!.contentType).toBe('text/markdown; charset=utf-8');
    });

    it('stores an empty blob', async () => {
      const { key, size } = await t.store.put(Buffer.alloc(0), 'application/json');
      expect(size).toBe(0);
      const got = await t.store.get(key);
      expect(got?.size).toBe(0);
      expect(got?.bytes.length).toBe(0);
    });

    it('answers null for an unknown key and for a string that is not a key', async () => {
      expect(await t.store.get(sha256(Buffer.from('never stored')))).toBeNull();
      expect(await t.store.has(sha256(Buffer.from('never stored')))).toBe(false);
      for (const bad of ['', '../secret', 'ABC', 'a'.repeat(63), `${'a'.repeat(64)}/x`]) {
        expect(await t.store.get(bad)).toBeNull();
        expect(await t.store.has(bad)).toBe(false);
      }
    });

    it('refuses more than the hard cap (413) and a content type unfit for a header (400), storing nothing', async () => {
      const before = await t.count();
      const big = await t.store
        .put(Buffer.alloc(BLOB_MAX_BYTES + 1), 'application/octet-stream')
        .catch((e: unknown) => e);
      expect(big).toBeInstanceOf(DomainError);
      expect((big as DomainError).reason).toBe('payload_too_large');
      for (const type of ['', 'text', 'text/plain\r\nSet-Cookie: a=b', 'text/"plain"', 'x'.repeat(300)]) {
        const bad = await t.store.put(Buffer.from('x'), type).catch((e: unknown) => e);
        expect((bad as DomainError).reason).toBe('invalid_input');
      }
      expect(await t.count()).toBe(before);
    });
  });
}

blobStoreSuite('PostgreSQL', async () => {
  const store = await createBlobStore(loadConfig(BaseEnvShape, baseEnv()), orm, 'content');
  expect(store.kind).toBe('postgres');
  return {
    store,
    count: async () =>
      Number((await sql<{ n: string }>(orm.em.fork(), 'select count(*) as n from :schema.blob'))[0]!.n),
    teardown: () => store.close(),
  };
});

const bucket = 'quire-test';
let s3: { endpoint: string; stop(): Promise<void> };
beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), 'quire-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  s3 = {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
afterAll(async () => s3?.stop());

const s3Env = () => ({
  ...baseEnv(),
  QUIRE_S3_BUCKET: bucket,
  QUIRE_S3_ENDPOINT: s3.endpoint,
  QUIRE_S3_FORCE_PATH_STYLE: '1',
  QUIRE_S3_ACCESS_KEY_ID: 'S3RVER',
  QUIRE_S3_SECRET_ACCESS_KEY: 'S3RVER',
});
const s3Client = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

blobStoreSuite('S3', async () => {
  const store = await createBlobStore(loadConfig(BaseEnvShape, s3Env()), orm, 'content');
  expect(store.kind).toBe('s3');
  const client = s3Client();
  return {
    store,
    count: async () =>
      (await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'quire/content/' }))).KeyCount ?? 0,
    teardown: async () => {
      client.destroy();
      await store.close();
    },
  };
});

describe('S3 blob store layout', () => {
  it('names objects <prefix><service>/<sha256> with the content type on the object', async () => {
    const store = await createBlobStore(
      loadConfig(BaseEnvShape, { ...s3Env(), QUIRE_S3_PREFIX: 'docs/' }),
      orm,
      'sites',
    );
    const client = s3Client();
    try {
      const { key } = await store.put(Buffer.from('{"openapi":"3.1.0"}'), 'application/json');
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `docs/sites/${key}` }));
      expect(head.ContentType).toBe('application/json');
      expect(head.ContentLength).toBe(19);
      // Another service's store does not see it.
      const content = await createBlobStore(
        loadConfig(BaseEnvShape, { ...s3Env(), QUIRE_S3_PREFIX: 'docs/' }),
        orm,
        'content',
      );
      expect(await content.has(key)).toBe(false);
      await content.close();
    } finally {
      client.destroy();
      await store.close();
    }
  });

  it('is refused at configuration time without its keys', () => {
    const { QUIRE_S3_ACCESS_KEY_ID: _a, QUIRE_S3_SECRET_ACCESS_KEY: _s, ...withoutKeys } = s3Env();
    expect(() => loadConfig(BaseEnvShape, withoutKeys)).toThrow(
      /QUIRE_S3_ACCESS_KEY_ID: required when QUIRE_S3_BUCKET is set[\s\S]*QUIRE_S3_SECRET_ACCESS_KEY/,
    );
    // Set but empty is unset: no bucket, PostgreSQL.
    expect(loadConfig(BaseEnvShape, { ...baseEnv(), QUIRE_S3_BUCKET: '' }).QUIRE_S3_BUCKET).toBeUndefined();
  });
});

describe('kit blobs migration', () => {
  it('reaches a database whose service migrations ran before it existed', async () => {
    const em = orm.em.fork();
    await em.getConnection().execute('drop table "blobs_test".blob');
    await em.getConnection().execute(`delete from "blobs_test".mikro_orm_migrations where name = '0000_kit_blobs'`);
    expect(await migrate(orm)).toEqual(['0000_kit_blobs']);
    const store = await createBlobStore(loadConfig(BaseEnvShape, baseEnv()), orm, 'content');
    const { key } = await store.put(Buffer.from('after upgrade'), 'text/plain');
    expect((await store.get(key))?.bytes.toString()).toBe('after upgrade');
  });
});
