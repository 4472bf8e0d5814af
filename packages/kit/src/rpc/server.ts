import { initTRPC, type AnyRouter } from '@trpc/server';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACTOR_EVICTING_EVENTS, type EventEnvelope } from '@quire/contracts';
import { DomainError, RETRY_AFTER_SECONDS, toPublicError, type PublicError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { metrics } from '../metrics.ts';
import { ACTOR_HEADER, type ActorSigner } from './actor-header.ts';
import type { BaseContext, ServiceContext } from './trpc.ts';
import { CLIENT_IP_HEADER, CLIENT_UA_HEADER, clientInfo, type ClientInfo } from './audit.ts';
import type { BlobStore, StoredBlob } from '../blobs/blob-store.ts';
import {
  DOWNLOAD_PENDING_HEADER,
  type DeferredDownloadResolver,
  type DeferredRead,
} from '../blobs/deferred-downloads.ts';

/** What a caller passes with every call, whatever the transport. */
export interface CallContext {
  /** The signed actor (see actor-header.ts). */
  actorHeader: string;
  requestId?: string | undefined;
  /** The public client's address and user agent (the gateway forwards them; kept by the audit log). */
  client?: ClientInfo | undefined;
  /** Filled by the transport: the events the call committed that make cached actors stale (see `actorEvictingOf`). */
  events?: EventEnvelope[];
}

export interface CallResult {
  data: unknown;
  events: EventEnvelope[];
}

/** Calls a service's procedures by path: the one place both transports (HTTP and in-process) go through. */
export interface ProcedureInvoker {
  /** The service's router (served over HTTP by tRPC's fastify adapter, see `registerRpcRoutes`). */
  readonly router: AnyRouter;
  /**
   * The context of one call: the signed actor verified (else 401), the service open (else 503). Counts the
   * call in flight until `finish`.
   */
  contextOf(call: CallContext, log: Logger): Promise<ServiceContext>;
  /** Counts a call whose context `contextOf` made as done, with its status; logs an unexpected failure. */
  finish(ctx: ServiceContext | undefined, path: string, error: unknown): PublicError | undefined;
  invoke(path: string, input: unknown, call: CallContext, log?: Logger): Promise<CallResult>;
  /** A blob of the service's store (null when there is none), for a caller with a valid signed actor. */
  readBlob(key: string, call: CallContext): Promise<StoredBlob | null>;
  /** A deferred download of the service (its bytes, or how long to wait; null when unknown), for a caller with a valid signed actor. */
  readDeferred(ref: string, call: CallContext): Promise<DeferredRead>;
  /** From now on every call fails with 503, as a stopped service's would. */
  close(): void;
}

export interface InvokerOptions {
  service: string;
  router: AnyRouter;
  signer: ActorSigner;
  log: Logger;
  /** The service's blob store, read by `readBlob`. */
  blobs: BlobStore;
  /** How the service resolves its deferred downloads (none: every deferred link is a 404). */
  deferredDownloads?: DeferredDownloadResolver | undefined;
  /** The procedure context of one call (a forked EntityManager, the config, …). */
  createContext: (base: BaseContext) => ServiceContext;
}

/** The failure of a call as the caller sees it, logged on the service's side like an HTTP call. */
function fail(log: Logger, path: string, err: unknown): PublicError {
  const pub = toPublicError(err);
  if (pub.unexpected) log.error({ err, path }, 'procedure failed');
  else log.debug({ path, status: pub.status }, 'rpc');
  return pub;
}

/** The committed events a caller is told about: those that make cached actors stale (the gateway evicts them). */
export const actorEvictingOf = (events: readonly EventEnvelope[]): EventEnvelope[] =>
  events.filter((e) => EVICTING.has(e.type));
const EVICTING = new Set(ACTOR_EVICTING_EVENTS.map((e) => e.type));

/** The router's caller, through tRPC's public caller factory (any tRPC instance's factory takes any router). */
const { createCallerFactory } = initTRPC.create();
type Caller = (input: unknown) => Promise<unknown>;

/** The metrics of a service's calls (`rpcCalls`, `rpcDuration`, `rpcInFlight`): from its context's making to its answer. */
function callMeter(service: string) {
  const started = new WeakMap<ServiceContext, number>();
  return {
    start(ctx: ServiceContext) {
      started.set(ctx, performance.now());
      metrics.rpcInFlight.inc({ service });
    },
    stop(ctx: ServiceContext | undefined, path: string, status: number) {
      const since = ctx && started.get(ctx);
      if (!ctx || since === undefined) return;
      started.delete(ctx);
      const labels = { service, procedure: path, status };
      metrics.rpcInFlight.dec({ service });
      metrics.rpcCalls.inc(labels);
      metrics.rpcDuration.observe(labels, (performance.now() - since) / 1000);
    },
  };
}

/**
 * Verifies the signed actor, builds the context and runs the procedure through the router's caller: the
 * storable-text rule, the access rule, the contract's input and output schemas and (mutations) the transaction
 * all live in the procedure itself. Rejects with a `DomainError` carrying the public status and message.
 */
export function createProcedureInvoker(opts: InvokerOptions): ProcedureInvoker {
  const createCaller = createCallerFactory(opts.router as never) as unknown as (ctx: ServiceContext) => unknown;
  const meter = callMeter(opts.service);
  let closed = false;
  const unavailable = () => new DomainError('unavailable', `The ${opts.service} service is unavailable`);
  const verified = async (call: CallContext) => {
    if (closed) throw unavailable();
    const actor = await opts.signer.verify(call.actorHeader);
    if (!actor) throw new DomainError('unauthenticated', 'Unsigned or expired internal call');
    return actor;
  };
  const invoker: ProcedureInvoker = {
    router: opts.router,
    close: () => void (closed = true),
    async contextOf(call, log) {
      const ctx = opts.createContext({
        actor: await verified(call),
        requestId: call.requestId ?? '',
        log,
        ...(call.client ? { client: call.client } : {}),
      });
      meter.start(ctx);
      return ctx;
    },
    finish(ctx, path, error) {
      const pub = error === undefined ? undefined : fail(ctx?.log ?? opts.log, path, error);
      meter.stop(ctx, path, pub?.status ?? 200);
      return pub;
    },
    async readBlob(key, call) {
      await verified(call);
      return opts.blobs.get(key);
    },
    async readDeferred(ref, call) {
      await verified(call);
      const found = opts.deferredDownloads ? await opts.deferredDownloads(ref) : null;
      if (!found || 'pending' in found) return found;
      const blob = await opts.blobs.get(found.key);
      return blob ? { blob } : null;
    },
    async invoke(path, input, call, log = opts.log.child({ reqId: call.requestId })) {
      const ctx = await invoker.contextOf(call, log);
      try {
        const caller = path.split('.').reduce((node, key) => (node as Record<string, unknown>)[key], createCaller(ctx));
        const data = await (caller as Caller)(input);
        invoker.finish(ctx, path, undefined);
        return { data, events: actorEvictingOf(ctx.committed) };
      } catch (err) {
        const pub = invoker.finish(ctx, path, err)!;
        throw new DomainError(pub.reason, pub.message);
      }
    },
  };
  return invoker;
}

/** A 503 (the service's database away, the service closing) says when to retry, as the gateway's do. */
const retryLater = (reply: FastifyReply, status: number): FastifyReply =>
  status === 503 && !reply.hasHeader('retry-after') ? reply.header('retry-after', String(RETRY_AFTER_SECONDS)) : reply;

/** The header carrying a call's actor-evicting committed events over HTTP: base64url of their JSON. */
export const EVENTS_HEADER = 'x-quire-events';

/** What a call carries in its headers (the signed actor, the request id, the public client's address and agent). */
export function callOf(req: FastifyRequest): CallContext {
  const actorHeader = req.headers[ACTOR_HEADER];
  const client = clientInfo(req.headers[CLIENT_IP_HEADER], req.headers[CLIENT_UA_HEADER]);
  return {
    actorHeader: typeof actorHeader === 'string' ? actorHeader : '',
    requestId: req.id,
    ...(client.ip || client.userAgent ? { client } : {}),
  };
}

/**
 * Serves the router over tRPC's HTTP protocol with tRPC's own fastify adapter (`fastifyTRPCPlugin`):
 * non-batched calls, by POST (queries too: `allowMethodOverride`) or a query by GET `?input=`. Every call
 * must carry a valid signed actor header (`createContext`). `responseMeta` gives a failure the HTTP status of
 * its public error (a 503 with `Retry-After`) and a mutation's actor-evicting committed events in the
 * `x-quire-events` header; `onError` logs what was unexpected.
 */
export function registerRpcRoutes(app: FastifyInstance, invoker: ProcedureInvoker, prefix = '/trpc'): void {
  const trpcOptions: FastifyTRPCPluginOptions<AnyRouter>['trpcOptions'] = {
    router: invoker.router,
    allowBatching: false,
    allowMethodOverride: true,
    createContext: ({ req }) => invoker.contextOf(callOf(req), req.log as Logger),
    responseMeta: ({ ctx, paths, errors }) => {
      const pub = invoker.finish(ctx as ServiceContext | undefined, paths?.[0] ?? '', errors[0]);
      if (pub)
        return {
          status: pub.status,
          headers: pub.status === 503 ? { 'retry-after': String(RETRY_AFTER_SECONDS) } : {},
        };
      const events = ctx ? actorEvictingOf((ctx as ServiceContext).committed) : [];
      return events.length
        ? { headers: { [EVENTS_HEADER]: Buffer.from(JSON.stringify(events)).toString('base64url') } }
        : {};
    },
  };
  app.register(fastifyTRPCPlugin, { prefix, trpcOptions });
}

/**
 * `GET /blobs/:key`: the bytes of a blob of the service's store, for the gateway serving a signed download
 * link (distributed mode); `GET /blobs/deferred/:ref`: those of a deferred download, or a 503 with
 * `Retry-After` and the `x-quire-download-pending` header while it is being made. Every call must carry a
 * valid signed actor header; failures are in the `{error:{code,message}}` shape, an unknown blob a 404.
 */
export function registerBlobRoutes(app: FastifyInstance, invoker: ProcedureInvoker, prefix = '/blobs'): void {
  const sendBlob = (reply: FastifyReply, blob: StoredBlob | null) =>
    blob
      ? reply.type(blob.contentType).header('content-length', blob.size).send(blob.bytes)
      : reply.code(404).send({ error: { code: 404, message: 'Blob not found' } });
  const sendFailure = (req: FastifyRequest, reply: FastifyReply, err: unknown) => {
    const pub = toPublicError(err);
    if (pub.unexpected) req.log.error({ err }, 'blob read failed');
    return retryLater(reply, pub.status)
      .code(pub.status)
      .send({ error: { code: pub.status, message: pub.message } });
  };
  app.get(`${prefix}/:key`, async (req: FastifyRequest<{ Params: { key: string } }>, reply: FastifyReply) => {
    try {
      return sendBlob(reply, await invoker.readBlob(req.params.key, callOf(req)));
    } catch (err) {
      return sendFailure(req, reply, err);
    }
  });
  app.get(`${prefix}/deferred/:ref`, async (req: FastifyRequest<{ Params: { ref: string } }>, reply: FastifyReply) => {
    try {
      const read = await invoker.readDeferred(req.params.ref, callOf(req));
      if (read && 'pending' in read) {
        const { retryAfterSeconds, message } = read.pending;
        return reply
          .code(503)
          .header('retry-after', String(retryAfterSeconds))
          .header(DOWNLOAD_PENDING_HEADER, '1')
          .send({ error: { code: 503, message } });
      }
      return sendBlob(reply, read?.blob ?? null);
    } catch (err) {
      return sendFailure(req, reply, err);
    }
  });
}
