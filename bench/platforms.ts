// The three servers the comparative benches (bench/run.ts, bench/sites.ts) measure, each in its own process(es), all
// running for the whole bench (so they see the same machine):
//   (a) baseline: a bare fastify route doing a primary-key lookup with node-postgres (bench/baseline.ts);
//   (b) standalone: `quire start` (what `npm start` runs), in-process bus;
//   (c) distributed: the gateway and the four services as separate processes, on the bus the caller hands over.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteStreams } from './nats.ts';
import { freePort, type ChildSpec, type Fleet } from './processes.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const resultsDir = join(root, 'bench', 'results');

const SERVICES = ['org-admin', 'content', 'sites', 'integrations'] as const;
/** The processes of (c), for `pidsOf`. */
export const DISTRIBUTED = ['gateway', ...SERVICES] as const;

export interface PlatformsOptions {
  /** Environment of every server (database, secrets, log level, host). */
  env: Record<string, string>;
  /** The standalone's data directory. */
  dataDir: string;
  /** The bus settings of (c) (`NATS_URL`, `NATS_STREAM`, `NATS_SUBJECT_PREFIX`); empty for an in-process bus in each. */
  bus: Record<string, string>;
  /** Whether (c) is started at all. */
  distributed: boolean;
  /** BENCH_PROFILE: the process whose V8 CPU profile is written to bench/results/ when it stops. */
  profile: string | undefined;
}

export interface Platforms {
  port: { standalone: number; gateway: number; baseline: number };
  /** The pids of these children, when asked (a `Target`'s `pids`). */
  pidsOf(...names: string[]): () => number[];
}

/** Starts (b), then (c) (services, then the gateway), then (a), one after the other, each awaited until ready. */
export async function startPlatforms(fleet: Fleet, o: PlatformsOptions): Promise<Platforms> {
  const spec = (s: Omit<ChildSpec, 'cwd' | 'execArgv'>): ChildSpec => ({
    ...s,
    cwd: root,
    execArgv: o.profile === s.name ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
  });
  const port = { standalone: await freePort(), gateway: await freePort(), baseline: await freePort() };
  const svcPort = {
    'org-admin': await freePort(),
    content: await freePort(),
    sites: await freePort(),
    integrations: await freePort(),
  };
  const svcUrl = (name: keyof typeof svcPort) => `http://127.0.0.1:${svcPort[name]}`;
  const peers = {
    ORG_ADMIN_URL: svcUrl('org-admin'),
    CONTENT_URL: svcUrl('content'),
    SITES_URL: svcUrl('sites'),
    INTEGRATIONS_URL: svcUrl('integrations'),
  };

  // One after the other: both platforms migrate the same schemas (serialized by an advisory lock anyway).
  console.log('starting (b) standalone: quire start …');
  await fleet.start(
    spec({
      name: 'standalone',
      script: 'packages/cli/bin/quire.ts',
      args: ['start'],
      env: { ...o.env, PORT: String(port.standalone), QUIRE_DATA_DIR: o.dataDir },
      readyUrl: `http://127.0.0.1:${port.standalone}/healthz`,
      tier: 0,
    }),
  );
  if (o.distributed) {
    console.log(
      `starting (c) distributed: ${SERVICES.join(', ')}, gateway (${o.bus.NATS_URL ? 'NATS' : 'in-process bus per process'}) …`,
    );
    for (const name of SERVICES)
      await fleet.start(
        spec({
          name,
          script: `services/${name}/src/main.ts`,
          env: { ...o.env, ...peers, ...o.bus, PORT: String(svcPort[name]) },
          readyUrl: `${svcUrl(name)}/readyz`,
          tier: 1,
        }),
      );
    await fleet.start(
      spec({
        name: 'gateway',
        script: 'gateway/src/main.ts',
        env: { ...o.env, ...peers, ...o.bus, PORT: String(port.gateway) },
        readyUrl: `http://127.0.0.1:${port.gateway}/healthz`,
        tier: 0,
      }),
    );
  }
  console.log('starting (a) baseline …');
  await fleet.start(
    spec({
      name: 'baseline',
      script: 'bench/baseline.ts',
      env: { ...o.env, PORT: String(port.baseline) },
      readyUrl: `http://127.0.0.1:${port.baseline}/spaces/none`,
      ready: (res) => res.status === 404,
      tier: 0,
    }),
  );
  const pidsOf =
    (...names: string[]) =>
    () =>
      fleet.children.filter((c) => names.includes(c.spec.name)).flatMap((c) => (c.proc.pid ? [c.proc.pid] : []));
  return { port, pidsOf };
}

/**
 * Stops every child (gateway, standalone and baseline first, then the services; each awaited, SIGKILL after a
 * timeout) so nothing is left running against the database, printing the warnings; then deletes the NATS streams
 * `natsStream*` if a child used them.
 */
export async function stopPlatforms(fleet: Fleet, natsUrl: string, natsStream: string): Promise<void> {
  for (const w of await fleet.stopAll()) console.error(`warning: ${w}`);
  if (fleet.children.some((c) => c.spec.env.NATS_STREAM === natsStream))
    await deleteStreams(natsUrl, natsStream).catch((err: unknown) =>
      console.error(`warning: could not delete the NATS streams ${natsStream}*: ${(err as Error).message}`),
    );
}
