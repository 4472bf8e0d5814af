import { afterAll, beforeAll } from 'vitest';
import type { z } from 'zod';
import { EventEnvelopeSchema, type Actor, type AnyOperation, type EventEnvelope } from '@quire/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MigrationObject } from '@mikro-orm/core';
import { ActorSigner } from '../rpc/actor-header.ts';
import { HttpTransport, ServiceClient } from '../rpc/client.ts';
import type { StreamItem } from '../rpc/trpc.ts';
import { sql } from '../db/sql.ts';
import { createOrm, migrate, type Orm } from '../db/orm.ts';
import { startService, type RunningService, type ServiceConfig, type ServiceDefinition } from '../service.ts';
import type { EventBus } from '../events/bus.ts';
import { createTestDatabase, TEST_SECRET, TEST_SECRETS_KEY, testLogger, type TestDatabase } from './index.ts';

/** Anything that can call operations as an actor (a test service, a platform). */
export interface Caller {
  call<Op extends AnyOperation>(op: Op, input: z.input<Op['input']>, actor: Actor): Promise<z.output<Op['output']>>;
}

export interface TestService extends Caller {
  /** A streamed operation's items as they come (`implementStream`), over HTTP. */
  stream<Op extends AnyOperation>(
    op: Op,
    input: z.input<Op['input']>,
    actor: Actor,
  ): Promise<AsyncIterable<StreamItem<Op>>>;
  svc: RunningService;
  url: string;
  /** A fresh EntityManager of the service. */
  em(): EntityManager;
  /** The events the service wrote to its outbox, oldest first (of one type when given). */
  outboxEvents(type?: string): Promise<EventEnvelope[]>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  bus?: EventBus;
}

/** Boots a service on a test database (migrations applied) and a loopback port; calls go over HTTP, as in distributed mode. */
export async function startTestService<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  loadConfig: (env: Record<string, string | undefined>) => C,
  db: TestDatabase,
  opts: TestServiceOptions = {},
): Promise<TestService> {
  const config = loadConfig({
    DATABASE_URL: db.url,
    QUIRE_INTERNAL_SECRET: TEST_SECRET,
    QUIRE_SECRETS_KEY: TEST_SECRETS_KEY,
    QUIRE_PUBLIC_URL: 'http://quire.test',
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const svc = await startService(def, config, { log: testLogger(), ...(opts.bus ? { bus: opts.bus } : {}) });
  svc.startRelay();
  const url = await svc.listen(0);
  const client = new ServiceClient(def.name, new HttpTransport(def.name, url));
  const signer = new ActorSigner(TEST_SECRET);
  const em = () => svc.deps.orm.em.fork();
  return {
    svc,
    url,
    em,
    call: async (op, input, actor) => client.call(op, input, { actorHeader: (await signer.sign(actor)).header }),
    stream: async (op, input, actor) => client.stream(op, input, { actorHeader: (await signer.sign(actor)).header }),
    outboxEvents: async (type) => {
      const rows = await sql<{ payload: unknown }>(
        em(),
        `select payload from :schema.outbox ${type ? 'where type = ?' : ''} order by seq`,
        type ? [type] : [],
      );
      return rows.map((r) => EventEnvelopeSchema.parse(r.payload));
    },
    close: async () => {
      await client.close();
      await svc.close();
    },
  };
}

/**
 * A service for one test file: a fresh database and the service booted in `beforeAll`, both gone in
 * `afterAll`. The returned handle is usable inside tests (its members are filled once booted).
 */
export function useTestService<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  loadConfig: (env: Record<string, string | undefined>) => C,
  opts: TestServiceOptions & { label?: string } = {},
): TestService & { db: TestDatabase } {
  const handle = {} as TestService & { db: TestDatabase };
  beforeAll(async () => {
    handle.db = await createTestDatabase(opts.label ?? def.name);
    Object.assign(handle, await startTestService(def, loadConfig, handle.db, opts));
  });
  afterAll(async () => {
    await handle.close?.();
    await handle.db?.drop();
  });
  return handle;
}

/**
 * An ORM on a fresh database for one test file, with the kit's tables (outbox, processed events, blobs…)
 * migrated into `schema`: ready in `beforeAll`, closed and dropped in `afterAll`.
 */
export function useTestOrm(label: string, schema: string): { orm: Orm } {
  const handle = {} as { orm: Orm; db: TestDatabase };
  beforeAll(async () => {
    handle.db = await createTestDatabase(label);
    handle.orm = await createOrm({ url: handle.db.url, schema, entities: [], migrations: [] });
    await migrate(handle.orm);
  });
  afterAll(async () => {
    await handle.orm?.close();
    await handle.db?.drop();
  });
  return handle;
}

/**
 * A test of one migration of a service (`name`, in `schema`) on a fresh database for the file. `before()` opens an ORM
 * of the migrations before it, already applied (write the old shape there); `after()` opens one of the migrations
 * through it, not applied yet (`migrate` it and read what became of the rows). Every ORM opened is closed and the
 * database dropped in `afterAll`.
 */
export function useMigrationTest(
  label: string,
  schema: string,
  migrations: MigrationObject[],
  name: string,
): { before(): Promise<Orm>; after(): Promise<Orm> } {
  const at = migrations.findIndex((m) => m.name === name);
  if (at < 0) throw new Error(`no migration ${name}`);
  let db: TestDatabase | undefined;
  const orms: Orm[] = [];
  const open = async (list: MigrationObject[]) => {
    db ??= await createTestDatabase(label);
    const orm = await createOrm({ url: db.url, schema, entities: [], migrations: list });
    orms.push(orm);
    return orm;
  };
  afterAll(async () => {
    for (const orm of orms) await orm.close();
    await db?.drop();
  });
  return {
    before: async () => {
      const orm = await open(migrations.slice(0, at));
      await migrate(orm);
      return orm;
    },
    after: () => open(migrations.slice(0, at + 1)),
  };
}
