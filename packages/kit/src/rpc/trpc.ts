import { initTRPC, type AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Access, Actor, AnyOperation, ServiceName, ServiceOperations, UserActor } from '@quire/contracts';
import type { Logger } from '../logger.ts';
import { DomainError, toPublicError } from '../errors.ts';

/** What every procedure gets; services add their own request-scoped dependencies (`Extra`). */
export interface BaseContext {
  actor: Actor;
  requestId: string;
  log: Logger;
}

type ActorFor<A extends Access> = A extends 'user'
  ? UserActor
  : A extends 'instance-admin'
    ? Extract<Actor, { kind: 'instance-admin' }>
    : A extends 'internal'
      ? Extract<Actor, { kind: 'service' }>
      : Actor;

export type HandlerArgs<Op extends AnyOperation, Ctx> = {
  input: z.output<Op['input']>;
  ctx: Omit<Ctx, 'actor'> & { actor: ActorFor<Op['access']> };
};
export type Handler<Op extends AnyOperation, Ctx> = (args: HandlerArgs<Op, Ctx>) => Promise<z.input<Op['output']>>;

function checkAccess(access: Access, actor: Actor): void {
  if (access === 'public') return;
  if (actor.kind === 'anonymous') throw new DomainError('unauthenticated', 'Authentication required: send `Authorization: Bearer <API token>`');
  if (access === 'user' && actor.kind !== 'user') throw new DomainError('forbidden', 'This operation needs a user API token');
  if (access === 'instance-admin' && actor.kind !== 'instance-admin') throw new DomainError('forbidden', 'This operation needs the instance admin token');
  if (access === 'internal' && actor.kind !== 'service') throw new DomainError('forbidden', 'This operation is internal');
}

/**
 * One tRPC instance per service: the error formatter adds the HTTP status and the stable reason,
 * `isDev: false` keeps stack traces out of every response.
 */
export function createServiceTrpc<Ctx extends BaseContext>() {
  const t = initTRPC.context<Ctx>().create({
    isDev: false,
    isServer: true,
    errorFormatter({ shape, error }) {
      const pub = toPublicError(error);
      return { message: pub.message, code: shape.code, data: { code: shape.data.code, httpStatus: pub.status, reason: pub.reason } };
    },
  });

  /** A procedure for a contract operation: its schemas, its access rule, the handler. */
  function implement<Op extends AnyOperation>(op: Op, handler: Handler<Op, Ctx>) {
    const base = t.procedure
      .use(({ ctx, next }) => {
        checkAccess(op.access, ctx.actor);
        return next();
      })
      .input(op.input)
      .output(op.output);
    const resolver = (opts: { input: unknown; ctx: unknown }) => handler(opts as unknown as HandlerArgs<Op, Ctx>);
    return op.type === 'query' ? base.query(resolver) : base.mutation(resolver);
  }

  type Impl = ReturnType<typeof implement>;
  /**
   * The service router: one implementation for every operation the contracts give the service
   * (a missing one is a type error), mounted at the operation's id.
   */
  function serviceRouter<S extends ServiceName>(
    _service: S,
    operations: (typeof ServiceOperations)[S],
    impls: { [K in keyof (typeof ServiceOperations)[S]]: Impl },
    extra: Record<string, Impl> = {},
  ): AnyRouter {
    const tree: Record<string, unknown> = {};
    const mount = (id: string, proc: Impl) => {
      const parts = id.split('.');
      let node = tree;
      for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[parts.at(-1)!] = proc;
    };
    for (const [key, op] of Object.entries(operations as Record<string, AnyOperation>)) {
      mount(op.id, (impls as Record<string, Impl>)[key]!);
    }
    for (const [id, proc] of Object.entries(extra)) mount(id, proc);
    return t.router(tree as never);
  }

  return { t, implement, serviceRouter };
}
