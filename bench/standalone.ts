// The standalone platform the in-process benches (content, pdf) run against: on a throwaway database of the
// PostgreSQL at DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), with an
// organization and its admin's token; stopped and dropped at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startStandalone } from '@quire/cli';
import { createThrowawayDatabase } from './database.ts';
import { apiCaller } from './env.ts';

export interface BenchPlatform {
  /** The platform's address (`http://127.0.0.1:<port>`). */
  base: string;
  /** A connection to the throwaway database, to look behind the API. */
  db: pg.Client;
  /** The organization's admin token, and the organization. */
  token: string;
  org: string;
  /** A JSON call to the API (throws on a non-2xx answer). */
  call(method: string, path: string, token: string, body?: unknown): Promise<any>;
  /** Stops the platform, drops the database, removes the data directory. */
  stop(): Promise<void>;
}

export async function startBenchPlatform(name: string, env: Record<string, string> = {}): Promise<BenchPlatform> {
  const database = await createThrowawayDatabase(`quire_bench_${name}_${randomBytes(4).toString('hex')}`);
  const dataDir = mkdtempSync(join(tmpdir(), `quire-bench-${name}-`));
  const db = new pg.Client({ connectionString: database.url });
  const platform = await startStandalone({
    DATABASE_URL: database.url,
    QUIRE_DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'warn',
    ...env,
  });
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
    return { base, db, token: boot.token, org: boot.organization.id, call, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
