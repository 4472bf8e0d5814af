import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation } from '@quire/contracts';
import {
  assertStorableInput,
  callSeries,
  clientInfo,
  DomainError,
  isAudited,
  metrics,
  publicError,
  toPublicError,
  type CallContext,
  type ServiceClients,
} from '@quire/kit';
import type { ActorResolver } from './auth.ts';
import type { RateLimits } from './rate-limit.ts';
import { sendError } from './errors.ts';

/** The fastify route of an operation: `/v1/spaces/:spaceId/content/path/*` (a greedy parameter as the wildcard). */
export const routeUrlOf = ({ path, greedy }: NonNullable<AnyOperation['http']>): string =>
  `/v1${path}`.replace(greedy ? `{${greedy}}` : /$^/, '*').replace(/\{(\w+)\}/g, ':$1');

/**
 * Serves the contract's HTTP operations over REST. Each route is registered in fastify's radix router, and
 * the call goes to the owning service's procedure with path, query and body merged into its raw input.
 * The procedure validates that input with the contract's schema (and its output) on its side of the hop:
 * one validation per call whatever the transport — in this process (standalone) or over HTTP — with the
 * same 400 naming the bad field. (trpc-to-openapi only generates the OpenAPI document, from the services' routers:
 * see openapi.ts.)
 */
export function registerRestRoutes(app: FastifyInstance, operations: readonly AnyOperation[], deps: RestDeps): void {
  for (const op of operations) {
    const http = op.http!;
    const handler = measured(http.operationId, answerOf(op, deps));
    app.route({ method: http.method, url: routeUrlOf(http), handler });
    // `GET /v1` is the API's root as much as `GET /v1/`.
    if (http.path === '/') app.route({ method: http.method, url: '/v1', handler });
  }
}

interface RestDeps {
  resolver: ActorResolver;
  clients: ServiceClients;
  limits: RateLimits;
}
type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** `answer`, counted and timed by operation and status (`quire_http_*`). */
function measured(operation: string, answer: Handler): Handler {
  const record = callSeries(metrics.httpRequests, metrics.httpDuration, operation);
  return async (req, reply) => {
    const started = performance.now();
    metrics.httpInFlight.inc();
    try {
      return await answer(req, reply);
    } finally {
      metrics.httpInFlight.dec();
      record(reply.statusCode, (performance.now() - started) / 1000);
    }
  };
}

/** One operation's route: authenticated, within the token's budget, its input merged and sent to the owning service. */
function answerOf(op: AnyOperation, deps: RestDeps): Handler {
  const http = op.http!;
  // A greedy parameter (a page path) spans segments: routed as a wildcard, handed over under its own name.
  const greedy = http.greedy;
  const hasBody = http.method !== 'GET' && http.method !== 'DELETE';
  const emptySuccess = http.status === 204 || http.status === 205;
  const requiresAuth = op.access !== 'public';
  const audited = isAudited(op);

  return async (req, reply) => {
    const authorization = req.headers.authorization;
    if (requiresAuth && !authorization) {
      return sendError(
        reply,
        publicError('unauthenticated', 'Authentication required: send `Authorization: Bearer <API token>`'),
      );
    }
    try {
      const resolved = await deps.resolver.resolve(authorization, req.id, () => deps.limits.mayLookUp(req));
      // The token's budget (anonymous calls spend their address's, counted before authentication).
      if (resolved.key !== undefined && !(await deps.limits.token(req, reply, resolved.key))) return reply;
      const body = req.body;
      if (hasBody && body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
        return sendError(reply, publicError('invalid_input', 'The request body must be a JSON object'));
      }
      const { '*': rest, ...params } = req.params as Record<string, string>;
      const input = {
        ...(req.query as object),
        ...(hasBody ? (body as object | undefined) : undefined),
        ...params,
        ...(greedy ? { [greedy]: rest } : {}),
      };
      // The storable-text rule on the raw input (unknown keys included), before a hop; services apply it to every call too.
      assertStorableInput(input);
      // An audited call takes the client's address (behind a trusted proxy: the forwarded one) and user agent
      // along for its audit record; nothing else reads them, so reads do not carry them.
      const call: CallContext = {
        actorHeader: resolved.header,
        requestId: req.id,
        ...(audited ? { client: clientInfo(req.ip, req.headers['user-agent']) } : {}),
      };
      if (http.events)
        return await sendEvents(req, reply, await deps.clients.get(op.service).stream(op, input as never, call));
      const data = await deps.clients.get(op.service).call(op, input as never, call);
      if (call.events?.length) deps.resolver.evictFor(call.events);
      reply.code(http.status);
      return emptySuccess ? reply.send() : reply.send(data);
    } catch (err) {
      return answerFailure(req, reply, op, deps.limits, err);
    }
  };
}

/**
 * A streamed operation's answer as server-sent events (GitBook's streamed answers), each item on a `data:` line as
 * the service yields it, then `event: done`. The first item is awaited before the status is sent, so a failure
 * before it is answered as any failure (its status, `{error:{code,message}}`); one after it ends the stream with
 * `event: error` and the error's body.
 */
async function sendEvents(req: FastifyRequest, reply: FastifyReply, items: AsyncIterable<unknown>) {
  const it = items[Symbol.asyncIterator]();
  const first = await it.next();
  async function* lines(): AsyncGenerator<string> {
    try {
      for (let r = first; !r.done; r = await it.next()) yield `data: ${JSON.stringify(r.value)}\n\n`;
      yield 'event: done\ndata: {}\n\n';
    } catch (err) {
      const pub = toPublicError(err);
      req.log.warn({ err }, 'stream failed');
      yield `event: error\ndata: ${JSON.stringify({ error: { code: pub.status, message: pub.message } })}\n\n`;
    } finally {
      await it.return?.();
    }
  }
  return reply
    .code(200)
    .type('text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(Readable.from(lines()));
}

/** A failed call: an authentication failure counted, what went wrong here logged, the error answered. */
async function answerFailure(
  req: FastifyRequest,
  reply: FastifyReply,
  op: AnyOperation,
  limits: RateLimits,
  err: unknown,
) {
  const pub = toPublicError(err);
  if (pub.reason === 'unauthenticated' && !(await limits.authFailed(req, reply))) return reply;
  // A service logs its own failures under the same request id; the gateway logs what happened here.
  if (pub.status === 503) req.log.warn({ err, operation: op.id }, 'service unavailable');
  else if (pub.unexpected && !(err instanceof DomainError)) req.log.error({ err, operation: op.id }, 'request failed');
  return sendError(reply, pub);
}
