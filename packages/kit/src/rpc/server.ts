import { initTRPC, type AnyRouter } from '@trpc/server';
import {
  TRPC_ERROR_CODES_BY_KEY,
  type TRPC_ERROR_CODE_KEY,
  type TRPCErrorResponse,
  type TRPCErrorShape,
} from '@trpc/server/rpc';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACTOR_EVICTING_EVENTS, type EventEnvelope } from '@quire/contracts';
import { DomainError, RETRY_AFTER_SECONDS, toPublicError, type PublicError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { callSeries, metrics } from '../metrics.ts';
import { ACTOR_HEADER, type ActorSigner } from './actor-header.ts';
import { callProcedure, isAsyncIterable, type BaseContext, type ServiceContext } from './trpc.ts';
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
  /** The service's router (its procedures are called through its caller, see `invoke` and `registerRpcRoutes`). */
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

/** When a call's context was made (`callMeter`): a property of the context itself, cheaper than a WeakMap entry. */
const STARTED = Symbol('quire.callStarted');
type Metered = ServiceContext & { [STARTED]?: number | undefined };

/** The metrics of a service's calls (`rpcCalls`, `rpcDuration`, `rpcInFlight`): from its context's making to its answer. */
function callMeter(service: string) {
  const inFlight = metrics.rpcInFlight.labels({ service });
  const byProcedure = new Map<string, (status: number, seconds: number) => void>();
  const seriesOf = (path: string) => {
    let record = byProcedure.get(path);
    if (!record) byProcedure.set(path, (record = callSeries(metrics.rpcCalls, metrics.rpcDuration, service, path)));
    return record;
  };
  return {
    start(ctx: ServiceContext) {
      (ctx as Metered)[STARTED] = performance.now();
      inFlight.inc();
    },
    stop(ctx: ServiceContext | undefined, path: string, status: number) {
      const since = (ctx as Metered | undefined)?.[STARTED];
      if (!ctx || since === undefined) return;
      (ctx as Metered)[STARTED] = undefined;
      inFlight.dec();
      seriesOf(path)(status, (performance.now() - since) / 1000);
    },
  };
}

/**
 * The dotted paths of a router's procedures (`spaces.get`), read from the router's own record of them: a tRPC router
 * carries its procedures (functions) and sub-records under their names, beside `_def` and `createCaller`.
 */
function procedurePaths(router: AnyRouter): ReadonlySet<string> {
  const paths = new Set<string>();
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (key === '_def' || key === 'createCaller') continue;
      if (typeof value === 'function') paths.add(`${prefix}${key}`);
      else if (value && typeof value === 'object') walk(value as Record<string, unknown>, `${prefix}${key}.`);
    }
  };
  walk(router as unknown as Record<string, unknown>, '');
  return paths;
}

/**
 * Verifies the signed actor, builds the context and runs the procedure through the router's caller: the
 * storable-text rule, the access rule, the contract's input and output schemas and (mutations) the transaction
 * all live in the procedure itself. Rejects with a `DomainError` carrying the public status and message.
 */
export function createProcedureInvoker(opts: InvokerOptions): ProcedureInvoker {
  const createCaller = createCallerFactory(opts.router as never) as unknown as (ctx: ServiceContext) => unknown;
  const meter = callMeter(opts.service);
  const procedures = procedurePaths(opts.router);
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
      // An unknown procedure is a 404 whoever calls (before the actor is checked), as tRPC's adapters answer it.
      if (!procedures.has(path)) throw new DomainError('not_found', `No procedure ${path}`);
      const ctx = await invoker.contextOf(call, log);
      try {
        const data = await callProcedure(createCaller(ctx), path, ctx, input);
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

/** tRPC's JSON-RPC error key of an HTTP status (the `code` of its error envelope; `data.httpStatus` is what callers read). */
const TRPC_KEY_OF_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  408: 'TIMEOUT',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** What a failed call's `error.data` says (the service's error formatter gives in-process failures the same). */
interface ErrorData {
  code: TRPC_ERROR_CODE_KEY;
  httpStatus: number;
  reason: PublicError['reason'];
}

/** tRPC's error envelope (`TRPCErrorResponse`) of a public error, as the service's error formatter shapes it. */
export function trpcErrorOf(pub: PublicError): TRPCErrorResponse<TRPCErrorShape<ErrorData>> {
  const key = TRPC_KEY_OF_STATUS[pub.status] ?? 'INTERNAL_SERVER_ERROR';
  return {
    error: {
      message: pub.message,
      code: TRPC_ERROR_CODES_BY_KEY[key],
      data: { code: key, httpStatus: pub.status, reason: pub.reason },
    },
  };
}

/**
 * Serves the router over tRPC's HTTP protocol, non-batched, every call a POST to `<prefix>/<procedure path>` with
 * the input as its JSON body: what `@trpc/client`'s `httpLink` sends with `methodOverride: 'POST'` (client.ts). The
 * call runs through the router's caller (`invoker.invoke`: tRPC's public `createCallerFactory`, so the contract's
 * input and output schemas, the access rule and the transaction are the procedure's own), and the answer is tRPC's
 * envelope: `{result:{data}}`, or `{error:{message,code,data:{httpStatus,reason}}}` with the HTTP status of the
 * public error (a 503 with `Retry-After`). A mutation's actor-evicting committed events ride in the
 * `x-quire-events` header. A streamed procedure (`implementStream`) answers its items as they come, one JSON line
 * each (`streamLines`). Every call must carry a valid signed actor header (else 401).
 *
 * Not tRPC's fastify (or node-http, standalone) adapter: in tRPC 11 each of them turns every call into a WHATWG
 * `Request`, resolves it to a `Response` and streams its body back through a `ReadableStream` — measured on the
 * content service of the distributed bench, the adapter's path was the largest part of a call's CPU after the
 * socket writes (docs/benchmarks.md, "Distributed at the cost of one hop"). fastify parses the body here (its
 * `__proto__`/`constructor` removal and body limit included) and serializes the answer.
 */
export function registerRpcRoutes(app: FastifyInstance, invoker: ProcedureInvoker, prefix = '/trpc'): void {
  app.post(`${prefix}/:path`, async (req: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
    try {
      const { data, events } = await invoker.invoke(req.params.path, req.body, callOf(req), req.log as Logger);
      if (events.length) reply.header(EVENTS_HEADER, Buffer.from(JSON.stringify(events)).toString('base64url'));
      if (isAsyncIterable(data))
        return reply.type(STREAM_TYPE).send(Readable.from(streamLines(data, req.log as Logger)));
      return reply.send({ result: data === undefined ? {} : { data } });
    } catch (err) {
      const pub = toPublicError(err);
      return retryLater(reply, pub.status).code(pub.status).send(trpcErrorOf(pub));
    }
  });
}

/** The type of a streamed answer: one JSON line per item, then the end (see `streamLines`). */
export const STREAM_TYPE = 'application/x-ndjson';

/**
 * A streamed procedure's answer over HTTP, written as its items come: `{"data":item}` lines, then `{"end":true}`,
 * or tRPC's error envelope as the last line when the stream fails (a caller that sees neither was cut off).
 */
async function* streamLines(items: AsyncIterable<unknown>, log: Logger): AsyncGenerator<string> {
  try {
    for await (const data of items) yield `${JSON.stringify({ data })}\n`;
    yield '{"end":true}\n';
  } catch (err) {
    const pub = toPublicError(err);
    if (pub.unexpected) log.error({ err }, 'stream failed');
    yield `${JSON.stringify(trpcErrorOf(pub))}\n`;
  }
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
