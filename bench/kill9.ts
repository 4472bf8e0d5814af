// npm run kill9 — the standalone (`quire start`, in-process bus) killed with SIGKILL under 8 concurrent writers,
// restarted, and checked: every space whose creation was acknowledged (201) is still there and its
// `space.created` event reached the sites service's projection (sites.content_space) after the restart.
// KILL9_RUNS (20) runs in a row, each on a throwaway database of the PostgreSQL at DATABASE_URL (admin
// connection; default postgres://postgres@127.0.0.1:5432/postgres), which is never stopped: only the
// standalone child is killed. KILL9_WRITERS (8), KILL9_AFTER_MS (the kill comes 800–2,500 ms into the writes,
// at random, once KILL9_MIN_ACKNOWLEDGED (10) writes were acknowledged), KILL9_CONVERGE_MS (15,000: how long the
// events may take after the restart).
// Exits 1 when a run lost an acknowledged write or an event.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createThrowawayDatabase } from './database.ts';
import { childBaseEnv, intEnv } from './env.ts';
import { freePort } from '@quire/kit';
import { Child, sleep } from './processes.ts';

const RUNS = intEnv('KILL9_RUNS', 20, 1);
const WRITERS = intEnv('KILL9_WRITERS', 8, 1);
const AFTER_MIN_MS = intEnv('KILL9_AFTER_MS', 800, 0);
const CONVERGE_MS = intEnv('KILL9_CONVERGE_MS', 15_000, 1_000);
const MIN_ACKNOWLEDGED = intEnv('KILL9_MIN_ACKNOWLEDGED', 10, 0);

interface RunResult {
  acknowledged: number;
  lostWrites: number;
  missingEvents: number;
  convergeMs: number;
}

/** `quire start` on the database, as a child of its own process group (so SIGKILL reaches only it). */
async function startStandalone(env: Record<string, string>, port: number): Promise<Child> {
  const child = new Child({
    name: 'standalone',
    script: 'packages/cli/bin/quire.ts',
    args: ['start'],
    env: { ...childBaseEnv(), ...env, PORT: String(port) },
    cwd: process.cwd(),
    readyUrl: `http://127.0.0.1:${port}/readyz`,
    tier: 0,
  });
  await child.waitReady();
  return child;
}

/** Writers creating spaces until `stop`; the ids of the ones answered 201 go to `acknowledged`. */
async function write(
  base: string,
  token: string,
  org: string,
  stop: () => boolean,
  acknowledged: string[],
): Promise<void> {
  const writer = async (w: number) => {
    for (let i = 0; !stop(); i++) {
      try {
        const res = await fetch(`${base}/v1/orgs/${org}/spaces`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `w${w} #${i}` }),
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await res.json()) as { id?: string };
        if (res.status === 201 && body.id) acknowledged.push(body.id);
      } catch {
        // The process died under the request: not acknowledged, so it may or may not have happened.
        if (stop()) return;
        await sleep(20);
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
}

async function oneRun(n: number): Promise<RunResult> {
  const database = await createThrowawayDatabase(`quire_kill9_${randomBytes(4).toString('hex')}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-kill9-'));
  const adminToken = `quire_admin_${randomBytes(12).toString('hex')}`;
  const env = { DATABASE_URL: database.url, QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' };
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const db = new pg.Client({ connectionString: database.url });
  let child: Child | undefined;
  try {
    child = await startStandalone(env, port);
    const boot = await fetch(`${base}/v1/admin/bootstrap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Kill9', email: 'k9@quire.local' }),
    });
    const { token, organization } = (await boot.json()) as { token: string; organization: { id: string } };
    let killed = false;
    const acknowledged: string[] = [];
    const writing = write(base, token, organization.id, () => killed, acknowledged);
    // At a random moment, once some writes were acknowledged (a busy machine answers few at first).
    const killAt = Date.now() + AFTER_MIN_MS + Math.floor(Math.random() * 1_700);
    while (Date.now() < killAt || (acknowledged.length < MIN_ACKNOWLEDGED && Date.now() < killAt + 10_000))
      await sleep(20);
    child.stopping = true;
    process.kill(child.proc.pid!, 'SIGKILL');
    await child.closed;
    killed = true;
    await writing;

    child = await startStandalone(env, port);
    const started = Date.now();
    await db.connect();
    const count = async () => {
      const { rows } = await db.query<{ present: number; projected: number }>(
        `select (select count(*)::int from content.space where id = any($1)) as present,
                (select count(*)::int from sites.content_space where id = any($1)) as projected`,
        [acknowledged],
      );
      return rows[0]!;
    };
    let c = await count();
    while (c.projected < acknowledged.length && Date.now() - started < CONVERGE_MS) {
      await sleep(100);
      c = await count();
    }
    const convergeMs = Date.now() - started;
    const result = {
      acknowledged: acknowledged.length,
      lostWrites: acknowledged.length - c.present,
      missingEvents: acknowledged.length - c.projected,
      convergeMs,
    };
    console.log(`run ${n}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await child?.stop().catch(() => {});
    await db.end().catch(() => {});
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: RunResult[] = [];
for (let n = 1; n <= RUNS; n++) results.push(await oneRun(n));
const sum = (k: keyof RunResult) => results.reduce((a, r) => a + r[k], 0);
const failed = results.filter((r) => r.lostWrites || r.missingEvents).length;
const converge = results.map((r) => r.convergeMs).sort((a, b) => a - b);
console.log(
  `kill -9 × ${RUNS} under ${WRITERS} writers: ${sum('acknowledged')} acknowledged writes, ${sum('lostWrites')} lost, ` +
    `${sum('missingEvents')} events missing; runs failed: ${failed}; ` +
    `projection caught up ${converge[0]}–${converge.at(-1)} ms after the restart`,
);
process.exitCode = failed ? 1 : 0;
