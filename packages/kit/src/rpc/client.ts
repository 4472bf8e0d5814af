import { Pool } from 'undici';
import {
  createTRPCUntypedClient,
  TRPCClientError,
  type Operation,
  type TRPCLink,
  type TRPCUntypedClient,
} from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AnyRouter } from '@trpc/server';
import {
  errorCodeForStatus,
  EventEnvelopeSchema,
  type Actor,
  type AnyOperation,
  type ServiceName,
} from '@quire/contracts';
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { ACTOR_HEADER, type ActorSigner, type SignedActor } from './actor-header.ts';
import { CLIENT_IP_HEADER, CLIENT_UA_HEADER } from './audit.ts';
import { EVENTS_HEADER, STREAM_TYPE, type CallContext, type ProcedureInvoker } from './server.ts';
import { isAsyncIterable, type StreamItem } from './trpc.ts';
import type { StoredBlob } from '../blobs/blob-store.ts';
import { DOWNLOAD_PENDING_HEADER, type DeferredRead } from '../blobs/deferred-downloads.ts';

export type { CallContext } from './server.ts';

/** How calls reach one service: its HTTP endpoint, or its procedures in this very process (standalone). */
export interface Transport {
  readonly kind: 'http' | 'in-process';
  /** Runs `path` with `input`; resolves to the output, fills `call.events`; rejects with a `DomainError`. */
  send(path: string, type: 'query' | 'mutation', input: unknown, call: CallContext): Promise<unknown>;
  /**
   * Runs the streamed procedure `path` (`implementStream`): resolves once it has loaded, to its items as they come;
   * rejects (or the items throw) with a `DomainError`. (A test's stub of a service may leave it out.)
   */
  stream?(path: string, input: unknown, call: CallContext): Promise<AsyncIterable<unknown>>;
  /** A blob of the service's store, null when there is none; rejects with a `DomainError`. */
  readBlob(key: string, call: CallContext): Promise<StoredBlob | null>;
  /** A deferred download of the service: its bytes, or how long to wait; null when unknown; rejects with a `DomainError`. */
  readDeferred(ref: string, call: CallContext): Promise<DeferredRead>;
  close(): Promise<void>;
}

/** tRPC's error envelope, as a service answers a failed call (server.ts, `trpcErrorOf`). */
const StreamFailureSchema = z.object({
  error: z.object({ message: z.string(), data: z.object({ httpStatus: z.number().int() }) }),
});

/** The body of a failed blob read (`{error:{code,message}}`). */
const BlobFailureSchema = z.object({ error: z.object({ message: z.string() }) });

const eventsOf = (raw: unknown) => (Array.isArray(raw) ? raw.map((e) => EventEnvelopeSchema.parse(e)) : []);

/**
 * How long a call waits on a peer service. A peer that is down refuses the connection at once (503); one
 * that is unreachable (a host gone, a process stopped) is given up on after `connectMs`, and one that took
 * the call but does not answer after `answerMs` (the longest an operation may work: a PDF export, an import):
 * 503 too, never a hang. undici's defaults are 10 s and 300 s.
 */
export interface PeerTimeouts {
  connectMs: number;
  answerMs: number;
}

export const PEER_TIMEOUTS: PeerTimeouts = { connectMs: 3_000, answerMs: 60_000 };

/** The largest answer headers taken from a service (a mutation's committed events ride in one, see server.ts). */
const MAX_ANSWER_HEADER_BYTES = 1024 * 1024;

/** What a call's own headers say: the signed actor, the request id, the public client's address and agent. */
function headersOf(call: CallContext): Record<string, string> {
  const headers: Record<string, string> = { [ACTOR_HEADER]: call.actorHeader };
  if (call.requestId) headers['x-request-id'] = call.requestId;
  if (call.client?.ip) headers[CLIENT_IP_HEADER] = call.client.ip;
  // A header value is Latin-1 text without controls: anything else in a user agent becomes `?`.
  if (call.client?.userAgent)
    headers[CLIENT_UA_HEADER] = call.client.userAgent.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
  return headers;
}

/** The call of an operation (`op.context.call`), as `send` hands it to the links. */
const callIn = (op: Operation): CallContext => op.context.call as CallContext;

/** What the terminating link hands the client with each answer: the service's response (status and headers). */
interface PoolAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A failed call's answer: tRPC's error envelope (server.ts, `trpcErrorOf`), or anything else that is not a 2xx
 * (a refusal of the service's HTTP layer, in fastify's shape): as `httpLink` reads answers.
 */
const isFailure = (status: number, json: unknown): boolean =>
  status < 200 || status > 299 || (typeof json === 'object' && json !== null && 'error' in json);

/**
 * The terminating link of a service's client (tRPC's documented custom link API, in place of `httpLink`): each call
 * one POST of its input as JSON to `<service>/trpc/<path>` on the keep-alive undici pool, its answer's `result.data`
 * the call's data, its error envelope a `TRPCClientError` with the service's status and sentence (`err.data`), the
 * response in `err.meta.response`. The committed events the service named in the `x-quire-events` header go to the
 * call's `events`. `httpLink` made an `AbortController`, raced abort signals and emulated `fetch` on every call,
 * for nothing here: a call is never aborted by its caller (the pool's timeouts bound it). Its observable emits the
 * answer and is ended by the caller's unsubscribing (see there).
 */
function poolLink(pool: Pool): TRPCLink<AnyRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const call = callIn(op);
        pool
          .request({
            path: `/trpc/${op.path}`,
            method: 'POST',
            headers: { ...headersOf(call), 'content-type': 'application/json' },
            body: JSON.stringify(op.input === undefined ? {} : op.input),
          })
          .then(async (res) => {
            const response: PoolAnswer = { status: res.statusCode, headers: res.headers };
            let json: unknown;
            try {
              json = await res.body.json();
            } catch (cause) {
              throw TRPCClientError.from(cause as Error, { meta: { response } });
            }
            if (isFailure(res.statusCode, json)) throw TRPCClientError.from(json as never, { meta: { response } });
            const header = res.headers[EVENTS_HEADER];
            call.events =
              typeof header === 'string' ? eventsOf(JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))) : [];
            // No `observer.complete()` after the answer: the client's promise (`requestAsPromise`) resolves on the
            // first value and unsubscribes, which ends this observable; a completion reaching it aborts the
            // AbortController tRPC's `observableToPromise` made for the call, and an abort builds a `DOMException`
            // with its stack (7 µs a call, measured; 21 µs a call of the distributed gateway's profile at load 4).
            observer.next({ result: { data: (json as { result?: { data?: unknown } }).result?.data } });
          })
          .catch((cause: unknown) => observer.error(TRPCClientError.from(cause as Error)));
      });
}

/**
 * A service over HTTP with tRPC's own client: `createTRPCUntypedClient` with one terminating link (`poolLink`, no
 * batching), every call a POST to `<base>/trpc/<path>` on one keep-alive undici pool.
 * A failure the service answered keeps its status and sentence; anything else is the service unavailable (503).
 */
export class HttpTransport implements Transport {
  readonly kind = 'http';
  readonly #pool: Pool;
  readonly #service: ServiceName;
  readonly #client: TRPCUntypedClient<AnyRouter>;

  constructor(service: ServiceName, url: string, connections = 128, timeouts: Partial<PeerTimeouts> = {}) {
    this.#service = service;
    const { connectMs, answerMs } = { ...PEER_TIMEOUTS, ...timeouts };
    this.#pool = new Pool(url, {
      connections,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      connect: { timeout: connectMs },
      headersTimeout: answerMs,
      bodyTimeout: answerMs,
      maxHeaderSize: MAX_ANSWER_HEADER_BYTES,
    });
    this.#client = createTRPCUntypedClient<AnyRouter>({ links: [poolLink(this.#pool)] });
  }

  async send(path: string, type: 'query' | 'mutation', input: unknown, call: CallContext): Promise<unknown> {
    const args = [path, input === undefined ? {} : input, { context: { call } }] as const;
    try {
      return await (type === 'query' ? this.#client.query(...args) : this.#client.mutation(...args));
    } catch (err) {
      throw this.#failure(err);
    }
  }

  /** What a failed call means to its caller. */
  #failure(err: unknown): DomainError {
    if (err instanceof TRPCClientError) {
      const status = (err.data as { httpStatus?: unknown } | undefined)?.httpStatus;
      if (typeof status === 'number') return new DomainError(errorCodeForStatus(status), err.message);
      // Not a procedure's answer: the service's HTTP layer refused the call itself (a body it cannot parse,
      // one over its limit). That is the call's fault, not an outage; a 5xx is an outage.
      const answered = (err.meta?.response as PoolAnswer | undefined)?.status;
      if (answered !== undefined && answered >= 400 && answered < 500)
        return new DomainError(
          errorCodeForStatus(answered),
          `The ${this.#service} service refused the request (HTTP ${answered})`,
        );
    }
    return new DomainError('unavailable', `The ${this.#service} service is unavailable`, err);
  }

  /** `POST <service>/trpc/<path>`: the items of the answer's JSON lines as they arrive (server.ts, `streamLines`). */
  async stream(path: string, input: unknown, call: CallContext): Promise<AsyncIterable<unknown>> {
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await this.#pool.request({
        path: `/trpc/${path}`,
        method: 'POST',
        headers: { ...headersOf(call), 'content-type': 'application/json' },
        body: JSON.stringify(input === undefined ? {} : input),
      });
    } catch (cause) {
      throw new DomainError('unavailable', `The ${this.#service} service is unavailable`, cause);
    }
    const type = String(res.headers['content-type'] ?? '');
    if (res.statusCode === 200 && type.startsWith(STREAM_TYPE)) return this.#lines(res.body);
    let envelope: unknown;
    try {
      envelope = await res.body.json();
    } catch {
      envelope = undefined;
    }
    throw this.#answered(res.statusCode, envelope);
  }

  /** The failure a service answered in tRPC's error envelope (its status and sentence), else the service down. */
  #answered(status: number, envelope: unknown): DomainError {
    const failure = StreamFailureSchema.safeParse(envelope);
    if (failure.success)
      return new DomainError(errorCodeForStatus(failure.data.error.data.httpStatus), failure.data.error.message);
    return new DomainError('unavailable', `The ${this.#service} service is unavailable (HTTP ${status})`);
  }

  /** The items of a streamed answer, line by line; a failure line throws, a stream cut before its end is a 503. */
  async *#lines(body: AsyncIterable<Buffer>): AsyncGenerator<unknown> {
    const decoder = new TextDecoder();
    let rest = '';
    try {
      for await (const chunk of body) {
        rest += decoder.decode(chunk, { stream: true });
        for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
          const line = JSON.parse(rest.slice(0, nl)) as { data?: unknown; end?: true; error?: unknown };
          rest = rest.slice(nl + 1);
          if (line.end) return;
          if (line.error) throw this.#answered(200, line);
          yield line.data;
        }
      }
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new DomainError('unavailable', `The ${this.#service} service is unavailable`, err);
    }
    throw new DomainError('unavailable', `The ${this.#service} service stopped before the end of its answer`);
  }

  /** `GET <service>/blobs/<key>` with the signed actor: the bytes, or null on 404. */
  async readBlob(key: string, call: CallContext): Promise<StoredBlob | null> {
    const read = await this.#get(`/blobs/${encodeURIComponent(key)}`, call);
    return read && 'blob' in read ? read.blob : null;
  }

  /** `GET <service>/blobs/deferred/<ref>` with the signed actor: the bytes, the wait (a marked 503), or null on 404. */
  readDeferred(ref: string, call: CallContext): Promise<DeferredRead> {
    return this.#get(`/blobs/deferred/${encodeURIComponent(ref)}`, call);
  }

  async #get(path: string, call: CallContext): Promise<DeferredRead> {
    const headers: Record<string, string> = { [ACTOR_HEADER]: call.actorHeader };
    if (call.requestId) headers['x-request-id'] = call.requestId;
    let status: number;
    let res: Awaited<ReturnType<Pool['request']>>;
    let body: Buffer;
    try {
      res = await this.#pool.request({ path, method: 'GET', headers });
      status = res.statusCode;
      body = Buffer.from(await res.body.arrayBuffer());
    } catch (cause) {
      throw new DomainError('unavailable', `The ${this.#service} service is unavailable`, cause);
    }
    const contentType = res.headers['content-type'];
    if (status === 200)
      return {
        blob: {
          bytes: body,
          contentType: typeof contentType === 'string' ? contentType : 'application/octet-stream',
          size: body.length,
        },
      };
    if (status === 404) return null;
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      json = undefined;
    }
    const failure = BlobFailureSchema.safeParse(json);
    if (status === 503 && res.headers[DOWNLOAD_PENDING_HEADER] === '1' && failure.success) {
      const retryAfterSeconds = Number(res.headers['retry-after']);
      return {
        pending: {
          retryAfterSeconds: Number.isInteger(retryAfterSeconds) && retryAfterSeconds > 0 ? retryAfterSeconds : 1,
          message: failure.data.error.message,
        },
      };
    }
    // A failure the service answered itself (its own sentence) keeps it; anything else from a 5xx is the service down.
    if (status === 500 && failure.success) throw new DomainError('internal', failure.data.error.message);
    if (status >= 500) throw new DomainError('unavailable', `The ${this.#service} service is unavailable`);
    throw new DomainError(errorCodeForStatus(status), failure.success ? failure.data.error.message : 'Request failed');
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/**
 * Standalone mode: the procedures of a service running in this process, called directly — the same
 * router, schemas, actor verification, request id and error mapping as over HTTP, without a socket or
 * a JSON round trip.
 */
export class InProcessTransport implements Transport {
  readonly kind = 'in-process';
  readonly #invoker: ProcedureInvoker;

  constructor(invoker: ProcedureInvoker) {
    this.#invoker = invoker;
  }

  async send(path: string, _type: 'query' | 'mutation', input: unknown, call: CallContext): Promise<unknown> {
    const { data, events } = await this.#invoker.invoke(path, input, call);
    call.events = events;
    return data;
  }

  async stream(path: string, input: unknown, call: CallContext): Promise<AsyncIterable<unknown>> {
    const { data } = await this.#invoker.invoke(path, input, call);
    if (!isAsyncIterable(data)) throw new DomainError('internal', `${path} is not a streamed procedure`);
    return data;
  }

  readBlob(key: string, call: CallContext): Promise<StoredBlob | null> {
    return this.#invoker.readBlob(key, call);
  }

  readDeferred(ref: string, call: CallContext): Promise<DeferredRead> {
    return this.#invoker.readDeferred(ref, call);
  }

  async close(): Promise<void> {}
}

/** A typed client for one service: `call(operation, input, ctx)` is checked against the contracts. */
export class ServiceClient {
  readonly service: ServiceName;
  readonly transport: Transport;

  constructor(service: ServiceName, transport: Transport) {
    this.service = service;
    this.transport = transport;
  }

  async call<Op extends AnyOperation>(
    op: Op,
    input: z.input<Op['input']>,
    ctx: CallContext,
  ): Promise<z.output<Op['output']>> {
    if (op.service !== this.service) throw new Error(`${op.id} belongs to ${op.service}, not ${this.service}`);
    return (await this.transport.send(op.id, op.type, input, ctx)) as z.output<Op['output']>;
  }

  /** A streamed operation (`http.events`): its items as they come, once it has loaded (rejects as `call` does). */
  async stream<Op extends AnyOperation>(op: Op, input: z.input<Op['input']>, ctx: CallContext) {
    if (op.service !== this.service) throw new Error(`${op.id} belongs to ${op.service}, not ${this.service}`);
    if (!this.transport.stream)
      throw new DomainError('unavailable', `The ${this.service} service streams nothing here`);
    return (await this.transport.stream(op.id, input, ctx)) as AsyncIterable<StreamItem<Op>>;
  }

  /** A blob of the service's store (null when there is none). */
  readBlob(key: string, ctx: CallContext): Promise<StoredBlob | null> {
    return this.transport.readBlob(key, ctx);
  }

  /** A deferred download of the service (its bytes, or how long to wait; null when unknown). */
  readDeferred(ref: string, ctx: CallContext): Promise<DeferredRead> {
    return this.transport.readDeferred(ref, ctx);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** Clients for every service, signing the actor with the `ActorSigner` (which re-uses a header per actor until near expiry). */
export class ServiceClients {
  readonly #clients = new Map<ServiceName, ServiceClient>();
  readonly #signer: ActorSigner;
  readonly #serviceActor: Actor;

  constructor(urls: Partial<Record<ServiceName, string>>, signer: ActorSigner, callerName: string) {
    for (const [service, url] of Object.entries(urls) as [ServiceName, string][])
      this.#clients.set(service, new ServiceClient(service, new HttpTransport(service, url)));
    this.#signer = signer;
    this.#serviceActor = { kind: 'service', service: callerName };
  }

  /** Points calls to `service` at another transport (standalone mode: the service's procedures in this process). */
  use(service: ServiceName, transport: Transport): void {
    void this.#clients.get(service)?.close();
    this.#clients.set(service, new ServiceClient(service, transport));
  }

  /** Points calls to `service` at `url` over HTTP (standalone tests learn a service's port after it listens). */
  setEndpoint(service: ServiceName, url: string): void {
    this.use(service, new HttpTransport(service, url));
  }

  get(service: ServiceName): ServiceClient {
    const c = this.#clients.get(service);
    if (!c) throw new DomainError('unavailable', `No endpoint configured for the ${service} service`);
    return c;
  }

  sign(actor: Actor): Promise<SignedActor> {
    return this.#signer.sign(actor);
  }

  /**
   * Call as this process itself (service identity), e.g. the gateway resolving a token. `seen`, when given, gets the
   * events the call committed that make cached actors stale (`CallContext.events`), as a forwarded call's do.
   */
  async asService<Op extends AnyOperation>(
    op: Op,
    input: z.input<Op['input']>,
    requestId?: string,
    seen?: Pick<CallContext, 'events'>,
  ) {
    const client = this.get(op.service);
    const call: CallContext = { actorHeader: await this.#serviceActorHeader(), requestId };
    const out = await client.call(op, input, call);
    if (seen && call.events) seen.events = call.events;
    return out;
  }

  /** Read a blob of `service` as this process itself (the gateway serving a signed download link). */
  async readBlobAsService(service: ServiceName, key: string, requestId?: string): Promise<StoredBlob | null> {
    const client = this.get(service);
    return client.readBlob(key, { actorHeader: await this.#serviceActorHeader(), requestId });
  }

  /** Follow a deferred download of `service` as this process itself (the gateway serving a deferred link). */
  async readDeferredAsService(service: ServiceName, ref: string, requestId?: string): Promise<DeferredRead> {
    const client = this.get(service);
    return client.readDeferred(ref, { actorHeader: await this.#serviceActorHeader(), requestId });
  }

  async #serviceActorHeader(): Promise<string> {
    return (await this.#signer.sign(this.#serviceActor)).header;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
  }
}
