import type { AnyRouter, AnyProcedure } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '@quire/contracts';
import { DomainError, toPublicError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { ACTOR_HEADER, type ActorSigner } from './actor-header.ts';
import type { BaseContext } from './trpc.ts';

export interface RpcServerOptions<Ctx extends BaseContext> {
  router: AnyRouter;
  signer: ActorSigner;
  /** Request-scoped dependencies (a forked EntityManager, …) added to the base context. */
  createContext: (base: BaseContext) => Ctx;
  prefix?: string;
}

const JSONRPC_CODE: Record<number, number> = {
  400: TRPC_ERROR_CODES_BY_KEY.BAD_REQUEST,
  401: TRPC_ERROR_CODES_BY_KEY.UNAUTHORIZED,
  403: TRPC_ERROR_CODES_BY_KEY.FORBIDDEN,
  404: TRPC_ERROR_CODES_BY_KEY.NOT_FOUND,
  409: TRPC_ERROR_CODES_BY_KEY.CONFLICT,
  412: TRPC_ERROR_CODES_BY_KEY.PRECONDITION_FAILED,
  413: TRPC_ERROR_CODES_BY_KEY.PAYLOAD_TOO_LARGE,
  429: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
  503: TRPC_ERROR_CODES_BY_KEY.SERVICE_UNAVAILABLE,
};

/**
 * Serves a tRPC router over tRPC's HTTP protocol (non-batched; queries by GET `?input=` or POST,
 * mutations by POST) without the fetch adapter's per-call Request/Response/AbortSignal objects:
 * fastify parses the body, the procedure is called directly, fastify serializes the envelope.
 * Every call must carry a valid signed actor header.
 */
export function registerRpcRoutes<Ctx extends BaseContext>(app: FastifyInstance, opts: RpcServerOptions<Ctx>): void {
  const procedures = opts.router._def.procedures as Record<string, AnyProcedure>;
  const prefix = opts.prefix ?? '/trpc';

  const sendError = (reply: FastifyReply, log: FastifyRequest['log'], path: string, err: unknown) => {
    const pub = toPublicError(err);
    if (pub.unexpected) log.error({ err, path }, 'procedure failed');
    else log.debug({ path, status: pub.status }, 'rpc');
    return reply.code(pub.status).send({
      error: {
        message: pub.message,
        code: JSONRPC_CODE[pub.status] ?? TRPC_ERROR_CODES_BY_KEY.INTERNAL_SERVER_ERROR,
        data: { httpStatus: pub.status, reason: pub.reason, path },
      },
    });
  };

  const handle = async (req: FastifyRequest<{ Params: { path: string }; Querystring: { input?: string } }>, reply: FastifyReply) => {
    const path = req.params.path;
    const procedure = Object.hasOwn(procedures, path) ? procedures[path] : undefined;
    if (!procedure) return sendError(reply, req.log, path, new DomainError('not_found', `No procedure ${path}`));
    const isGet = req.method === 'GET';
    if (isGet && procedure._def.type !== 'query') return reply.code(405).send({ error: { message: 'Use POST for mutations', code: -32005, data: { httpStatus: 405, path } } });

    const actor: Actor | null = opts.signer.verify(req.headers[ACTOR_HEADER] as string | undefined);
    if (!actor) {
      return reply.code(401).send({ error: { message: 'Unsigned or expired internal call', code: TRPC_ERROR_CODES_BY_KEY.UNAUTHORIZED, data: { httpStatus: 401, reason: 'unauthenticated', path } } });
    }
    let input: unknown;
    if (isGet) {
      try {
        input = req.query.input === undefined ? undefined : JSON.parse(req.query.input);
      } catch {
        return sendError(reply, req.log, path, Object.assign(new Error(), { issues: [{ message: '`input` is not valid JSON' }] }));
      }
    } else {
      input = req.body;
    }
    const ctx = opts.createContext({ actor, requestId: req.id, log: req.log as Logger });
    try {
      const data = await procedure({ path, getRawInput: async () => input, ctx, type: procedure._def.type, signal: undefined, batchIndex: 0 });
      req.log.debug({ path, status: 200 }, 'rpc');
      return reply.send(data === undefined ? { result: {} } : { result: { data } });
    } catch (err) {
      return sendError(reply, req.log, path, err);
    }
  };

  app.get(`${prefix}/:path`, handle);
  app.post(`${prefix}/:path`, handle);
}
