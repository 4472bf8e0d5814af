// npm run bench:search — full-text search at 100,000 pages in one organization, through the real HTTP API.
//
// `quire start` (what `npm start` runs) as a child process on a throwaway database. The organization and its spaces
// are created through the API; then each space gets a live revision of BENCH_SEARCH_PAGES / BENCH_SEARCH_SPACES pages
// written straight into the content schema as the engine writes a snapshot revision (a `revision` row whose lineage is
// itself, one `revision_page` row per page, content-addressed `document` rows, the space's `revision_id` moved to it):
// writing 100,000 pages through change requests would take the bench an hour. The search index is then built by the
// service's own code — its search job, which indexes every space whose index is behind its live revision (set to scan
// every 2 s here) — and timed. Then autocannon (in this process) measures, after a warm-up:
//   1. GET /v1/orgs/{o}/search?query=<word>   one word in 5% of the pages, over every space (the goal: p95 < 50 ms);
//      eight such words (each in its own 5% of the pages, in the title of 1 in 50 of those), asked in turn, so no
//      answer is the same as the one before (nothing is cached across searches, but PostgreSQL's buffers)
//   2. the same with limit=10 (a search box's page of results; the API's default is 50)
//   3. GET /v1/spaces/{s}/search?query=<word>  the same words, one space
//   4. GET /v1/orgs/{o}/search?query=quorble   a word in 60% of the pages: ranking capped at QUIRE_SEARCH_CANDIDATES
// in BENCH_ROUNDS rounds (the cases alternating), and prints for each case its median round — req/s, p50, p95, p99 (from
// every response's latency) and the CPU time per request of the platform's
// process and of PostgreSQL's (from /proc). Env: DATABASE_URL (admin connection; default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_SEARCH_PAGES (100000), BENCH_SEARCH_SPACES (10),
// BENCH_CONNECTIONS (10), BENCH_SECONDS (10), BENCH_WARMUP (3 s per case, once), BENCH_ROUNDS (3), BENCH_KEEP_DB=1 (keeps the database, for EXPLAIN; its
// name is printed), BENCH_SEARCH_DB=<name> (measures again on a database kept by an earlier run: no seeding, no
// indexing, the database is left as it is), BENCH_PROFILE=1 (a V8 CPU profile of the platform, written to bench/results/
// when it stops), QUIRE_SEARCH_CANDIDATES (handed to the platform; its default otherwise).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { childBaseEnv, intEnv } from './env.ts';
import { cpuSeconds } from './measure.ts';
import { ChildExitError, Fleet, freePort, sleep } from './processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(root, 'bench', 'results');

const PAGES = intEnv('BENCH_SEARCH_PAGES', 100_000, 100);
const SPACES = intEnv('BENCH_SEARCH_SPACES', 10, 1);
const connections = intEnv('BENCH_CONNECTIONS', 10, 1);
const seconds = intEnv('BENCH_SECONDS', 10, 1);
const warmup = intEnv('BENCH_WARMUP', 3, 0);
const rounds = intEnv('BENCH_ROUNDS', 3, 1);

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = randomBytes(4).toString('hex');
const reused = process.env.BENCH_SEARCH_DB;
if (reused !== undefined && !/^[a-z0-9_]+$/.test(reused)) throw new Error('BENCH_SEARCH_DB: the name of a database kept by BENCH_KEEP_DB=1');
const dbName = reused ?? `quire_bench_search_${runId}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const adminToken = `quire_admin_${randomBytes(24).toString('base64url')}`;
const baseEnv = childBaseEnv();
const cap = process.env.QUIRE_SEARCH_CANDIDATES;

// ——— the content: deterministic pseudo-text ———

/** mulberry32: a small seeded generator, so every run writes the same pages. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'tu', 've', 'sen', 'dor', 'pli', 'gra', 'nu', 'bex', 'tal', 'fi', 'mon', 'ster', 'qua', 'rin', 'bo', 'del'];
/** 6,000 words; picked with a Zipf-like skew (a few frequent, many rare), as in prose. */
const VOCABULARY = [...new Set(Array.from({ length: 9_000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('')))].slice(0, 6_000);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * rand() ** 3)]!;
const sentence = (n: number, extra?: string) => {
  const words = Array.from({ length: n }, word);
  if (extra) words.splice(Math.floor(rand() * words.length), 0, extra);
  return `${words.join(' ')}.`;
};
const capitalized = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Words each in 5% of the pages (their own: page `i` has word `k` when (i + 3k) mod 20 = 7), searched in turn. */
const RARE = ['zephyr', 'quasar', 'nimbus', 'fjord', 'gazelle', 'tundra', 'vortex', 'sequoia'] as const;
const rareOf = (i: number) => RARE.findIndex((_, k) => (i + 3 * k) % 20 === 7);

/**
 * Page `i`: a title, and markdown of about 120 words in three sections; one of the `RARE` words in 40% of them (each
 * in 5%, in the title of 1 in 50 of those; `zephyr` written `zephyrs`, found by its stem), `quorble` in 60%.
 */
function pageContent(i: number): { title: string; markdown: string } {
  const k = rareOf(i);
  const rare = k < 0 ? undefined : RARE[k]!;
  const common = i % 5 < 3;
  const title = capitalized(`${word()} ${word()}${rare && (i + 3 * k) % 1000 === 7 ? ` ${rare}` : ''}`);
  const markdown = [
    `${capitalized(sentence(25, common ? 'quorble' : undefined))} ${sentence(15)}`,
    `## ${capitalized(word())} ${word()}`,
    `${capitalized(sentence(30, rare === 'zephyr' ? 'zephyrs' : rare))} ${sentence(10)}`,
    `## ${capitalized(word())}`,
    capitalized(sentence(35)),
  ].join('\n\n');
  return { title, markdown: `${markdown}\n` };
}

const newId = () => randomBytes(15).toString('base64url').replace(/[-_]/g, 'x').slice(0, 20);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A snapshot revision of `count` pages (100 top-level pages, the rest under them) written as the content engine
 * writes one (services/content revision-writer: `lineage` = itself; revision.repository insertPages columns;
 * document.repository: documents by SHA-256 of their markdown), made the space's live revision.
 */
async function writeRevision(db: pg.Client, spaceId: string, first: number, count: number): Promise<void> {
  const revision = newId();
  const now = new Date();
  await db.query('begin');
  await db.query(`insert into content.revision (id, space_id, parents, type, created_at, created_by, change_request_id, lineage, conflicts) values ($1, $2, '[]', 'edits', $3, null, null, $4, '[]')`, [revision, spaceId, now, JSON.stringify([revision])]);
  const tops: string[] = [];
  for (let start = 0; start < count; start += 2_000) {
    const rows = Array.from({ length: Math.min(2_000, count - start) }, (_, k) => {
      const n = start + k;
      const { title, markdown } = pageContent(first + n);
      const id = newId();
      const top = n < 100;
      if (top) tops.push(id);
      return { id, parent: top ? null : tops[n % tops.length]!, ord: `a${String(n).padStart(6, '0')}`, title, slug: `page-${first + n}`, markdown, hash: sha256(markdown) };
    });
    await db.query(`insert into content.document (hash, markdown, created_at) select * from unnest($1::text[], $2::text[], $3::timestamptz[]) on conflict (hash) do nothing`, [
      rows.map((r) => r.hash),
      rows.map((r) => r.markdown),
      rows.map(() => now),
    ]);
    await db.query(
      `insert into content.revision_page (revision_id, page_id, deleted, parent_id, ord, kind, title, slug, hidden, no_index, no_robots_index, document_hash, created_at, updated_at)
       select $1, u.id, false, u.parent, u.ord, 'document', u.title, u.slug, false, false, false, u.hash, $2, $2 from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) as u(id, parent, ord, title, slug, hash)`,
      [revision, now, rows.map((r) => r.id), rows.map((r) => r.parent), rows.map((r) => r.ord), rows.map((r) => r.title), rows.map((r) => r.slug), rows.map((r) => r.hash)],
    );
  }
  await db.query(`update content.space set revision_id = $1, updated_at = $2 where id = $3`, [revision, now, spaceId]);
  await db.query('commit');
}

// ——— measuring ———

interface Figures {
  /** CPU time per request of the platform's process and of PostgreSQL's processes, in µs (undefined without /proc). */
  platformUs: number | undefined;
  postgresUs: number | undefined;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  requests: number;
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

/** The processes of the PostgreSQL server (its backends serve the platform's pooled connections). */
function postgresPids(): number[] {
  try {
    return readdirSync('/proc').flatMap((d) => {
      if (!/^\d+$/.test(d)) return [];
      try {
        return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres' ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** CPU seconds of these processes, counting those that lived through the run (a backend may come and go). */
function cpuOf(pids: number[]): Map<number, number> {
  return new Map(pids.flatMap((pid) => {
    const s = cpuSeconds([pid]);
    return s === undefined ? [] : [[pid, s] as const];
  }));
}
const spent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, s]) => sum + (before.has(pid) ? s - before.get(pid)! : 0), 0);

/** Loads `base` with these paths, each connection asking them in turn. */
function load(base: string, paths: readonly string[], token: string, duration: number, platformPid: number | undefined): Promise<Figures> {
  const platformBefore = platformPid === undefined ? undefined : cpuSeconds([platformPid]);
  const postgresBefore = cpuOf(postgresPids());
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const requests = paths.map((path) => ({ method: 'GET' as const, path }));
    const instance = autocannon({ url: base, requests, headers: { authorization: `Bearer ${token}` }, connections, duration }, (err, result) => {
      if (err) return reject(err instanceof Error ? err : new Error(String(err)));
      latencies.sort((a, b) => a - b);
      const platformAfter = platformPid === undefined ? undefined : cpuSeconds([platformPid]);
      const postgresAfter = cpuOf(postgresPids());
      const perRequest = (seconds: number | undefined) => (seconds === undefined || !latencies.length ? undefined : (seconds / latencies.length) * 1e6);
      resolve({
        platformUs: perRequest(platformBefore === undefined || platformAfter === undefined ? undefined : platformAfter - platformBefore),
        postgresUs: perRequest(postgresBefore.size ? spent(postgresBefore, postgresAfter) : undefined),
        rps: result.requests.average,
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
        p99: percentile(latencies, 0.99),
        errors: result.errors + result.timeouts + result.non2xx,
        requests: latencies.length,
      });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

async function bench(fleet: Fleet, db: pg.Client, dataDir: string): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.log(`\nsearch bench: ${PAGES.toLocaleString('en')} pages in ${SPACES} spaces of one organization; ${availableParallelism()} cores, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const platform = await fleet.start({
    name: 'standalone',
    script: 'packages/cli/bin/quire.ts',
    args: ['start'],
    env: { ...baseEnv, DATABASE_URL: dbUrl, QUIRE_ADMIN_TOKEN: adminToken, QUIRE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', QUIRE_SEARCH_SCAN_EVERY_MS: '2000', ...(cap ? { QUIRE_SEARCH_CANDIDATES: cap } : {}) },
    readyUrl: `${base}/healthz`,
    cwd: root,
    tier: 0,
    execArgv: process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
  });
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  let token: string;
  let org: string;
  let spaces: { id: string }[];
  if (reused === undefined) {
    const boot = await call('POST', '/v1/admin/bootstrap', adminToken, { title: 'Bench Org', email: 'bench@quire.local' });
    token = boot.token;
    org = boot.organization.id;
    spaces = [];
    for (let i = 0; i < SPACES; i++) spaces.push(await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `Space ${i + 1}` }));
    const t0 = performance.now();
    const per = Math.ceil(PAGES / SPACES);
    for (let i = 0; i < SPACES; i++) await writeRevision(db, spaces[i]!.id, i * per, Math.min(per, PAGES - i * per));
    console.log(`seeded ${PAGES.toLocaleString('en')} pages (revisions, page rows, documents) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } else {
    org = (await db.query(`select id from org_admin.organization order by created_at limit 1`)).rows[0].id;
    spaces = (await db.query(`select id from content.space where organization_id = $1 and deleted_at is null order by created_at, id`, [org])).rows;
    token = (await call('POST', `/v1/admin/orgs/${org}/users`, adminToken, { email: `bench-${runId}@quire.local`, role: 'admin' })).token;
    console.log(`reusing ${dbName}: organization ${org}, ${spaces.length} spaces`);
  }

  const t0 = performance.now();
  const indexed = async () =>
    Number(
      (await db.query(`select count(*) as n from content.search_space st join content.space s on s.id = st.space_id where s.organization_id = $1 and st.revision_id = s.revision_id`, [org])).rows[0].n,
    );
  while ((await indexed()) < spaces.length) {
    if (performance.now() - t0 > 30 * 60_000) throw new Error('the search job did not index the spaces within 30 minutes');
    await sleep(500);
  }
  const indexMs = performance.now() - t0;
  const { rows: sizes } = await db.query(
    `select (select count(*) from content.search_page) as pages, (select count(*) from content.search_document) as documents, (select count(*) from content.search_section) as sections,
            pg_size_pretty(pg_total_relation_size('content.search_page') + pg_total_relation_size('content.search_document') + pg_total_relation_size('content.search_section')) as size`,
  );
  const pages = Number(sizes[0].pages);
  console.log(
    `${reused === undefined ? `indexed by the search job in ${(indexMs / 1000).toFixed(1)} s (${(pages / (indexMs / 1000)).toFixed(0)} pages/s)` : 'indexed'}: ${pages} pages, ${sizes[0].documents} documents, ${sizes[0].sections} sections, ${sizes[0].size}`,
  );
  // What autovacuum does after a bulk load anyway: statistics for the planner, the visibility map.
  if (reused === undefined) await db.query('vacuum analyze content.search_page, content.search_document, content.search_section');

  const share = async (w: string) => Number((await db.query(`select count(*) as n from content.search_page where tsv @@ to_tsquery('english', $1)`, [w])).rows[0].n) / pages;
  const shares: number[] = [];
  for (const w of RARE) shares.push(await share(w));
  const percent = (f: number) => `${(f * 100).toFixed(f < 0.1 ? 1 : 0)}%`;
  const query = (w: string, extra = '') => `?query=${w}${extra}`;
  const cases = [
    { label: `org search, 1 word in ${percent(Math.min(...shares))}–${percent(Math.max(...shares))} of pages`, paths: RARE.map((w) => `/v1/orgs/${org}/search${query(w)}`) },
    { label: 'org search, same words, limit=10', paths: RARE.map((w) => `/v1/orgs/${org}/search${query(w, '&limit=10')}`) },
    { label: `space search, same words (${Math.round(pages / spaces.length).toLocaleString('en')} pages)`, paths: RARE.map((w) => `/v1/spaces/${spaces[0]!.id}/search${query(w)}`) },
    { label: `org search, 1 word in ${percent(await share('quorble'))} of pages (capped)`, paths: [`/v1/orgs/${org}/search${query('quorble')}`] },
  ];
  const sample = await call('GET', cases[0]!.paths[0]!, token);
  console.log(`query "${RARE[0]}": count ${sample.count}, first page ${sample.items.reduce((n: number, s: { pages: unknown[] }) => n + s.pages.length, 0)} results in ${sample.items.length} spaces\n`);
  console.log(
    `${connections} connections; every case warmed up ${warmup} s, then ${rounds} round(s) of ${seconds} s per case, cases alternating; the median round of each case (p95 of every round in brackets); default limit (50 results), QUIRE_SEARCH_CANDIDATES ${cap ? `= ${cap}` : 'at its default'}`,
  );
  // The platform has just started: its first seconds (V8 compiling, each pooled connection planning the statements
  // it prepares) belong to no case.
  if (warmup) for (const c of cases) await load(base, c.paths, token, warmup, undefined);
  const measured = cases.map(() => [] as Figures[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries()) measured[i]!.push(await load(base, c.paths, token, seconds, platform.proc.pid));
  }
  console.log(`${'case'.padEnd(58)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}   CPU/request: platform, PostgreSQL`);
  for (const [i, c] of cases.entries()) {
    const all = measured[i]!;
    // The round whose req/s is the median, whole (its figures belong together).
    const f = [...all].sort((a, b) => a.rps - b.rps)[Math.floor(all.length / 2)]!;
    const ms = (v: number) => `${v.toFixed(0)} ms`.padStart(7);
    const us = (v: number | undefined) => (v === undefined ? '?' : `${(v / 1000).toFixed(2)} ms`).padStart(8);
    const errors = all.reduce((n, x) => n + x.errors, 0);
    console.log(
      `${c.label.padEnd(58)} ${f.rps.toFixed(0).padStart(7)} ${ms(f.p50)} ${ms(f.p95)} ${ms(f.p99)}   ${us(f.platformUs)} ${us(f.postgresUs)}${rounds > 1 ? `   [p95 ${all.map((x) => x.p95.toFixed(0)).join(', ')}]` : ''}${errors ? `  (${errors} errors/non-2xx)` : ''}`,
    );
  }
  // Requests still in flight when a run ended finish before the platform stops.
  await sleep(1_000);
  console.log(`\nload average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

// ——— main ———
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
if (reused === undefined) await admin.query(`create database "${dbName}"`);
const db = new pg.Client({ connectionString: dbUrl });
const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-search-'));
const fleet = new Fleet();
let failed = false;
try {
  await db.connect();
  await Promise.race([bench(fleet, db, dataDir), fleet.failed]);
} catch (err) {
  failed = true;
  console.error(`\nbench failed: ${err instanceof ChildExitError ? err.message : err instanceof Error ? err.stack : String(err)}\n`);
} finally {
  console.log('stopping …');
  for (const w of await fleet.stopAll()) console.error(`warning: ${w}`);
  await db.end().catch(() => {});
  if (reused !== undefined) console.log(`left the database as it was: ${dbName}`);
  else if (process.env.BENCH_KEEP_DB === '1') console.log(`kept the database: ${dbName} (BENCH_SEARCH_DB=${dbName} measures on it again)`);
  else await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
