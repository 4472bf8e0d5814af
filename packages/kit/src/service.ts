import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AnyRouter } from '@trpc/server';
import type { MigrationObject, EntitySchema } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServiceName } from '@quire/contracts';
import { serviceUrlsOf, type BaseEnvShape } from './config.ts';
import { createOrm, migrate, type Orm } from './db/orm.ts';
import { ensureServiceRole } from './db/roles.ts';
import type { DurableConsumerSpec, EventBus, EventHandler, Subscription } from './events/bus.ts';
import { InProcessBus } from './events/in-process-bus.ts';
import { NatsBus } from './events/nats-bus.ts';
import { OutboxRelay } from './events/outbox.ts';
import type { JobDefinition, JobRunner } from './jobs/job.ts';
import { createJobRunner } from './jobs/runner.ts';
import { createLogger, type Logger } from './logger.ts';
import { ActorSigner } from './rpc/actor-header.ts';
import { createProcedureInvoker, registerBlobRoutes, registerRpcRoutes, type ProcedureInvoker } from './rpc/server.ts';
import { ServiceClients } from './rpc/client.ts';
import { publicUrls } from './urls.ts';
import { metrics, type MetricsSource } from './metrics.ts';
import { sql } from './db/sql.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { createBlobStore } from './blobs/create-blob-store.ts';
import { DownloadSigner, downloadLinks, type DownloadLinks } from './blobs/signed-links.ts';
import type { DeferredDownloadResolver } from './blobs/deferred-downloads.ts';
import type { z } from 'zod';

/** The settings every service has (its own env shape extends `BaseEnvShape`). */
export type ServiceConfig = z.output<z.ZodObject<typeof BaseEnvShape>>;

/** The largest request headers a service accepts from its internal callers (the actor header grows with memberships). */
export const INTERNAL_MAX_HEADER_BYTES = 1024 * 1024;
/**
 * The largest call a service accepts from its internal callers. The gateway bounds public bodies
 * (`QUIRE_BODY_LIMIT`); a call carries one, plus what the gateway merged into it (query and path).
 */
export const INTERNAL_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** What a service's pieces are built from. */
export interface ServiceDeps<C extends ServiceConfig = ServiceConfig> {
  config: C;
  orm: Orm;
  bus: EventBus;
  log: Logger;
  /** Typed clients of the other services, calling as this service (for `internal` operations). */
  peers: ServiceClients;
  /** The service's blob store: PostgreSQL (its own schema) by default, S3 when `QUIRE_S3_BUCKET` is set. */
  blobs: BlobStore;
  /** Signed, expiring download links to the service's blobs. */
  downloads: DownloadLinks;
}

/** A live listener: subjects below the bus prefix (NATS wildcards allowed) and what to do with each event. */
export interface LiveListenerSpec {
  subjects: string[];
  handler: EventHandler;
}

/**
 * What a service does with the HTTP upgrades (WebSockets) its server receives; the gateway forwards its public
 * path's to it (or, in one process, hands them to `RunningService.upgrade`). `close` ends its open sockets.
 */
export interface UpgradeHandler {
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export interface ServiceDefinition<C extends ServiceConfig> {
  name: ServiceName;
  /** Postgres schema owned by the service. */
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: MigrationObject[];
  router: AnyRouter;
  consumers?: (deps: ServiceDeps<C>) => DurableConsumerSpec[];
  /**
   * Best-effort live listeners of this process (`EventBus.listen`): every process of the service hears every
   * event, unlike a durable consumer whose events go to one of them. For in-memory caches only.
   */
  listeners?: (deps: ServiceDeps<C>) => LiveListenerSpec[];
  /** Background jobs (scheduled and on demand), started and stopped with the service. */
  jobs?: (deps: ServiceDeps<C>) => JobDefinition<any>[];
  /** How the service resolves the deferred downloads its links name (`ref` links: bytes made after the link is handed out). */
  deferredDownloads?: (deps: ServiceDeps<C>) => DeferredDownloadResolver;
  /** The service's WebSocket endpoint (content's live collaboration), built once its procedures are callable. */
  upgrades?: (deps: ServiceDeps<C>, invoker: ProcedureInvoker) => UpgradeHandler;
}

export interface RunningService {
  name: ServiceName;
  app: FastifyInstance;
  deps: ServiceDeps;
  relay: OutboxRelay;
  /** The service's procedures, for the in-process transport (standalone mode). */
  invoker: ProcedureInvoker;
  /** Hands an HTTP upgrade to the service's WebSocket endpoint, when it has one (the gateway in one process). */
  upgrade: UpgradeHandler['handle'] | undefined;
  /** The runner of the service's jobs, when it has some. */
  jobs: JobRunner | undefined;
  /** Begin relaying the outbox (after every consumer of the process is subscribed). */
  startRelay(): void;
  /** Listen on HOST:port (0 = any free port); resolves to the base URL. */
  listen(port: number): Promise<string>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export async function createBus(
  config: Pick<ServiceConfig, 'NATS_URL' | 'NATS_STREAM' | 'NATS_SUBJECT_PREFIX'>,
  log: Logger,
  name: string,
): Promise<EventBus> {
  if (!config.NATS_URL) return new InProcessBus(log);
  return NatsBus.connect({
    url: config.NATS_URL,
    stream: config.NATS_STREAM,
    prefix: config.NATS_SUBJECT_PREFIX,
    log,
    name,
  });
}

/** The `x-request-id` a caller may choose: 1 to 128 letters, digits, dots, underscores and dashes. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The fastify instance every Quire process starts from: request ids, pino, limits, no per-request info logs. */
export type HttpAppOptions = Pick<
  FastifyServerOptions,
  | 'frameworkErrors'
  | 'clientErrorHandler'
  | 'routerOptions'
  | 'onProtoPoisoning'
  | 'onConstructorPoisoning'
  | 'trustProxy'
> & { http?: ServerOptions };

export function createHttpApp(log: Logger, bodyLimit = 1024 * 1024, options: HttpAppOptions = {}): FastifyInstance {
  return Fastify({
    ...options,
    loggerInstance: log,
    logController: new LogController({ disableRequestLogging: true }),
    // A caller's `x-request-id` is kept only in a safe form (it reaches logs and a response header); else a new one.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }) as unknown as FastifyInstance;
}

/**
 * The HTTP app of a service, for its internal callers: large actor headers and calls (see the limits above),
 * and a call's `__proto__`/`constructor.prototype` keys dropped rather than refused. They reach a call from
 * a public query string (`?__proto__=1`); the procedure's contract schema ignores unknown keys, so the call
 * answers as it does in process.
 */
export function createInternalApp(log: Logger): FastifyInstance {
  return createHttpApp(log, INTERNAL_MAX_BODY_BYTES, {
    http: { maxHeaderSize: INTERNAL_MAX_HEADER_BYTES },
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
  });
}

/**
 * Boots a service: ORM on its schema with migrations applied, bus, durable consumers, outbox relay,
 * the tRPC routes and `/healthz` + `/readyz`. `bus` and `log` may be shared (standalone mode).
 */
export async function startService<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  config: C,
  shared: { bus?: EventBus; log?: Logger } = {},
): Promise<RunningService> {
  const log = (shared.log ?? createLogger(def.name, config.LOG_LEVEL, config.QUIRE_LOG_FORMAT)).child({
    service: def.name,
  });
  const ownBus = !shared.bus;
  const { deps, signer } = await serviceDepsOf(def, config, log, shared.bus);
  const { orm, bus, peers, blobs } = deps;
  const subscriptions = await subscribe(def, deps);
  const relay = new OutboxRelay(orm, bus, log, 1_000, def.name);
  const jobDefs = def.jobs?.(deps) ?? [];
  const jobs = jobDefs.length ? await createJobRunner(config, log, jobDefs, def.name) : undefined;
  await jobs?.start();

  const invoker = procedureInvokerOf(def, deps, signer);
  const app = createInternalApp(log);
  let closed = false;
  const pool = await orm.em.getConnection().getNativeClient();
  const ready = async () => !closed && bus.healthy() && (await databaseAnswers(pool));
  registerServiceRoutes(app, config, invoker, ready);
  const upgrades = attachUpgrades(def, deps, invoker, app);
  const dropMetrics = metrics.addSource(serviceMetrics(def.name, orm, bus, jobs, pool));

  return {
    name: def.name,
    app,
    deps,
    relay,
    invoker,
    upgrade: upgrades && ((req, socket, head) => upgrades.handle(req, socket, head)),
    jobs,
    startRelay: () => relay.start(),
    listen: async (port) => {
      await app.listen({ host: config.HOST, port });
      const addr = app.server.address();
      return `http://${config.HOST}:${typeof addr === 'object' && addr ? addr.port : port}`;
    },
    ready,
    close: async () => {
      if (closed) return;
      closed = true;
      await upgrades?.close();
      invoker.close();
      dropMetrics();
      await app.close();
      for (const s of subscriptions) await s.stop();
      await jobs?.stop();
      await relay.stop();
      await peers.close();
      await blobs.close();
      if (ownBus) await bus.close();
      await orm.close();
    },
  };
}

/** The service's WebSocket endpoint, if it has one, handed the upgrades its HTTP server receives. */
function attachUpgrades<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  deps: ServiceDeps<C>,
  invoker: ProcedureInvoker,
  app: FastifyInstance,
): UpgradeHandler | undefined {
  const upgrades = def.upgrades?.(deps, invoker);
  if (upgrades)
    app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      upgrades.handle(req, socket, head),
    );
  return upgrades;
}

/** What the service's pieces are built from: its ORM (migrations applied), bus, peers, blob store and links. */
async function serviceDepsOf<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  config: C,
  log: Logger,
  sharedBus: EventBus | undefined,
): Promise<{ deps: ServiceDeps<C>; signer: ActorSigner }> {
  // The service's own role (owner of its schema, nothing else) when DATABASE_URL may create it.
  const role = await ensureServiceRole(config.DATABASE_URL, def.schema, config.QUIRE_INTERNAL_SECRET);
  const orm = await createOrm({
    url: role?.url ?? config.DATABASE_URL,
    schema: def.schema,
    entities: def.entities,
    migrations: def.migrations,
  });
  const applied = await migrate(orm);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const bus = sharedBus ?? (await createBus(config, log, def.name));
  const signer = new ActorSigner(config.QUIRE_INTERNAL_SECRET);
  const { [def.name]: _self, ...peerUrls } = serviceUrlsOf(config);
  const peers = new ServiceClients(peerUrls, signer, def.name);
  const blobs = await createBlobStore(config, orm, def.name);
  const downloads = downloadLinks(
    new DownloadSigner(config.QUIRE_INTERNAL_SECRET),
    def.name,
    publicUrls(config.QUIRE_PUBLIC_URL),
  );
  return { deps: { config, orm, bus, log, peers, blobs, downloads }, signer };
}

/** The service's durable consumers and live listeners, subscribed. */
async function subscribe<C extends ServiceConfig>(def: ServiceDefinition<C>, deps: ServiceDeps<C>) {
  const subscriptions: Subscription[] = [];
  for (const spec of def.consumers?.(deps) ?? []) subscriptions.push(await deps.bus.consume(spec));
  for (const l of def.listeners?.(deps) ?? []) subscriptions.push(await deps.bus.listen(l.subjects, l.handler));
  return subscriptions;
}

/** The service's procedures, each call with its own forked EntityManager and the service's deps in its context. */
function procedureInvokerOf<C extends ServiceConfig>(
  def: ServiceDefinition<C>,
  deps: ServiceDeps<C>,
  signer: ActorSigner,
): ProcedureInvoker {
  const { config, orm, log, peers, blobs, downloads } = deps;
  const urls = publicUrls(config.QUIRE_PUBLIC_URL);
  return createProcedureInvoker({
    service: def.name,
    router: def.router,
    signer,
    log,
    blobs,
    deferredDownloads: def.deferredDownloads?.(deps),
    createContext: (base) => ({ ...base, em: orm.em.fork(), config, peers, urls, blobs, downloads, committed: [] }),
  });
}

/** `/healthz`, `/metrics` (unless `QUIRE_METRICS=0`), `/readyz`, and the procedures and blobs for internal callers. */
function registerServiceRoutes(
  app: FastifyInstance,
  config: ServiceConfig,
  invoker: ProcedureInvoker,
  ready: () => Promise<boolean>,
): void {
  // Liveness: the process answers; it never touches a dependency (an outage must not get it restarted).
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Its own scrape in distributed mode; in standalone the gateway's `/metrics` covers the whole process.
  if (config.QUIRE_METRICS)
    app.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.text()));
  app.get('/readyz', async (_req, reply) =>
    (await ready()) ? { status: 'ready' } : reply.code(503).send({ status: 'unavailable' }),
  );
  registerRpcRoutes(app, invoker);
  registerBlobRoutes(app, invoker);
}

/** How long readiness waits for the database (so `/readyz` answers within a second, whatever it is doing). */
const READY_TIMEOUT_MS = 800;

/** Whether the pool runs `select 1` within `READY_TIMEOUT_MS`. */
async function databaseAnswers(pool: { query(text: string): Promise<unknown> }): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
  const answered = pool.query('select 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** What a service reports when scraped: its outbox backlog and lag, consumers' and jobs' pending work, its pool. */
function serviceMetrics(
  service: string,
  orm: Orm,
  bus: EventBus,
  jobs: JobRunner | undefined,
  pool: PoolStats,
): MetricsSource {
  return {
    service,
    outbox: async () => {
      const [row] = await sql<{ n: number; age: number | null }>(
        orm.em.fork(),
        `select count(*)::int as n, extract(epoch from now() - min(occurred_at))::float8 as age from :schema.outbox where published_at is null`,
      );
      return { backlog: row?.n ?? 0, oldestAgeSeconds: row?.age ?? 0 };
    },
    consumers: () => bus.pending(),
    jobs: async () => (jobs ? jobs.pending() : []),
    pool: () => ({ used: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** SIGINT/SIGTERM → close once, then exit. */
export function closeOnSignals(close: () => Promise<void>, log: Logger): void {
  let closing = false;
  const onSignal = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
}

export type { EntityManager };

/** The whole `main.ts` of a service: start it, relay its outbox, listen on PORT, close on signals. */
export async function runServiceMain<C extends ServiceConfig & { PORT: number }>(
  def: ServiceDefinition<C>,
  config: C,
): Promise<RunningService> {
  const log = createLogger(def.name, config.LOG_LEVEL, config.QUIRE_LOG_FORMAT);
  const svc = await startService(def, config, { log });
  svc.startRelay();
  const url = await svc.listen(config.PORT);
  log.info({ url }, `${def.name} listening`);
  closeOnSignals(() => svc.close(), log);
  return svc;
}
