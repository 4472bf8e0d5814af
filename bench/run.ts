// npm run bench — one run, three measurements at the same load, each server in its own process:
//   (a) bare fastify + pg lookup (baseline), (b) the content service's procedure called directly
//   (tRPC over HTTP with a signed actor), (c) GET /v1/spaces/{id} through the gateway.
// Prints req/s and p99 of each and the ratio c/a. Env: DATABASE_URL (admin connection to create a
// throwaway database; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SECONDS (10),
// BENCH_CONNECTIONS (50), BENCH_PROFILE=gateway|content|org-admin (writes a V8 CPU profile to bench/results/).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ActorSigner } from '@quire/kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const dbName = `quire_bench_${randomBytes(4).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const secret = randomBytes(32).toString('hex');
const adminToken = `quire_admin_${randomBytes(24).toString('base64url')}`;
const children: ChildProcess[] = [];

const common = { DATABASE_URL: dbUrl, QUIRE_INTERNAL_SECRET: secret, LOG_LEVEL: 'warn', HOST: '127.0.0.1' };

function start(script: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const profile = process.env.BENCH_PROFILE && script.includes(`${process.env.BENCH_PROFILE}/`) ? ['--cpu-prof', `--cpu-prof-dir=${root}/bench/results`] : [];
  const child = fork(`${root}/${script}`, [], { env: { ...process.env, ...common, ...env }, execArgv: profile, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      try {
        if ((await fetch(readyUrl)).ok) return resolve(child);
      } catch {}
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error(`${script} did not become ready`));
      setTimeout(poll, 100);
    };
    void poll();
  });
}

async function measure(name: string, opts: autocannon.Options) {
  await autocannon({ ...opts, connections, duration: 2 }); // warm-up
  const r = await autocannon({ ...opts, connections, duration: seconds });
  const errors = r.errors + r.timeouts + r.non2xx;
  console.log(`${name.padEnd(58)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(r.latency.p99).padStart(4)} ms${errors ? `   (${errors} errors/non-2xx)` : ''}`);
  return r;
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${dbName}"`);
try {
  await start('services/org-admin/src/main.ts', { PORT: '3201', QUIRE_ADMIN_TOKEN: adminToken }, 'http://127.0.0.1:3201/readyz');
  await start('services/content/src/main.ts', { PORT: '3202' }, 'http://127.0.0.1:3202/readyz');
  const closed = 'http://127.0.0.1:9';
  await start('gateway/src/main.ts', { PORT: '3200', ORG_ADMIN_URL: 'http://127.0.0.1:3201', CONTENT_URL: 'http://127.0.0.1:3202', SITES_URL: closed, INTEGRATIONS_URL: closed }, 'http://127.0.0.1:3200/v1/openapi.json');
  await start('bench/baseline.ts', { PORT: '3203' }, 'http://127.0.0.1:3203/spaces/none').catch(() => undefined);

  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:3200${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const boot = await post('/v1/admin/bootstrap', adminToken, { title: 'Bench Org', email: 'bench@quire.local' });
  const space = await post(`/v1/orgs/${boot.organization.id}/spaces`, boot.token, { title: 'Bench space' });
  const actorHeader = new ActorSigner(secret).sign({ kind: 'user', userId: boot.user.id, memberships: [{ organization: boot.organization.id, role: 'admin', teams: [] }] }).header;

  console.log(`\nGET a space by id — ${connections} connections, ${seconds} s each (after a 2 s warm-up), node ${process.version}\n`);
  const a = await measure('(a) baseline: bare fastify + pg primary-key lookup', { url: `http://127.0.0.1:3203/spaces/${space.id}` });
  const b = await measure('(b) content service procedure spaces.get, called directly', {
    url: 'http://127.0.0.1:3202/trpc/spaces.get',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-quire-actor': actorHeader },
    body: JSON.stringify({ spaceId: space.id }),
  });
  const c = await measure('(c) GET /v1/spaces/{id} through the gateway', { url: `http://127.0.0.1:3200/v1/spaces/${space.id}`, headers: { authorization: `Bearer ${boot.token}` } });
  console.log(`\nratio b/a = ${(b.requests.average / a.requests.average).toFixed(2)}   ratio c/a = ${(c.requests.average / a.requests.average).toFixed(2)}   (goal: c/a >= 0.5 with p99 < 25 ms)\n`);
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
}
