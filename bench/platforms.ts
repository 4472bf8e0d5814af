// The three servers the comparative benches (bench/run.ts, bench/sites.ts) measure, each in its own process(es), all
// running for the whole bench (so they see the same machine), and the run around them (`runComparative`):
//   (a) baseline: a bare fastify route doing a primary-key lookup with node-postgres (bench/baseline.ts);
//   (b) standalone: `quire start` (what `npm start` runs), in-process bus;
//   (c) distributed: the gateway and the four services as separate processes, on the bus the caller hands over.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createThrowawayDatabase, databaseUrl } from './database.ts';
import { childBaseEnv } from './env.ts';
import { deleteStreams, natsReachable } from './nats.ts';
import { freePort } from '@quire/kit';
import { ChildExitError, type ChildSpec, type Fleet } from './processes.ts';

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

/** One run of a comparative bench: the names of what it creates (`quire_<name>_<random id>`), and its admin token. */
export interface ComparativeRun {
  /** The bench's name in the names (`bench`, `bench_sites`). */
  name: string;
  runId: string;
  dbName: string;
  /** NATS_URL, for (c) (default nats://127.0.0.1:4222). */
  natsUrl: string;
  /** The NATS stream of (c) (the database's name in capitals), deleted at the end; its subjects' prefix. */
  natsStream: string;
  natsPrefix: string;
  /** QUIRE_ADMIN_TOKEN of every server. */
  adminToken: string;
  /** The environment of every server: the run's database, secrets and admin token, warnings only, on 127.0.0.1. */
  env: Record<string, string>;
}

export function comparativeRun(name: string): ComparativeRun {
  const runId = randomBytes(4).toString('hex');
  const dbName = `quire_${name}_${runId}`;
  const adminToken = `quire_admin_${randomBytes(24).toString('base64url')}`;
  return {
    name,
    runId,
    dbName,
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    natsStream: dbName.toUpperCase(),
    natsPrefix: dbName,
    adminToken,
    env: {
      ...childBaseEnv(),
      DATABASE_URL: databaseUrl(dbName),
      QUIRE_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      QUIRE_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
    },
  };
}

/** The bus of (c): the run's NATS stream when `wanted` and NATS answers, else none (an in-process bus in each). */
export async function busOf(run: ComparativeRun, wanted: boolean): Promise<Record<string, string>> {
  return wanted && (await natsReachable(run.natsUrl))
    ? { NATS_URL: run.natsUrl, NATS_STREAM: run.natsStream, NATS_SUBJECT_PREFIX: run.natsPrefix }
    : {};
}

/** SIGINT or SIGTERM, as a rejection; a second signal only says the bench is still stopping. */
function interruption(): { interrupted: Promise<never>; signalled: () => NodeJS.Signals | undefined } {
  let signalled: NodeJS.Signals | undefined;
  const interrupted = new Promise<never>((_, reject) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (signalled)
          return void console.error(
            `(${signal}: still stopping — waiting for every process to exit, then dropping the database)`,
          );
        signalled = signal;
        reject(new Error(`interrupted (${signal})`));
      });
    }
  });
  interrupted.catch(() => {});
  return { interrupted, signalled: () => signalled };
}

/**
 * Runs a comparative bench on the run's throwaway database and a data directory of its own, until `bench` ends, a
 * child exits or SIGINT/SIGTERM comes (`abort` then aborts what is under way); then stops every child and the NATS
 * streams (`stopPlatforms`), drops the database, removes the data directory, names the CPU profiles written and sets
 * the exit code (130 when interrupted, 1 when the bench failed).
 */
export async function runComparative(
  o: { run: ComparativeRun; fleet: Fleet; abort: AbortController; profile: string | undefined },
  bench: (dataDir: string) => Promise<void>,
): Promise<void> {
  const { interrupted, signalled } = interruption();
  const db = await createThrowawayDatabase(o.run.dbName);
  const dataDir = mkdtempSync(join(tmpdir(), `quire-${o.run.name.replaceAll('_', '-')}-`));
  mkdirSync(resultsDir, { recursive: true });
  const profilesBefore = new Set(readdirSync(resultsDir));
  let failure: unknown;
  try {
    await Promise.race([bench(dataDir), o.fleet.failed, interrupted]);
  } catch (err) {
    failure = err;
    o.abort.abort(err);
    const detail = err instanceof Error ? (signalled() ? err.message : err.stack) : String(err);
    console.error(`\nbench failed: ${err instanceof ChildExitError ? err.message : detail}\n`);
  } finally {
    console.log('stopping …');
    await stopPlatforms(o.fleet, o.run.natsUrl, o.run.natsStream);
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    for (const f of readdirSync(resultsDir).filter((f) => !profilesBefore.has(f)))
      console.log(
        `CPU profile of ${o.profile}: bench/results/${f}  (npx node bench/cpuprofile-top.mjs bench/results/${f})`,
      );
    console.log('done');
  }
  process.exitCode = signalled() ? 130 : failure ? 1 : 0;
}

/**
 * The data of the comparative benches, made once through the API at `base` (both platforms share the database): the
 * instance's organization (bootstrap) and one space. Answers the space's id and the `authorization` header.
 */
export async function seedBenchSpace(
  base: string,
  adminToken: string,
): Promise<{ spaceId: string; auth: Record<string, string> }> {
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`seeding: POST ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const boot = await post('/v1/admin/bootstrap', adminToken, { title: 'Bench Org', email: 'bench@quire.local' });
  const space = await post(`/v1/orgs/${boot.organization.id}/spaces`, boot.token, { title: 'Bench space' });
  return { spaceId: space.id as string, auth: { authorization: `Bearer ${boot.token}` } };
}

/**
 * Checks that every target answers the space before anything is measured. A gateway on another bus than the
 * platform that issued the token (the standalone seeds, on its in-process bus) learns the token by reloading its
 * known tokens on a miss, at most every 15 s (gateway/src/known-tokens.ts): a 401 is asked again for up to 30 s.
 */
export async function expectSpaceAnswered(
  targets: readonly { label: string; url: string; headers?: Record<string, string> }[],
  spaceId: string,
): Promise<void> {
  for (const t of targets) {
    const until = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(t.url, { headers: t.headers ?? {} });
      const body = (await res.json().catch(() => null)) as { id?: string } | null;
      if (res.ok && body?.id === spaceId) break;
      if (res.status !== 401 || Date.now() > until)
        throw new Error(`${t.label}: ${t.url} does not answer the space: ${res.status} ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}
