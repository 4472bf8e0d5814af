import { createTRPCUntypedClient, TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import { Pool } from 'undici';
import type { Actor, AnyOperation, ServiceName } from '@quire/contracts';
import type { z } from 'zod';
import { DomainError } from '../errors.ts';
import { errorCodeForStatus } from '@quire/contracts';
import { ACTOR_HEADER, type ActorSigner } from './actor-header.ts';

export interface CallContext {
  actorHeader: string;
  requestId?: string;
}

/**
 * A tRPC link over one keep-alive undici pool: every call is a POST of the raw JSON input to
 * `<base>/trpc/<path>`; no fetch, no WHATWG Request/Response, no batching.
 */
export function undiciLink(pool: Pool, prefix = '/trpc'): TRPCLink<AnyRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const context = op.context as unknown as CallContext;
        const headers: Record<string, string> = { 'content-type': 'application/json', [ACTOR_HEADER]: context.actorHeader };
        if (context.requestId) headers['x-request-id'] = context.requestId;
        pool
          .request({ path: `${prefix}/${op.path}`, method: 'POST', headers, body: op.input === undefined ? '{}' : JSON.stringify(op.input) })
          .then(async (res) => {
            const json = (await res.body.json()) as { result?: { data?: unknown }; error?: { message: string; data?: unknown } };
            if (json.error) {
              observer.error(TRPCClientError.from({ error: json.error } as never));
              return;
            }
            // No `complete()`: queries and mutations resolve on their single value, and tRPC's
            // observableToPromise answers `complete` by aborting an AbortController, which builds a
            // DOMException (with its stack) on every call — measured at 5.5% of the gateway's CPU.
            observer.next({ result: { type: 'data', data: json.result?.data } });
          })
          .catch((cause: unknown) => observer.error(TRPCClientError.from(cause instanceof Error ? cause : new Error(String(cause)))));
        return () => {};
      });
}

export interface ServiceEndpoint {
  service: ServiceName;
  url: string;
}

/** A typed client for one service: `call(operation, input, ctx)` is checked against the contracts. */
export class ServiceClient {
  readonly service: ServiceName;
  readonly #pool: Pool;
  readonly #client: ReturnType<typeof createTRPCUntypedClient<AnyRouter>>;

  constructor(endpoint: ServiceEndpoint, connections = 128) {
    this.service = endpoint.service;
    this.#pool = new Pool(endpoint.url, { connections, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 });
    this.#client = createTRPCUntypedClient<AnyRouter>({ links: [undiciLink(this.#pool)] });
  }

  async call<Op extends AnyOperation>(op: Op, input: z.input<Op['input']>, ctx: CallContext): Promise<z.output<Op['output']>> {
    if (op.service !== this.service) throw new Error(`${op.id} belongs to ${op.service}, not ${this.service}`);
    try {
      const opts = { context: ctx as unknown as Record<string, unknown> };
      return (await (op.type === 'query' ? this.#client.query(op.id, input, opts) : this.#client.mutation(op.id, input, opts))) as z.output<Op['output']>;
    } catch (err) {
      throw toDomainError(this.service, err);
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** Errors from a service keep their status and message; a transport failure means the service is unavailable. */
function toDomainError(service: ServiceName, err: unknown): DomainError {
  if (err instanceof TRPCClientError) {
    const status = (err.data as { httpStatus?: unknown } | undefined)?.httpStatus;
    if (typeof status === 'number') return new DomainError(errorCodeForStatus(status), err.message);
    return new DomainError('unavailable', `The ${service} service is unavailable`, err);
  }
  return new DomainError('unavailable', `The ${service} service is unavailable`, err);
}

/** Clients for every service, signing the actor once per actor and reusing the header until near expiry. */
export class ServiceClients {
  readonly #clients = new Map<ServiceName, ServiceClient>();
  readonly #signer: ActorSigner;
  readonly #serviceActor: Actor;
  #serviceHeader: { header: string; exp: number } | undefined;

  constructor(endpoints: ServiceEndpoint[], signer: ActorSigner, callerName: string) {
    for (const e of endpoints) this.#clients.set(e.service, new ServiceClient(e));
    this.#signer = signer;
    this.#serviceActor = { kind: 'service', service: callerName };
  }

  /** Points calls to `service` at `url` (standalone mode learns the services' ports after they listen). */
  setEndpoint(service: ServiceName, url: string): void {
    void this.#clients.get(service)?.close();
    this.#clients.set(service, new ServiceClient({ service, url }));
  }

  get(service: ServiceName): ServiceClient {
    const c = this.#clients.get(service);
    if (!c) throw new DomainError('unavailable', `No endpoint configured for the ${service} service`);
    return c;
  }

  sign(actor: Actor): { header: string; exp: number } {
    return this.#signer.sign(actor);
  }

  /** Call as this process itself (service identity), e.g. the gateway resolving a token. */
  asService<Op extends AnyOperation>(op: Op, input: z.input<Op['input']>, requestId?: string) {
    const now = Date.now();
    if (!this.#serviceHeader || this.#serviceHeader.exp - now < 60_000) this.#serviceHeader = this.#signer.sign(this.#serviceActor, now);
    return this.get(op.service).call(op, input, { actorHeader: this.#serviceHeader.header, requestId });
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((c) => c.close()));
  }
}
