import { initTRPC, TRPCError, type AnyRouter } from '@trpc/server';
import { z } from 'zod';
import type {
  Access,
  Actor,
  AnyOperation,
  EventEnvelope,
  ServiceName,
  ServiceOperations,
  UserActor,
  ReaderActor,
} from '@quire/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.ts';
import { DomainError, toPublicError } from '../errors.ts';
import { AUDIT_EVENT_OF } from '@quire/contracts';
import { eventsRecordedIn, recordEvent } from '../events/outbox.ts';
import { auditRecordOf, isAudited, placeInOrganization, type ClientInfo } from './audit.ts';
import { assertStorableInput } from './input-guard.ts';
import type { PublicUrls } from '../urls.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { DownloadLinks } from '../blobs/signed-links.ts';
import type { ServiceClients } from './client.ts';
import { retryTransaction } from '../retry/retry-transaction.ts';

/** What every call carries, whatever the transport. */
export interface BaseContext {
  actor: Actor;
  requestId: string;
  log: Logger;
  /** The client's address and user agent, as the gateway saw them (for the audit log). */
  client?: ClientInfo | undefined;
}

/**
 * The context of every procedure of a service, built by the kit for each call: a forked EntityManager
 * (inside the mutation's transaction for mutations), the service's config, its peers, its public URLs,
 * and the events the call committed (returned to the caller by the transport).
 */
export interface ServiceContext<C = unknown> extends BaseContext {
  em: EntityManager;
  config: C;
  peers: ServiceClients;
  urls: PublicUrls;
  /** The service's blob store (content-addressed bytes: files, icons, exports). */
  blobs: BlobStore;
  /** Signed, expiring links to the service's blobs, served by the gateway without the API token. */
  downloads: DownloadLinks;
  /** Filled once a mutation's transaction committed: the events it wrote to the outbox. */
  committed: EventEnvelope[];
}

type ActorFor<A extends Access> = A extends 'user'
  ? UserActor
  : A extends 'reader'
    ? UserActor | ReaderActor
    : A extends 'instance-admin'
      ? Extract<Actor, { kind: 'instance-admin' }>
      : A extends 'internal'
        ? Extract<Actor, { kind: 'service' }>
        : Actor;

/** The context a handler of `Op` sees: the actor narrowed by the operation's access. */
export type ContextFor<Op extends AnyOperation, Ctx> = Omit<Ctx, 'actor'> & { actor: ActorFor<Op['access']> };
export type HandlerArgs<Op extends AnyOperation, Ctx> = { input: z.output<Op['input']>; ctx: ContextFor<Op, Ctx> };
export type Handler<Op extends AnyOperation, Ctx> = (args: HandlerArgs<Op, Ctx>) => Promise<z.input<Op['output']>>;
/** The first phase of a prepared mutation: reads and slow work (network fetches), outside any transaction. */
export type Preparer<Op extends AnyOperation, Ctx, P> = (args: HandlerArgs<Op, Ctx>) => Promise<P>;
/** The second phase: the writes, in the mutation's transaction, with what the first phase prepared. */
export type PreparedHandler<Op extends AnyOperation, Ctx, P> = (
  args: HandlerArgs<Op, Ctx> & { prepared: P },
) => Promise<z.input<Op['output']>>;

/** The item a streamed operation (`http.events`) yields: an element of its output's `events`. */
export type StreamItem<Op extends AnyOperation> =
  z.input<Op['output']> extends { events: readonly (infer T)[] } ? T : never;
/** The handler of a streamed operation: it loads (and asserts access) before it resolves, then the items follow. */
export type StreamHandler<Op extends AnyOperation, Ctx> = (
  args: HandlerArgs<Op, Ctx>,
) => Promise<AsyncIterable<StreamItem<Op>>>;

export const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

/** The schema of a streamed operation's items: its output's `events` element (throws for another operation). */
export function streamItemSchema(op: AnyOperation): z.ZodType {
  const events = (op.output as Partial<z.ZodObject>).shape?.events as z.ZodArray | undefined;
  if (!op.http?.events || events?.def.type !== 'array') throw new Error(`${op.id} is not answered as a stream`);
  return events.element as z.ZodType;
}

/** Each item of a stream checked with the contract's schema: a bad one ends the stream with an internal error. */
async function* checkedItems(items: AsyncIterable<unknown>, schema: z.ZodType): AsyncGenerator<unknown> {
  for await (const item of items) {
    const parsed = schema.safeParse(item);
    if (!parsed.success) throw new DomainError('internal', 'Output validation failed: a streamed item');
    yield parsed.data;
  }
}

/** What a streamed procedure resolves to for tRPC (its items are checked one by one, see `checkedItems`). */
const STREAM_OUTPUT = z
  .custom<AsyncIterable<unknown>>(isAsyncIterable, 'A stream')
  .meta({ description: 'The items as they come (the gateway answers them as server-sent events)' });

/**
 * A procedure's meta: the operation's HTTP binding as trpc-to-openapi reads it (`OpenApiMeta`'s shape), so
 * `/v1/openapi.json` is generated from the services' own routers. Internal operations have none.
 */
export interface OperationMeta {
  openapi?: {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path: `/${string}`;
    operationId: string;
    summary?: string;
    tags?: string[];
    protect: boolean;
  };
}

/** The meta of an operation's procedure: its public route under `/v1`, if it has one. */
export function operationMeta(op: AnyOperation): OperationMeta {
  const http = op.http;
  if (!http) return {};
  return {
    openapi: {
      method: http.method,
      path: `/v1${http.path === '/' ? '' : http.path}` as `/${string}`,
      operationId: http.operationId,
      summary: http.summary,
      tags: http.tags,
      protect: op.access !== 'public',
    },
  };
}

function checkAccess(access: Access, actor: Actor): void {
  if (access === 'public') return;
  if (actor.kind === 'anonymous')
    throw new DomainError('unauthenticated', 'Authentication required: send `Authorization: Bearer <API token>`');
  if (access === 'user' && actor.kind !== 'user')
    throw new DomainError(
      'forbidden',
      actor.kind === 'reader'
        ? 'A published-content token only reads the published content of its site'
        : 'This operation needs a user API token',
    );
  if (access === 'reader' && actor.kind !== 'user' && actor.kind !== 'reader')
    throw new DomainError('forbidden', 'This operation needs a user API token');
  if (access === 'instance-admin' && actor.kind !== 'instance-admin')
    throw new DomainError('forbidden', 'This operation needs the instance admin token');
  if (access === 'internal' && actor.kind !== 'service')
    throw new DomainError('forbidden', 'This operation is internal');
}

export interface ServiceTrpcOptions {
  /**
   * The organization of a mutation its audit record could not place (no `organizationId` in its path, none in
   * the events it recorded or in its output): looked up by the service from the call's input (a space's), in
   * the mutation's transaction. Null when the change belongs to no organization.
   */
  auditOrganization?: (em: EntityManager, input: Record<string, unknown>) => Promise<string | null>;
}

/** The tRPC instance of a service: its context, the operations' meta, and the error formatter (status and reason). */
function serviceTrpcInstance<Ctx extends ServiceContext>() {
  return initTRPC
    .context<Ctx>()
    .meta<OperationMeta>()
    .create({
      isDev: false,
      isServer: true,
      errorFormatter({ shape, error }) {
        const pub = toPublicError(error);
        return {
          message: pub.message,
          code: shape.code,
          data: { code: shape.data.code, httpStatus: pub.status, reason: pub.reason },
        };
      },
    });
}

type Args<Ctx> = { input: unknown; ctx: Ctx; prepared?: unknown };
type Run<Ctx> = (args: Args<Ctx>) => Promise<unknown>;

/** Records the audit record of a mutation of the API into its transaction (`em`), placed in its organization. */
async function recordAudit<Ctx extends ServiceContext>(
  em: EntityManager,
  call: { op: AnyOperation; input: unknown; out: unknown; ctx: Ctx; recorded: EventEnvelope[] },
  options: ServiceTrpcOptions,
): Promise<void> {
  const { op, input } = call;
  const record = auditRecordOf(op, input, call.out, call.ctx, call.recorded);
  if (record.organization === null && options.auditOrganization && typeof input === 'object' && input !== null)
    placeInOrganization(record, await options.auditOrganization(em, input as Record<string, unknown>));
  recordEvent(em, AUDIT_EVENT_OF[op.service], record);
}

/** How a query runs: its prepared phase, if any, then its handler; no transaction. */
function queryRun<Ctx>(prepare: Run<Ctx> | undefined, handler: Run<Ctx>): Run<Ctx> {
  return async ({ input, ctx }) =>
    handler({ input, ctx, ...(prepare ? { prepared: await prepare({ input, ctx }) } : {}) });
}

/**
 * How a mutation runs: the prepared phase (network fetches…) before the transaction opens, so no connection is
 * held and no transaction stays open while it waits; then the handler and the audit record in one transaction,
 * run again whole when it lost a race (unique or foreign key, serialization, deadlock: kit/retry), its loaders
 * then seeing what the other one committed. The committed events are added to `ctx.committed`.
 */
function mutationRun<Ctx extends ServiceContext>(
  op: AnyOperation,
  prepare: Run<Ctx> | undefined,
  handler: Run<Ctx>,
  options: ServiceTrpcOptions,
): Run<Ctx> {
  const audited = isAudited(op);
  return async ({ input, ctx }) => {
    const prepared = prepare ? { prepared: await prepare({ input, ctx }) } : {};
    let recorded: EventEnvelope[] = [];
    const result = await retryTransaction(() =>
      ctx.em.transactional(async (em) => {
        const out = await handler({ input, ctx: { ...ctx, em }, ...prepared });
        recorded = eventsRecordedIn(em);
        // The audit record of the change, in its own transaction: committed with it, or not at all.
        if (audited) await recordAudit(em, { op, input, out, ctx, recorded }, options);
        return out;
      }),
    );
    ctx.committed.push(...recorded);
    return result;
  };
}

/**
 * How an operation answered as a stream runs (`implementStream`; `http.events`: server-sent events through the gateway): a query (no
 * transaction stays open while it streams) whose handler loads and asserts access, then resolves to the items, each
 * checked with the contract's schema as it comes. The transports carry the items as they are yielded.
 */
function streamRun<Ctx>(op: AnyOperation, handler: Run<Ctx>): Run<Ctx> {
  const item = streamItemSchema(op);
  if (op.type !== 'query') throw new Error(`${op.id}: a streamed operation is a query`);
  return async (args) => checkedItems((await handler(args)) as AsyncIterable<unknown>, item);
}

/** The router tree of a service: each implementation mounted at its operation's id (`spaces.duplicate`). */
function routerTree(operations: Record<string, AnyOperation>, impls: Record<string, unknown>): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [key, op] of Object.entries(operations)) {
    const parts = op.id.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = impls[key]!;
  }
  return tree;
}

/** Each service router's twin for the OpenAPI document (the same procedures, with `.output()`), and each procedure's. */
const DOCUMENTED = new WeakMap<AnyRouter, AnyRouter>();
const DOCUMENTED_PROCEDURE = new WeakMap<object, object>();

/** The router trpc-to-openapi documents for a service router (`serviceRouter`): its procedures with their output schemas. */
/** The documented twin of each implementation (the same procedure with `.output()`). */
const documentedOf = (impls: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(impls).map(([k, impl]) => [k, DOCUMENTED_PROCEDURE.get(impl) ?? impl]));

export function openApiRouterOf(router: AnyRouter): AnyRouter {
  const documented = DOCUMENTED.get(router);
  if (!documented) throw new Error('openApiRouterOf: not a service router of the kit');
  return documented;
}

/**
 * Where a call's raw input rides: in its context (`callProcedure` puts it there), parsed by the procedure's own
 * resolver with the contract's schema. A procedure declared with `.input()` runs tRPC's input-validator middleware
 * before its resolver: a second layer, which copies the call's options twice and awaits the raw input and the
 * parse (docs/performance.md §7: a third of tRPC's cost of a read).
 */
const RAW_INPUT: unique symbol = Symbol('quire.rawInput');
type Carrying = { [RAW_INPUT]?: unknown };

/**
 * Calls the procedure at `path` of a router's caller (tRPC's `createCallerFactory(router)(ctx)`) with `input`: the
 * one way the kit's procedures are called (`createProcedureInvoker`, tests). The input goes in the context, for
 * the kit's procedures, and as the call's argument, for a plain tRPC procedure declared with `.input()`.
 */
export function callProcedure(caller: unknown, path: string, ctx: object, input: unknown): Promise<unknown> {
  (ctx as Carrying)[RAW_INPUT] = input;
  const procedure = path.split('.').reduce((node, key) => (node as Record<string, unknown>)[key], caller);
  return (procedure as (input: unknown) => Promise<unknown>)(input);
}

/**
 * The resolver of an operation's procedure: the call's input parsed with the contract's schema (a bad one is
 * BAD_REQUEST with the issues, as tRPC's input validator answers it: the 400 names the field), the storable-text
 * rule and the access rule on it, the handler (in its transaction), then its answer checked with the contract's
 * output schema (a bad output is INTERNAL_SERVER_ERROR, as tRPC's output validator answers it). Both are checked
 * here rather than by `.input()` and `.output()`: each tRPC middleware layer copies the call's options twice
 * (docs/performance.md §7); the procedure's twin for the OpenAPI document declares both (`openApiRouterOf`).
 */
function checkedResolver<Ctx extends ServiceContext>(
  op: AnyOperation,
  run: Run<Ctx>,
  output: z.ZodType,
): (opts: { ctx: unknown }) => Promise<unknown> {
  const inputSchema = op.input as z.ZodType;
  return async (opts) => {
    const ctx = opts.ctx as Ctx;
    const parsedInput = inputSchema.safeParse((ctx as Carrying)[RAW_INPUT]);
    if (!parsedInput.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: parsedInput.error });
    const input = parsedInput.data;
    assertStorableInput(input);
    checkAccess(op.access, ctx.actor);
    const parsed = output.safeParse(await run({ input, ctx }));
    if (!parsed.success)
      throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: parsed.error });
    return parsed.data;
  };
}

/**
 * One tRPC instance per service. `implement(op, handler)` is the mold of every procedure: the operation's
 * access rule, the contract's input and output schemas, and for mutations one transaction around the
 * handler (opened here, committed with its outbox rows when the handler returns, rolled back when it
 * throws). A mutation of the API also writes its audit record (`<service>.audit.recorded`, see audit.ts)
 * into that transaction. Handlers never open transactions or flush: commands write through `ctx.em`.
 * The error formatter adds the HTTP status and the stable reason; `isDev: false` keeps stack traces out.
 */
export function createServiceTrpc<Ctx extends ServiceContext>(options: ServiceTrpcOptions = {}) {
  const t = serviceTrpcInstance<Ctx>();

  function procedure(op: AnyOperation, prepare: Run<Ctx> | undefined, handler: Run<Ctx>, output?: z.ZodType) {
    const run = op.type === 'query' ? queryRun(prepare, handler) : mutationRun(op, prepare, handler, options);
    const outputSchema = output ?? (op.output as z.ZodType);
    // tRPC's public builder: the meta trpc-to-openapi documents and one resolver (`checkedResolver`, which parses
    // the input and checks the output: see there); its twin with `.input()` and `.output()` is for the OpenAPI
    // document only.
    const builder = t.procedure.meta(operationMeta(op));
    const resolver = checkedResolver(op, run, outputSchema);
    const callable = op.type === 'query' ? builder.query(resolver) : builder.mutation(resolver);
    const twin = builder.input(op.input).output(outputSchema);
    const documented = op.type === 'query' ? twin.query(resolver) : twin.mutation(resolver);
    DOCUMENTED_PROCEDURE.set(callable, documented as object);
    return callable;
  }

  function implement<Op extends AnyOperation>(op: Op, handler: Handler<Op, Ctx>) {
    return procedure(op, undefined, handler as unknown as Run<Ctx>);
  }

  /**
   * The mold of a mutation that must do slow work before it writes (fetching a website, a file by URL):
   * `prepare` runs first, outside any transaction (loaders assert access there, so nothing is fetched for a
   * caller who may not write, and network I/O never holds a database connection or an open transaction);
   * then `handler` runs in the mutation's one transaction, as with `implement`, given what `prepare`
   * returned. The handler loads again what it writes: the state may have moved while `prepare` waited.
   */
  function implementPrepared<Op extends AnyOperation, P>(
    op: Op,
    prepare: Preparer<Op, Ctx, P>,
    handler: PreparedHandler<Op, Ctx, P>,
  ) {
    return procedure(op, prepare as unknown as Run<Ctx>, handler as unknown as Run<Ctx>);
  }

  const implementStream = <Op extends AnyOperation>(op: Op, handler: StreamHandler<Op, Ctx>) =>
    procedure(op, undefined, streamRun(op, handler as unknown as Run<Ctx>), STREAM_OUTPUT);

  type Impl = ReturnType<typeof procedure>;
  /**
   * The service router: one implementation for every operation the contracts give the service
   * (a missing one is a type error), mounted at the operation's id. Its twin with the output schemas, for the
   * OpenAPI document, is `openApiRouterOf(router)`.
   */
  function serviceRouter<S extends ServiceName>(
    _service: S,
    operations: (typeof ServiceOperations)[S],
    impls: { [K in keyof (typeof ServiceOperations)[S]]: Impl },
  ): AnyRouter {
    const ops = operations as Record<string, AnyOperation>;
    const router = t.router(routerTree(ops, impls) as never);
    DOCUMENTED.set(router, t.router(routerTree(ops, documentedOf(impls)) as never));
    return router;
  }

  return { t, implement, implementPrepared, implementStream, serviceRouter };
}
