import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import type { EntitySchema } from '@mikro-orm/core';
import { kitEntities } from './kit-entities.ts';
import { KitMigration } from './kit-migration.ts';
import { KitBlobsMigration } from './kit-blobs-migration.ts';

export interface OrmOptions {
  /** Postgres connection string (the service's own DATABASE_URL). */
  url: string;
  /** The service's Postgres schema (`content`, `org_admin`, …). */
  schema: string;
  entities: EntitySchema<any, any>[];
  /** The service's committed migrations, in order. The kit's own tables come first. */
  migrations: MigrationObject[];
  poolMax?: number;
  debug?: boolean;
}

export type Orm = MikroORM;
export type { EntityManager };

/** Opens the ORM on the service's schema. Call `migrate()` before serving. */
export async function createOrm(opts: OrmOptions): Promise<Orm> {
  const orm = await MikroORM.init({
    clientUrl: opts.url,
    schema: opts.schema,
    // MikroORM finds the current transaction through AsyncLocalStorage by context name; several ORMs
    // in one process (standalone) must not share it, or one service's handler runs on another's EM.
    contextName: `quire-${opts.schema}`,
    entities: [...kitEntities, ...opts.entities],
    extensions: [Migrator],
    debug: opts.debug ?? false,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    migrations: {
      tableName: 'mikro_orm_migrations',
      schema: opts.schema,
      migrationsList: [{ name: '0000_kit', class: KitMigration }, { name: '0000_kit_blobs', class: KitBlobsMigration }, ...opts.migrations],
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  });
  return orm;
}

/** Creates the schema if needed and applies pending migrations (serialized across processes by an advisory lock). */
export async function migrate(orm: Orm): Promise<string[]> {
  const schema = orm.config.get('schema')!;
  // A session-level lock must be taken and released on the same connection: hold one pooled client.
  const pool = await orm.em.getConnection().getNativeClient();
  const client = await pool.connect();
  const lockKey = hashKey(`quire-migrate-${schema}`);
  try {
    await client.query('select pg_advisory_lock($1)', [lockKey]);
    await client.query(`create schema if not exists "${schema}"`);
    const done = await orm.migrator.up();
    return done.map((m) => m.name);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockKey]).catch(() => {});
    client.release();
  }
}

function hashKey(s: string): number {
  let h = 0;
  for (const c of s) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}
