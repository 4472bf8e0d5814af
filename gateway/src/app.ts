import type { FastifyInstance } from 'fastify';
import { HTTP_OPERATIONS, SERVICES, type ServiceName } from '@quire/contracts';
import {
  ActorSigner,
  createHttpApp,
  InProcessTransport,
  metrics,
  serviceUrlsOf,
  ServiceClients,
  type EventBus,
  type Logger,
  type RunningService,
} from '@quire/kit';
import { ActorResolver } from './auth.ts';
import { KnownTokens } from './known-tokens.ts';
import { registerDocs } from './docs.ts';
import { registerDownloads } from './downloads.ts';
import { registerIcons } from './icons.ts';
import { registerPublishedContentReads, registerPublishedSites } from './published.ts';
import { registerSignIn } from './sign-in.ts';
import { registerGitHooks } from './git-hooks.ts';
import { registerFontRoutes } from './fonts.ts';
import { registerCollabForwarding } from './collab.ts';
import type { GatewayConfig } from './env.ts';
import { httpErrorOptions, installErrorHandlers } from './errors.ts';
import { buildOpenApiDocument, SERVICE_ROUTERS } from './openapi.ts';
import { registerRateLimits, trustProxyOf, type RateLimits } from './rate-limit.ts';
import { registerRestRoutes } from './rest.ts';
import { registerSessionAuth } from './session-auth.ts';
import { registerWebApp } from './web-app.ts';

export const API_VERSION = '0.1.0';
/** How long `/readyz` waits for each service's own `/readyz` (they are asked together). */
const READY_TIMEOUT_MS = 900;

export interface GatewayDeps {
  config: GatewayConfig;
  log: Logger;
  /** For cache eviction on membership events; without one, entries simply expire. */
  bus?: EventBus;
  /** Base URLs of the services (defaults: the `*_URL` settings). */
  serviceUrls?: Partial<Record<ServiceName, string>>;
  /** Services running in this very process (standalone): called through their procedures, with no socket. */
  local?: RunningService[];
}

export interface Gateway {
  app: FastifyInstance;
  close(): Promise<void>;
}

/** The only public HTTP surface: /v1 REST, auth, limits, the OpenAPI document, health. */
export async function buildGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config } = deps;
  const { clients, readiness } = connectServices(deps);
  // With a bus, forged tokens are told apart from issued ones without a lookup (the known tokens, kept by events).
  const known = deps.bus ? new KnownTokens(clients, deps.log) : undefined;
  const resolver = new ActorResolver(clients, config.QUIRE_ACTOR_CACHE_MS, known);
  if (deps.bus) await resolver.listen(deps.bus);
  void known?.start();
  const { app, limits } = await createGatewayApp(config, deps.log);
  registerApiRoutes(app, config, { resolver, clients, limits });
  registerHealthRoutes(app, config, readiness);
  registerWebApp(app, { clients, publicUrl: config.QUIRE_PUBLIC_URL, log: deps.log });
  registerCollabForwarding(app, {
    clients,
    resolver,
    publicUrl: config.QUIRE_PUBLIC_URL,
    local: deps.local?.find((s) => s.name === 'content'),
    contentUrl: { ...serviceUrlsOf(config), ...deps.serviceUrls }.content,
  });

  return {
    app,
    close: async () => {
      await app.close();
      known?.stop();
      await resolver.close();
      await clients.close();
    },
  };
}

/** How a service's readiness is asked: its own `/readyz`, or the service itself when it runs in this process. */
type Readiness = Map<ServiceName, () => Promise<boolean>>;

/** The clients of the services (in-process transports for the local ones) and how to ask each if it is ready. */
function connectServices(deps: GatewayDeps): { clients: ServiceClients; readiness: Readiness } {
  const urls = { ...serviceUrlsOf(deps.config), ...deps.serviceUrls };
  const clients = new ServiceClients(urls, new ActorSigner(deps.config.QUIRE_INTERNAL_SECRET), 'gateway');
  const readiness: Readiness = new Map<ServiceName, () => Promise<boolean>>(
    SERVICES.map((service) => [
      service,
      async () => {
        try {
          return (await fetch(`${urls[service]}/readyz`, { signal: AbortSignal.timeout(READY_TIMEOUT_MS) })).ok;
        } catch {
          return false;
        }
      },
    ]),
  );
  for (const svc of deps.local ?? []) {
    clients.use(svc.name, new InProcessTransport(svc.invoker));
    readiness.set(svc.name, () => svc.ready());
  }
  return { clients, readiness };
}

/** The fastify app: JSON bodies only, the error handlers, the rate limits, the request id on every answer. */
async function createGatewayApp(
  config: GatewayConfig,
  log: Logger,
): Promise<{ app: FastifyInstance; limits: RateLimits }> {
  const app = createHttpApp(log, config.QUIRE_BODY_LIMIT, {
    ...httpErrorOptions(),
    ...trustProxyOf(config.QUIRE_TRUST_PROXY),
  });
  // JSON only: other media types get 415 instead of reaching an operation as a string.
  app.removeContentTypeParser('text/plain');
  installErrorHandlers(app);
  const limits = await registerRateLimits(app, {
    perToken: config.QUIRE_RATE_LIMIT_PER_MINUTE,
    perAddress: config.QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE,
    authFailures: config.QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    windowMs: 60_000,
  });
  // Hooks on every request are callback-style where they do no I/O: an async hook costs a promise and a microtask
  // hop on every request, whatever it does.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  return { app, limits };
}

/** What the gateway serves: the OpenAPI document and its reference, the operations, downloads, sites, sign-in, git. */
function registerApiRoutes(
  app: FastifyInstance,
  config: GatewayConfig,
  deps: { resolver: ActorResolver; clients: ServiceClients; limits: RateLimits },
): void {
  const { resolver, clients, limits } = deps;
  const document = buildOpenApiDocument(SERVICE_ROUTERS, HTTP_OPERATIONS, {
    baseUrl: config.QUIRE_PUBLIC_URL,
    version: API_VERSION,
  });
  const documentJson = JSON.stringify(document);
  app.get('/v1/openapi.json', async (_req, reply) => reply.type('application/json').send(documentJson));
  registerDocs(app, { apiUrl: config.QUIRE_PUBLIC_URL });
  registerSessionAuth(app, { clients, resolver });
  registerRestRoutes(app, HTTP_OPERATIONS, { resolver, clients, limits });
  registerDownloads(app, { secret: config.QUIRE_INTERNAL_SECRET, clients });
  registerIcons(app);
  registerPublishedSites(app, { clients, publicUrl: config.QUIRE_PUBLIC_URL });
  registerPublishedContentReads(app, {
    clients,
    resolver,
    secret: config.QUIRE_INTERNAL_SECRET,
    publicUrl: config.QUIRE_PUBLIC_URL,
  });
  registerSignIn(app, { clients, resolver, publicUrl: config.QUIRE_PUBLIC_URL });
  registerGitHooks(app, { clients, limits });
  registerFontRoutes(app, { clients });
}

/** `/metrics`, `/healthz` and `/readyz`. */
function registerHealthRoutes(app: FastifyInstance, config: GatewayConfig, readiness: Readiness): void {
  // Prometheus text, no token (`QUIRE_METRICS=0` turns it off); in standalone it covers the services in this process too.
  if (config.QUIRE_METRICS)
    app.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.text()));

  // Liveness: the gateway answers, whatever its services are doing (never waits on one).
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Readiness: every service ready (its database and bus reachable), answered within a second.
  app.get('/readyz', async (_req, reply) => {
    const checks = await Promise.all(
      SERVICES.map(async (service) => [service, (await readiness.get(service)!()) ? 'ready' : 'unavailable'] as const),
    );
    const ok = checks.every(([, s]) => s === 'ready');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', services: Object.fromEntries(checks) });
  });
}
