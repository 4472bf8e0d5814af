import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation } from '@quire/contracts';
import { assertStorableInput, DomainError, metrics, publicError, toPublicError, type CallContext, type ServiceClients } from '@quire/kit';
import type { ActorResolver, RateLimiter } from './auth.ts';
import { sendError } from './errors.ts';

/**
 * Serves the contract's HTTP operations over REST. Each route is registered in fastify's radix router, and
 * the call goes to the owning service's procedure with path, query and body merged into its raw input.
 * The procedure validates that input with the contract's schema (and its output) on its side of the hop:
 * one validation per call whatever the transport — in this process (standalone) or over HTTP — with the
 * same 400 naming the bad field. (trpc-to-openapi only generates the OpenAPI document: see v1-router.ts.)
 */
export function registerRestRoutes(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  deps: { resolver: ActorResolver; clients: ServiceClients; limiter: RateLimiter },
): void {
  for (const op of operations) {
    const http = op.http!;
    // A greedy parameter (a page path) spans segments: routed as a wildcard, handed over under its own name.
    const url = `/v1${http.path}`.replace(http.greedy ? `{${http.greedy}}` : /$^/, '*').replace(/\{(\w+)\}/g, ':$1');
    const greedy = http.greedy;
    const hasBody = http.method !== 'GET' && http.method !== 'DELETE';
    const emptySuccess = http.status === 204 || http.status === 205;
    const requiresAuth = op.access !== 'public';

    const answer = async (req: FastifyRequest, reply: FastifyReply) => {
        const authorization = req.headers.authorization;
        if (requiresAuth && !authorization) {
          return sendError(reply, publicError('unauthenticated', 'Authentication required: send `Authorization: Bearer <API token>`'));
        }
        try {
          const resolved = await deps.resolver.resolve(authorization, req.id);
          const wait = deps.limiter.hit(resolved.key ?? req.ip);
          if (wait > 0) return sendError(reply, publicError('rate_limited', 'Too many requests; retry later'), { 'retry-after': String(wait) });
          const body = req.body;
          if (hasBody && body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
            return sendError(reply, publicError('invalid_input', 'The request body must be a JSON object'));
          }
          const { '*': rest, ...params } = req.params as Record<string, string>;
          const input = { ...(req.query as object), ...(hasBody ? (body as object | undefined) : undefined), ...params, ...(greedy ? { [greedy]: rest } : {}) };
          // The storable-text rule on the raw input (unknown keys included), before a hop; services apply it to every call too.
          assertStorableInput(input);
          const call: CallContext = { actorHeader: resolved.header, requestId: req.id };
          const data = await deps.clients.get(op.service).call(op, input as never, call);
          if (call.events?.length) deps.resolver.evictFor(call.events);
          reply.code(http.status);
          return emptySuccess ? reply.send() : reply.send(data);
        } catch (err) {
          const pub = toPublicError(err);
          // A service logs its own failures under the same request id; the gateway logs what happened here.
          if (pub.status === 503) req.log.warn({ err, operation: op.id }, 'service unavailable');
          else if (pub.unexpected && !(err instanceof DomainError)) req.log.error({ err, operation: op.id }, 'request failed');
          return sendError(reply, pub);
        }
    };
    const operation = http.operationId;
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const started = performance.now();
      metrics.httpInFlight.inc();
      try {
        return await answer(req, reply);
      } finally {
        metrics.httpInFlight.dec();
        const labels = { operation, status: reply.statusCode };
        metrics.httpRequests.inc(labels);
        metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
      }
    };
    app.route({ method: http.method, url, handler });
    // `GET /v1` is the API's root as much as `GET /v1/`.
    if (http.path === '/') app.route({ method: http.method, url: '/v1', handler });
  }
}
