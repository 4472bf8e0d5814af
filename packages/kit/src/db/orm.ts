import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import type { EntitySchema } from '@mikro-orm/core';
import { kitEntities } from './kit-entities.ts';
import { KitMigration } from './kit-migration.ts';
import { KitBlobsMigration } from './kit-blobs-migration.ts';
import { guardPool } from './pool-guard.ts';

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
  /** Bounds on every connection of the pool (defaults: `DB_TIMEOUTS`). */
  timeouts?: Partial<DbTimeouts>;
}

/**
 * How long anything may wait on PostgreSQL. No request waits forever on a database that is away: getting a
 * connection (from the pool, or a new one) fails after `acquireMs`, a statement is cancelled by the server
 * after `statementMs`, a transaction left idle is ended after `idleInTransactionMs`, and a connection
 * whose server went silent is found dead by TCP keep-alive. Such failures answer 503 (see errors.ts).
 */
export interface DbTimeouts {
  acquireMs: number;
  statementMs: number;
  idleInTransactionMs: number;
}

export const DB_TIMEOUTS: DbTimeouts = { acquireMs: 5_000, statementMs: 30_000, idleInTransactionMs: 60_000 };

export type Orm = MikroORM;
export type { EntityManager };

/** Opens the ORM on the service's schema. Call `migrate()` before serving. */
export async function createOrm(opts: OrmOptions): Promise<Orm> {
  const timeouts = { ...DB_TIMEOUTS, ...opts.timeouts };
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
    // node-postgres' pool options: its acquire timeout also bounds opening a connection.
    driverOptions: {
      connectionTimeoutMillis: timeouts.acquireMs,
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      onPoolCreated: guardPool,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    migrations: {
      tableName: 'mikro_orm_migrations',
      schema: opts.schema,
      migrationsList: [
        { name: '0000_kit', class: KitMigration },
        { name: '0000_kit_blobs', class: KitBlobsMigration },
        ...opts.migrations,
      ],
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
    // A service's own role may not create schemas: its schema exists already (see roles.ts), owned by it.
    const exists = (await client.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount;
    if (!exists) await client.query(`create schema "${schema}"`);
    // One transaction for every pending migration (all or nothing), without the statement timeout:
    // a migration rewriting a large table may take longer than any request should.
    const connection = orm.em.getConnection();
    const done = await connection.transactional(async (trx) => {
      await connection.execute('set local statement_timeout = 0', [], 'run', trx);
      return orm.migrator.up({ transaction: trx });
    });
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
