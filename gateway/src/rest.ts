import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceName } from '@quire/contracts';
import { assertStorableInput, DomainError, metrics, publicError, toPublicError, type CallContext, type ServiceClients } from '@quire/kit';
import type { ActorResolver, RateLimiter } from './auth.ts';
import { sendError } from './errors.ts';
import type { GatewayContext, V1Route } from './v1-router.ts';

/**
 * Serves the v1 router's procedures over REST. trpc-to-openapi declares the routes (procedure meta) and
 * generates the OpenAPI document; its node handler is not used on the hot path because it builds a WHATWG
 * Request per call and matches routes by scanning regexes. Here each `meta.openapi` route is registered in
 * fastify's radix router and the procedure is invoked directly with path, query and body merged into its input.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: V1Route[],
  deps: { resolver: ActorResolver; clients: ServiceClients; limiter: RateLimiter; local: ReadonlySet<ServiceName> },
): void {
  for (const { op, procedure } of routes) {
    const http = op.http!;
    // A greedy parameter (a page path) spans segments: routed as a wildcard, handed over under its own name.
    const url = `/v1${http.path}`.replace(http.greedy ? `{${http.greedy}}` : /$^/, '*').replace(/\{(\w+)\}/g, ':$1');
    const greedy = http.greedy;
    const hasBody = http.method !== 'GET' && http.method !== 'DELETE';
    const emptySuccess = http.status === 204 || http.status === 205;
    const requiresAuth = op.access !== 'public';
    // A service in this process validates the input with the very same contract schema: one validation,
    // not two, so its procedure is called with the raw input. Over HTTP the gateway validates first and
    // answers a 400 without a hop.
    const local = deps.local.has(op.service);

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
          const data = local
            ? await deps.clients.get(op.service).call(op, input as never, call)
            : await procedure({ path: op.id, getRawInput: async () => input, ctx: { actor: resolved.actor, clients: deps.clients, call } satisfies GatewayContext, type: op.type, signal: undefined, batchIndex: 0 });
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
