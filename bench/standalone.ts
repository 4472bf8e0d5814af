// The standalone platform the benches content and pdf run against: on a throwaway database of the PostgreSQL at
// DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), with an organization and its
// admin's token; stopped and dropped at the end. BENCH_PLATFORM=process runs it as users do: `quire start` in a process
// of its own (the memory settings of quire's first line, as `npm start` gives them), measured through its HTTP port;
// by default (`in-process`) it runs inside the bench's own process, sharing its event loop with the load generator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startStandalone } from '@quire/cli';
import { createThrowawayDatabase } from './database.ts';
import { apiCaller, childBaseEnv } from './env.ts';
import { resultsDir, root } from './platforms.ts';
import { freePort } from '@quire/kit';
import { Fleet } from './processes.ts';

/** Where the platform runs: BENCH_PLATFORM=process (`quire start` as a child process) or in-process (the default). */
export const benchPlatformMode = (): 'process' | 'in-process' => {
  const mode = process.env.BENCH_PLATFORM || 'in-process';
  if (mode !== 'process' && mode !== 'in-process')
    throw new Error(`BENCH_PLATFORM must be process or in-process, not ${JSON.stringify(mode)}`);
  return mode;
};

export interface BenchPlatform {
  /** The platform's address (`http://127.0.0.1:<port>`). */
  base: string;
  /** A connection to the throwaway database, to look behind the API. */
  db: pg.Client;
  /** The organization's admin token, and the organization. */
  token: string;
  org: string;
  /** Where it runs (BENCH_PLATFORM), and its process id when it runs in a process of its own. */
  mode: 'process' | 'in-process';
  pid?: number | undefined;
  /** A JSON call to the API (throws on a non-2xx answer). */
  call(method: string, path: string, token: string, body?: unknown): Promise<any>;
  /** Stops the platform, drops the database, removes the data directory. */
  stop(): Promise<void>;
}

export async function startBenchPlatform(name: string, env: Record<string, string> = {}): Promise<BenchPlatform> {
  const database = await createThrowawayDatabase(`quire_bench_${name}_${randomBytes(4).toString('hex')}`);
  const dataDir = mkdtempSync(join(tmpdir(), `quire-bench-${name}-`));
  const db = new pg.Client({ connectionString: database.url });
  const platform = await startPlatform(database.url, dataDir, { PORT: '0', LOG_LEVEL: 'warn', ...env });
  const stop = async () => {
    await platform.stop();
    await db.end().catch(() => {});
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await db.connect();
    const base = platform.url;
    const call = apiCaller(base);
    const boot = await call('POST', '/v1/admin/bootstrap', platform.adminToken, {
      title: 'Bench',
      email: 'bench@quire.local',
    });
    return {
      base,
      db,
      token: boot.token,
      org: boot.organization.id,
      mode: platform.pid ? 'process' : 'in-process',
      pid: platform.pid,
      call,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The platform, in this process or as `quire start` in its own (BENCH_PLATFORM). */
async function startPlatform(
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string>,
): Promise<{ url: string; adminToken: string; pid?: number; stop(): Promise<void> }> {
  if (benchPlatformMode() === 'in-process')
    return startStandalone({ DATABASE_URL: databaseUrl, QUIRE_DATA_DIR: dataDir, ...env });
  const fleet = new Fleet();
  const port = await freePort();
  const adminToken = `quire_admin_${randomBytes(24).toString('base64url')}`;
  const child = await fleet.start({
    name: 'quire',
    script: 'packages/cli/bin/quire.ts',
    args: ['start'],
    cwd: root,
    env: {
      ...childBaseEnv(),
      ...env,
      DATABASE_URL: databaseUrl,
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_TOKEN: adminToken,
      QUIRE_INTERNAL_SECRET: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    readyUrl: `http://127.0.0.1:${port}/healthz`,
    tier: 0,
    // BENCH_PROFILE=process: a V8 CPU profile of `quire start`, written to bench/results/ when it stops.
    execArgv: process.env.BENCH_PROFILE === 'process' ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
  });
  return {
    url: `http://127.0.0.1:${port}`,
    adminToken,
    pid: child.proc.pid,
    stop: async () => {
      for (const w of await fleet.stopAll()) console.error(`warning: ${w}`);
    },
  };
}
