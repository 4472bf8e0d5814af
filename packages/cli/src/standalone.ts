import { writeFileSync } from 'node:fs';
import { contentService, loadContentConfig } from '@quire/content';
import { buildGateway, loadGatewayConfig, type Gateway } from '@quire/gateway';
import { integrationsService, loadIntegrationsConfig } from '@quire/integrations';
import { instanceHasOrganizations, loadOrgAdminConfig, orgAdminService } from '@quire/org-admin';
import { loadSitesConfig, sitesService } from '@quire/sites';
import {
  createBus,
  createLogger,
  InProcessTransport,
  startService,
  type EventBus,
  type Logger,
  type RunningService,
} from '@quire/kit';
import type { ServiceName } from '@quire/contracts';
import { adminTokenFile, defaultDataDir, persistentSecret } from './data-dir.ts';
import { startEmbeddedPostgres, type EmbeddedDb } from './embedded-db.ts';

export interface Standalone {
  url: string;
  /** The URL people use (`QUIRE_PUBLIC_URL`, else the gateway's loopback address on PORT). */
  publicUrl: string;
  /** Whether the instance has an organization yet (none before `quire bootstrap`). */
  hasOrganizations(): Promise<boolean>;
  adminToken: string;
  gateway: Gateway;
  services: RunningService[];
  bus: EventBus;
  /** The loopback URLs of the services (only with the `http` transport). */
  serviceUrls: Partial<Record<ServiceName, string>>;
  internalSecret: string;
  stop(): Promise<void>;
}

export interface StandaloneOptions {
  log?: Logger;
  /**
   * How the gateway and the services reach each other. `in-process` (the default, what `quire start` runs):
   * each other's procedures called directly, no socket. `http`: the services listen on loopback ports and
   * are called over HTTP exactly as in a distributed deployment (the tests run both).
   */
  transport?: 'in-process' | 'http';
}

/**
 * Every service and the gateway in one process, sharing one bus (in-process unless NATS_URL) and one
 * database (embedded PostgreSQL unless DATABASE_URL), each service in its own schema.
 */
export async function startStandalone(
  env: Record<string, string | undefined> = process.env,
  opts: StandaloneOptions = {},
): Promise<Standalone> {
  const dataDir = defaultDataDir(env);
  const log = opts.log ?? createLogger('quire', env.LOG_LEVEL ?? 'info');
  const { internalSecret, adminToken, secretsKey } = standaloneSecrets(env, dataDir);
  let db: EmbeddedDb | undefined;
  const databaseUrl = env.DATABASE_URL ?? (db = await startEmbeddedPostgres(dataDir, log)).url;
  const port = env.PORT ?? '8080';
  const publicUrl = env.QUIRE_PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  const common = {
    ...env,
    DATABASE_URL: databaseUrl,
    QUIRE_INTERNAL_SECRET: internalSecret,
    QUIRE_SECRETS_KEY: secretsKey,
    QUIRE_PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
  };

  const started: RunningService[] = [];
  let bus: EventBus | undefined;
  try {
    bus = await createBus(loadContentConfig(common), log, 'quire');
    await startServices(common, adminToken, { bus, log }, started);
    const serviceUrls = await connectServices(started, opts.transport);
    const gatewayConfig = loadGatewayConfig({ ...common, HOST: env.HOST ?? '127.0.0.1', PORT: port });
    const gateway = await buildGateway({
      config: gatewayConfig,
      log: log.child({ service: 'gateway' }),
      bus,
      serviceUrls,
      ...(opts.transport === 'http' ? {} : { local: started }),
    });
    await gateway.app.listen({ host: gatewayConfig.HOST, port: gatewayConfig.PORT });
    for (const svc of started) svc.startRelay();
    const addr = gateway.app.server.address();
    const url = `http://${gatewayConfig.HOST}:${typeof addr === 'object' && addr ? addr.port : gatewayConfig.PORT}`;
    const stop = stopperOf(gateway, started, bus, db);
    const orgAdmin = started[0]!;
    const hasOrganizations = () => instanceHasOrganizations(orgAdmin.deps.orm);
    return {
      url,
      publicUrl: env.QUIRE_PUBLIC_URL ?? url,
      hasOrganizations,
      adminToken,
      gateway,
      services: started,
      bus,
      serviceUrls,
      internalSecret,
      stop,
    };
  } catch (err) {
    for (const svc of started) await svc.close().catch(() => {});
    await bus?.close().catch(() => {});
    await db?.stop().catch(() => {});
    throw err;
  }
}

/** The secrets of the instance: from the environment, else kept in the data directory (made at first start). */
function standaloneSecrets(env: Record<string, string | undefined>, dataDir: string) {
  const internalSecret = env.QUIRE_INTERNAL_SECRET ?? persistentSecret(dataDir, 'internal-secret', 'internal');
  const adminToken = env.QUIRE_ADMIN_TOKEN ?? persistentSecret(dataDir, 'admin-token', 'quire_admin');
  // Secrets at rest are sealed with a key of their own, kept beside the internal secret (never derived from it).
  const secretsKey = env.QUIRE_SECRETS_KEY ?? persistentSecret(dataDir, 'secrets-key', 'secrets');
  if (env.QUIRE_ADMIN_TOKEN) writeFileSync(adminTokenFile(dataDir), `${adminToken}\n`, { mode: 0o600 });
  return { internalSecret, adminToken, secretsKey };
}

/** Starts the four services in turn, each added to `started` once up (so a failure can close those already up). */
async function startServices(
  common: Record<string, string | undefined>,
  adminToken: string,
  shared: { bus: EventBus; log: Logger },
  started: RunningService[],
): Promise<void> {
  started.push(
    await startService(orgAdminService, loadOrgAdminConfig({ ...common, QUIRE_ADMIN_TOKEN: adminToken }), shared),
  );
  started.push(await startService(contentService, loadContentConfig(common), shared));
  started.push(await startService(sitesService, loadSitesConfig(common), shared));
  started.push(await startService(integrationsService, loadIntegrationsConfig(common), shared));
}

/**
 * Lets the services call each other: over loopback HTTP (each listening on a free port; resolves to their URLs)
 * or through each other's procedures directly (no URLs).
 */
async function connectServices(
  started: RunningService[],
  transport: StandaloneOptions['transport'],
): Promise<Partial<Record<ServiceName, string>>> {
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  if (transport === 'http') {
    for (const svc of started) serviceUrls[svc.name] = await svc.listen(0);
    for (const svc of started)
      for (const [name, url] of Object.entries(serviceUrls))
        if (name !== svc.name) svc.deps.peers.setEndpoint(name as ServiceName, url);
  } else {
    for (const svc of started)
      for (const other of started)
        if (other !== svc) svc.deps.peers.use(other.name, new InProcessTransport(other.invoker));
  }
  return serviceUrls;
}

/** Stops everything once, the last started first: the gateway, the services, the bus, the embedded database. */
function stopperOf(
  gateway: Gateway,
  started: RunningService[],
  bus: EventBus,
  db: EmbeddedDb | undefined,
): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      await gateway.close();
      for (const svc of [...started].reverse()) await svc.close();
      await bus.close();
      await db?.stop();
    })());
}
