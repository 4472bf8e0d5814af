import type { Orm } from '../db/orm.ts';
import { asBuffer, blobKeyOf, checkBlob, isBlobKey, type BlobStore, type StoredBlob } from './blob-store.ts';

/**
 * Blobs in the `blob` table of the service's own schema (created by the kit's `0000_kit_blobs`
 * migration): the default, needing nothing beyond the database the service already has.
 *
 * The statements go to the pg pool with bound parameters rather than through the ORM's `sql` helper:
 * the ORM formats parameters into the SQL text, which would turn every blob into a hex literal twice
 * its size; bound, a Buffer travels as binary. Writes happen outside the caller's transaction: a blob
 * is immutable and named by its bytes, so one written for a mutation that then rolls back is harmless.
 */
export class PostgresBlobStore implements BlobStore {
  readonly kind = 'postgres';
  readonly #orm: Orm;
  readonly #table: string;

  constructor(orm: Orm) {
    this.#orm = orm;
    this.#table = `"${orm.config.get('schema')}".blob`;
  }

  async #query<R extends Record<string, unknown>>(text: string, params: unknown[]): Promise<R[]> {
    const pool = await this.#orm.em.getConnection().getNativeClient();
    return (await pool.query<R>(text, params)).rows;
  }

  async put(bytes: Uint8Array, contentType: string): Promise<{ key: string; size: number }> {
    checkBlob(bytes, contentType);
    const key = blobKeyOf(bytes);
    if (!(await this.has(key))) {
      await this.#query(
        `insert into ${this.#table} (key, content_type, size, bytes) values ($1, $2, $3, $4) on conflict (key) do nothing`,
        [key, contentType, bytes.byteLength, asBuffer(bytes)],
      );
    }
    return { key, size: bytes.byteLength };
  }

  async get(key: string): Promise<StoredBlob | null> {
    if (!isBlobKey(key)) return null;
    const rows = await this.#query<{ content_type: string; size: number; bytes: Buffer }>(
      `select content_type, size, bytes from ${this.#table} where key = $1`,
      [key],
    );
    const row = rows[0];
    return row ? { bytes: row.bytes, contentType: row.content_type, size: row.size } : null;
  }

  async has(key: string): Promise<boolean> {
    if (!isBlobKey(key)) return false;
    const rows = await this.#query(`select 1 from ${this.#table} where key = $1`, [key]);
    return rows.length > 0;
  }

  async delete(key: string): Promise<void> {
    if (!isBlobKey(key)) return;
    await this.#query(`delete from ${this.#table} where key = $1`, [key]);
  }

  /** The pool belongs to the service's ORM, closed with it. */
  async close(): Promise<void> {}
}
