import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventEnvelope } from '@quire/contracts';
import { DomainError, jsonRpcCode, RETRY_AFTER_SECONDS, toPublicError, type PublicError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { metrics } from '../metrics.ts';
import { ACTOR_HEADER, type ActorSigner } from './actor-header.ts';
import { assertStorableInput } from './input-guard.ts';
import { directResolverOf, type BaseContext, type ServiceContext } from './trpc.ts';
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
  /** Filled by the transport: the events the call committed (a mutation's outbox rows). */
  events?: EventEnvelope[];
}

export interface CallResult {
  data: unknown;
  events: EventEnvelope[];
}

/** Calls a service's procedures by path: the one place both transports (HTTP and in-process) go through. */
export interface ProcedureInvoker {
  /** `query` or `mutation` (undefined for an unknown path). */
  typeOf(path: string): 'query' | 'mutation' | undefined;
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

/**
 * Verifies the signed actor, builds the context and runs the procedure: the contract's input and output
 * schemas, the access rule and (mutations) the transaction all live in the procedure itself.
 * Rejects with a `DomainError` carrying the public status and message.
 */
export function createProcedureInvoker(opts: InvokerOptions): ProcedureInvoker {
  const procedures = opts.router._def.procedures as Record<string, AnyProcedure>;
  let closed = false;
  return {
    close: () => void (closed = true),
    typeOf: (path) => {
      const type = Object.hasOwn(procedures, path) ? procedures[path]!._def.type : undefined;
      return type === 'query' || type === 'mutation' ? type : undefined;
    },
    async readBlob(key, call) {
      if (closed) throw new DomainError('unavailable', `The ${opts.service} service is unavailable`);
      if (!opts.signer.verify(call.actorHeader))
        throw new DomainError('unauthenticated', 'Unsigned or expired internal call');
      return opts.blobs.get(key);
    },
    async readDeferred(ref, call) {
      if (closed) throw new DomainError('unavailable', `The ${opts.service} service is unavailable`);
      if (!opts.signer.verify(call.actorHeader))
        throw new DomainError('unauthenticated', 'Unsigned or expired internal call');
      const found = opts.deferredDownloads ? await opts.deferredDownloads(ref) : null;
      if (!found || 'pending' in found) return found;
      const blob = await opts.blobs.get(found.key);
      return blob ? { blob } : null;
    },
    async invoke(path, input, call, log = opts.log.child({ reqId: call.requestId })) {
      if (closed) throw new DomainError('unavailable', `The ${opts.service} service is unavailable`);
      const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
      if (!procedure) throw new DomainError('not_found', `No procedure ${path}`);
      const actor = opts.signer.verify(call.actorHeader);
      if (!actor) throw new DomainError('unauthenticated', 'Unsigned or expired internal call');
      const ctx = opts.createContext({
        actor,
        requestId: call.requestId ?? '',
        log,
        ...(call.client ? { client: call.client } : {}),
      });
      const started = performance.now();
      let status = 200;
      metrics.rpcInFlight.inc({ service: opts.service });
      try {
        assertStorableInput(input);
        const direct = directResolverOf(procedure);
        const data = direct
          ? await direct(ctx, input)
          : await procedure({
              path,
              getRawInput: async () => input,
              ctx,
              type: procedure._def.type,
              signal: undefined,
              batchIndex: 0,
            });
        log.debug({ path, status: 200 }, 'rpc');
        return { data, events: ctx.committed };
      } catch (err) {
        const pub = fail(log, path, err);
        status = pub.status;
        throw new DomainError(pub.reason, pub.message);
      } finally {
        const labels = { service: opts.service, procedure: path, status };
        metrics.rpcInFlight.dec({ service: opts.service });
        metrics.rpcCalls.inc(labels);
        metrics.rpcDuration.observe(labels, (performance.now() - started) / 1000);
      }
    },
  };
}

/** A 503 (the service's database away, the service closing) says when to retry, as the gateway's do. */
const retryLater = (reply: FastifyReply, status: number): FastifyReply =>
  status === 503 && !reply.hasHeader('retry-after') ? reply.header('retry-after', String(RETRY_AFTER_SECONDS)) : reply;

/**
 * Serves the procedures over tRPC's HTTP protocol (non-batched; queries by GET `?input=` or POST, mutations
 * by POST) without the fetch adapter's per-call Request/Response/AbortSignal objects: fastify parses the
 * body, the invoker runs the procedure, fastify serializes the envelope. Every call must carry a valid
 * signed actor header. The committed events ride along in `result.events`.
 */
export function registerRpcRoutes(app: FastifyInstance, invoker: ProcedureInvoker, prefix = '/trpc'): void {
  const sendError = (reply: FastifyReply, path: string, pub: PublicError) =>
    retryLater(reply, pub.status)
      .code(pub.status)
      .send({
        error: {
          message: pub.message,
          code: jsonRpcCode(pub.reason),
          data: { httpStatus: pub.status, reason: pub.reason, path },
        },
      });

  const handle = async (
    req: FastifyRequest<{ Params: { path: string }; Querystring: { input?: string } }>,
    reply: FastifyReply,
  ) => {
    const path = req.params.path;
    let input: unknown = req.body;
    if (req.method === 'GET') {
      if (invoker.typeOf(path) === 'mutation')
        return sendError(reply, path, {
          status: 405,
          reason: 'method_not_allowed',
          message: 'Use POST for mutations',
          unexpected: false,
        });
      try {
        input = req.query.input === undefined ? undefined : JSON.parse(req.query.input);
      } catch {
        return sendError(
          reply,
          path,
          toPublicError(Object.assign(new Error(), { issues: [{ message: '`input` is not valid JSON' }] })),
        );
      }
    }
    const actorHeader = req.headers[ACTOR_HEADER];
    try {
      const client = clientInfo(req.headers[CLIENT_IP_HEADER], req.headers[CLIENT_UA_HEADER]);
      const call = {
        actorHeader: typeof actorHeader === 'string' ? actorHeader : '',
        requestId: req.id,
        ...(client.ip || client.userAgent ? { client } : {}),
      };
      const { data, events } = await invoker.invoke(path, input, call, req.log as Logger);
      return reply.send({ result: { ...(data === undefined ? {} : { data }), ...(events.length ? { events } : {}) } });
    } catch (err) {
      return sendError(reply, path, toPublicError(err));
    }
  };

  app.get(`${prefix}/:path`, handle);
  app.post(`${prefix}/:path`, handle);
}

/**
 * `GET /blobs/:key`: the bytes of a blob of the service's store, for the gateway serving a signed download
 * link (distributed mode); `GET /blobs/deferred/:ref`: those of a deferred download, or a 503 with
 * `Retry-After` and the `x-quire-download-pending` header while it is being made. Every call must carry a
 * valid signed actor header; failures are in the `{error:{code,message}}` shape, an unknown blob a 404.
 */
export function registerBlobRoutes(app: FastifyInstance, invoker: ProcedureInvoker, prefix = '/blobs'): void {
  const callOf = (req: FastifyRequest): CallContext => {
    const actorHeader = req.headers[ACTOR_HEADER];
    return { actorHeader: typeof actorHeader === 'string' ? actorHeader : '', requestId: req.id };
  };
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
