import { initTRPC, type AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Access, Actor, AnyOperation, EventEnvelope, ServiceName, ServiceOperations, UserActor } from '@quire/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.ts';
import { DomainError, toPublicError } from '../errors.ts';
import { eventsRecordedIn } from '../events/outbox.ts';
import type { PublicUrls } from '../urls.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { DownloadLinks } from '../blobs/signed-links.ts';
import type { ServiceClients } from './client.ts';

/** What every call carries, whatever the transport. */
export interface BaseContext {
  actor: Actor;
  requestId: string;
  log: Logger;
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
  : A extends 'instance-admin'
    ? Extract<Actor, { kind: 'instance-admin' }>
    : A extends 'internal'
      ? Extract<Actor, { kind: 'service' }>
      : Actor;

/** The context a handler of `Op` sees: the actor narrowed by the operation's access. */
export type ContextFor<Op extends AnyOperation, Ctx> = Omit<Ctx, 'actor'> & { actor: ActorFor<Op['access']> };
export type HandlerArgs<Op extends AnyOperation, Ctx> = { input: z.output<Op['input']>; ctx: ContextFor<Op, Ctx> };
export type Handler<Op extends AnyOperation, Ctx> = (args: HandlerArgs<Op, Ctx>) => Promise<z.input<Op['output']>>;

function checkAccess(access: Access, actor: Actor): void {
  if (access === 'public') return;
  if (actor.kind === 'anonymous') throw new DomainError('unauthenticated', 'Authentication required: send `Authorization: Bearer <API token>`');
  if (access === 'user' && actor.kind !== 'user') throw new DomainError('forbidden', 'This operation needs a user API token');
  if (access === 'instance-admin' && actor.kind !== 'instance-admin') throw new DomainError('forbidden', 'This operation needs the instance admin token');
  if (access === 'internal' && actor.kind !== 'service') throw new DomainError('forbidden', 'This operation is internal');
}

/**
 * One tRPC instance per service. `implement(op, handler)` is the mold of every procedure: the contract's
 * input and output schemas, the operation's access rule, and for mutations one transaction around the
 * handler (opened here, committed with its outbox rows when the handler returns, rolled back when it
 * throws). Handlers never open transactions or flush: commands write through `ctx.em`.
 * The error formatter adds the HTTP status and the stable reason; `isDev: false` keeps stack traces out.
 */
export function createServiceTrpc<Ctx extends ServiceContext>() {
  const t = initTRPC.context<Ctx>().create({
    isDev: false,
    isServer: true,
    errorFormatter({ shape, error }) {
      const pub = toPublicError(error);
      return { message: pub.message, code: shape.code, data: { code: shape.data.code, httpStatus: pub.status, reason: pub.reason } };
    },
  });

  function implement<Op extends AnyOperation>(op: Op, handler: Handler<Op, Ctx>) {
    const base = t.procedure
      .use(({ ctx, next }) => {
        checkAccess(op.access, ctx.actor);
        return next();
      })
      .input(op.input)
      .output(op.output);
    const call = handler as unknown as (args: { input: unknown; ctx: Ctx }) => Promise<unknown>;
    if (op.type === 'query') return base.query(({ input, ctx }) => call({ input, ctx: ctx as Ctx }));
    return base.mutation(async ({ input, ctx: procedureCtx }) => {
      const ctx = procedureCtx as Ctx;
      let recorded: EventEnvelope[] = [];
      const result = await ctx.em.transactional(async (em) => {
        const out = await call({ input, ctx: { ...ctx, em } });
        recorded = eventsRecordedIn(em);
        return out;
      });
      ctx.committed.push(...recorded);
      return result;
    });
  }

  type Impl = ReturnType<typeof implement>;
  /**
   * The service router: one implementation for every operation the contracts give the service
   * (a missing one is a type error), mounted at the operation's id.
   */
  function serviceRouter<S extends ServiceName>(_service: S, operations: (typeof ServiceOperations)[S], impls: { [K in keyof (typeof ServiceOperations)[S]]: Impl }): AnyRouter {
    const tree: Record<string, unknown> = {};
    for (const [key, op] of Object.entries(operations as Record<string, AnyOperation>)) {
      const parts = op.id.split('.');
      let node = tree;
      for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[parts.at(-1)!] = (impls as Record<string, Impl>)[key]!;
    }
    return t.router(tree as never);
  }

  return { t, implement, serviceRouter };
}
