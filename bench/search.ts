// npm run bench:search — full-text search, through the real HTTP API, on spaces built the two ways (bench/build.ts),
// figures side by side:
//   - api (default, first): each space written through the HTTP API as users do — one change request of insert_page
//     batches of 50, merged, then 3 rounds of small change requests (10 pages edited) merged on top;
//   - seeded: each space's pages written straight into the content schema as one snapshot revision.
// Each mode runs on its own throwaway database: `quire start` (what `npm start` runs) as a child process, the organization
// and its spaces created through the API, the content written, the search index built by the service's own code (its
// event consumer and its search job, set to scan every 2 s here) and waited for, then autocannon (in this process)
// measures, after a warm-up:
//   1. GET /v1/orgs/{o}/search?query=<word>   one word in 5% of the pages, over every space (the goal: p95 < 50 ms);
//      eight such words (each in its own 5% of the pages, in the title of 1 in 50 of those), asked in turn, so no
//      answer is the same as the one before (nothing is cached across searches, but PostgreSQL's buffers)
//   2. the same with limit=10 (a search box's page of results; the API's default is 50)
//   3. GET /v1/spaces/{s}/search?query=<word>  the same words, one space
//   4. GET /v1/orgs/{o}/search?query=quorble   a word in 60% of the pages: ranking capped at QUIRE_SEARCH_CANDIDATES
// in BENCH_ROUNDS rounds (the cases alternating), and prints for each case its median round — req/s, p50, p95, p99 (from
// every response's latency) and the CPU time per request of the platform's process and of PostgreSQL's (from /proc).
// Env: DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_MODE (api,seeded |
// api | seeded), BENCH_SEARCH_PAGES (5000; the issue's sizes: 20000 in 1 space, 100000 over 10), BENCH_SEARCH_SPACES
// (1), BENCH_CONNECTIONS (10), BENCH_SECONDS (10), BENCH_WARMUP (3 s per case, once), BENCH_ROUNDS (3),
// BENCH_SETTLE (30: seconds idle before the platform's memory is read again), BENCH_KEEP_DB=1 (keeps the databases,
// for EXPLAIN; their names are printed), BENCH_SEARCH_DB=<name> (measures again on a database kept by an earlier run:
// no building, no indexing, left as it is), BENCH_PROFILE=1 (a V8 CPU profile of the platform, written to
// bench/results/ when it stops), BENCH_NODE_FLAGS (Node flags for the platform after quire's own memory settings, e.g.
// `--heap-growing-percent=0 --max-semi-space-size=0` for V8's defaults), QUIRE_SEARCH_CANDIDATES (handed to the platform).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { API_BUILD_ENV, buildModes, buildThroughApi, lineageOf, seedRevision, type BuildMode } from './build.ts';
import { ADMIN_URL, databaseUrl } from './database.ts';
import { apiCaller, childBaseEnv, intEnv, loadSettings } from './env.ts';
import { cpuSeconds, heapMiB, loadAverage, memoryMiB } from './measure.ts';
import { freePort } from '@quire/kit';
import { ChildExitError, Fleet, sleep } from './processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = join(root, 'bench', 'results');

const PAGES = intEnv('BENCH_SEARCH_PAGES', 5_000, 100);
const SPACES = intEnv('BENCH_SEARCH_SPACES', 1, 1);
const { connections, seconds, rounds, warmup } = loadSettings({ connections: 10, seconds: 10, rounds: 3, warmup: 3 });
const settle = intEnv('BENCH_SETTLE', 30, 0);

const runId = randomBytes(4).toString('hex');
const reused = process.env.BENCH_SEARCH_DB;
if (reused !== undefined && !/^[a-z0-9_]+$/.test(reused))
  throw new Error('BENCH_SEARCH_DB: the name of a database kept by BENCH_KEEP_DB=1');
const modes: BuildMode[] = reused === undefined ? buildModes() : ['seeded'];
const dbNameOf = (mode: BuildMode) => reused ?? `quire_bench_search_${mode}_${runId}`;
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
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'tu',
  've',
  'sen',
  'dor',
  'pli',
  'gra',
  'nu',
  'bex',
  'tal',
  'fi',
  'mon',
  'ster',
  'qua',
  'rin',
  'bo',
  'del',
];
/** 6,000 words; picked with a Zipf-like skew (a few frequent, many rare), as in prose. */
const VOCABULARY = [
  ...new Set(
    Array.from({ length: 9_000 }, () =>
      Array.from({ length: 2 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join(
        '',
      ),
    ),
  ),
].slice(0, 6_000);
/** The generator of the page being written: each page's text depends on its number only (same pages in both modes). */
let pageRand = rand;
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * pageRand() ** 3)]!;
const sentence = (n: number, extra?: string) => {
  const words = Array.from({ length: n }, word);
  if (extra) words.splice(Math.floor(pageRand() * words.length), 0, extra);
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
  pageRand = random(1_000_003 + i);
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

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

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
  return new Map(
    pids.flatMap((pid) => {
      const s = cpuSeconds([pid]);
      return s === undefined ? [] : [[pid, s] as const];
    }),
  );
}
const spent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, s]) => sum + (before.has(pid) ? s - before.get(pid)! : 0), 0);

/** Loads `base` with these paths, each connection asking them in turn. */
function load(
  base: string,
  paths: readonly string[],
  token: string,
  duration: number,
  platformPid: number | undefined,
): Promise<Figures> {
  const platformBefore = platformPid === undefined ? undefined : cpuSeconds([platformPid]);
  const postgresBefore = cpuOf(postgresPids());
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const requests = paths.map((path) => ({ method: 'GET' as const, path }));
    const instance = autocannon(
      { url: base, requests, headers: { authorization: `Bearer ${token}` }, connections, duration },
      (err, result) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        latencies.sort((a, b) => a - b);
        const platformAfter = platformPid === undefined ? undefined : cpuSeconds([platformPid]);
        const postgresAfter = cpuOf(postgresPids());
        const perRequest = (seconds: number | undefined) =>
          seconds === undefined || !latencies.length ? undefined : (seconds / latencies.length) * 1e6;
        resolve({
          platformUs: perRequest(
            platformBefore === undefined || platformAfter === undefined ? undefined : platformAfter - platformBefore,
          ),
          postgresUs: perRequest(postgresBefore.size ? spent(postgresBefore, postgresAfter) : undefined),
          rps: result.requests.average,
          p50: percentile(latencies, 0.5),
          p95: percentile(latencies, 0.95),
          p99: percentile(latencies, 0.99),
          errors: result.errors + result.timeouts + result.non2xx,
          requests: latencies.length,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

interface ModeResult {
  cases: { label: string; figures: Figures; rounds: Figures[] }[];
  notes: string[];
}

/** The platform's memory now, for the report: RSS and its peak, and where it is (the main thread's heap). */
async function memoryLine(pid: number | undefined, base: string, moment: string): Promise<string | undefined> {
  const memory = pid ? memoryMiB(pid) : undefined;
  if (!memory) return undefined;
  const heap = await heapMiB(base);
  const where = heap
    ? `; main thread's V8 heap ${heap.heapUsed.toFixed(0)} MiB used of ${heap.heapTotal.toFixed(0)}, external ${heap.external.toFixed(0)} MiB`
    : '';
  return `platform memory ${moment}: RSS ${memory.rss.toFixed(0)} MiB (peak ${memory.peak.toFixed(0)} MiB)${where}`;
}

async function bench(
  fleet: Fleet,
  db: pg.Client,
  dataDir: string,
  mode: BuildMode,
  dbUrl: string,
): Promise<ModeResult> {
  const notes: string[] = [];
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.log(
    `\nsearch bench (${mode === 'api' ? 'API-built' : 'SQL-seeded'}): ${PAGES.toLocaleString('en')} pages in ${SPACES} spaces of one organization; ${availableParallelism()} cores, node ${process.version}, load average ${loadAverage()}`,
  );
  const platform = await fleet.start({
    name: 'standalone',
    script: 'packages/cli/bin/quire.ts',
    args: ['start'],
    env: {
      ...baseEnv,
      DATABASE_URL: dbUrl,
      ...API_BUILD_ENV,
      QUIRE_ADMIN_TOKEN: adminToken,
      QUIRE_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      QUIRE_SEARCH_SCAN_EVERY_MS: '2000',
      ...(cap ? { QUIRE_SEARCH_CANDIDATES: cap } : {}),
    },
    readyUrl: `${base}/healthz`,
    cwd: root,
    tier: 0,
    execArgv: [
      ...(process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : []),
      ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    ],
  });
  const call = apiCaller(base);
  let token: string;
  let org: string;
  let spaces: { id: string }[];
  if (reused === undefined) {
    const boot = await call('POST', '/v1/admin/bootstrap', adminToken, {
      title: 'Bench Org',
      email: 'bench@quire.local',
    });
    token = boot.token;
    org = boot.organization.id;
    spaces = [];
    for (let i = 0; i < SPACES; i++)
      spaces.push(await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `Space ${i + 1}` }));
    const t0 = performance.now();
    const per = Math.ceil(PAGES / SPACES);
    for (let i = 0; i < SPACES; i++) {
      const [first, count] = [i * per, Math.min(per, PAGES - i * per)];
      if (mode === 'api') await buildThroughApi(call, token, spaces[i]!.id, pageContent, first, count, 3);
      else await seedRevision(db, spaces[i]!.id, pageContent, first, count);
    }
    const built = `${mode === 'api' ? 'written through the API (change requests of 50 inserts, merged, 3 small merges on top)' : 'seeded (revisions, page rows, documents)'}: ${PAGES.toLocaleString('en')} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    console.log(built);
    notes.push(built);
    const lineage = await lineageOf(db, spaces[0]!.id);
    notes.push(
      `live revision of space 1: lineage of ${lineage.revisions} revisions, ${lineage.rows} rows for ${lineage.pages} pages`,
    );
  } else {
    org = (await db.query(`select id from org_admin.organization order by created_at limit 1`)).rows[0].id;
    spaces = (
      await db.query(
        `select id from content.space where organization_id = $1 and deleted_at is null order by created_at, id`,
        [org],
      )
    ).rows;
    token = (
      await call('POST', `/v1/admin/orgs/${org}/users`, adminToken, {
        email: `bench-${runId}@quire.local`,
        role: 'admin',
      })
    ).token;
    console.log(`reusing ${reused}: organization ${org}, ${spaces.length} spaces`);
  }

  const t0 = performance.now();
  const indexed = async () =>
    Number(
      (
        await db.query(
          `select count(*) as n from content.search_space st join content.space s on s.id = st.space_id where s.organization_id = $1 and st.revision_id = s.revision_id`,
          [org],
        )
      ).rows[0].n,
    );
  while ((await indexed()) < spaces.length) {
    if (performance.now() - t0 > 30 * 60_000)
      throw new Error('the search job did not index the spaces within 30 minutes');
    await sleep(500);
  }
  const indexMs = performance.now() - t0;
  const { rows: sizes } = await db.query(
    `select (select count(*) from content.search_page) as pages, (select count(*) from content.search_document) as documents, (select count(*) from content.search_section) as sections,
            pg_size_pretty(pg_total_relation_size('content.search_page') + pg_total_relation_size('content.search_document') + pg_total_relation_size('content.search_section')) as size`,
  );
  const pages = Number(sizes[0].pages);
  notes.push(
    `index: ${pages} pages, ${sizes[0].documents} documents, ${sizes[0].sections} sections, ${sizes[0].size}${reused === undefined ? `, built in ${(indexMs / 1000).toFixed(1)} s` : ''}`,
  );
  console.log(
    `${reused === undefined ? `indexed by the search job in ${(indexMs / 1000).toFixed(1)} s (${(pages / (indexMs / 1000)).toFixed(0)} pages/s)` : 'indexed'}: ${pages} pages, ${sizes[0].documents} documents, ${sizes[0].sections} sections, ${sizes[0].size}`,
  );
  // Seeded: what autovacuum does after a bulk load anyway (statistics for the planner, the visibility map). Built
  // through the API: nothing, the platform is measured as it left its tables.
  if (reused === undefined && mode === 'seeded')
    await db.query('vacuum analyze content.search_page, content.search_document, content.search_section');

  const share = async (w: string) =>
    Number(
      (await db.query(`select count(*) as n from content.search_page where tsv @@ to_tsquery('english', $1)`, [w]))
        .rows[0].n,
    ) / pages;
  const shares: number[] = [];
  for (const w of RARE) shares.push(await share(w));
  const percent = (f: number) => `${(f * 100).toFixed(f < 0.1 ? 1 : 0)}%`;
  const query = (w: string, extra = '') => `?query=${w}${extra}`;
  const cases = [
    {
      label: `org search, 1 word in ${percent(Math.min(...shares))}–${percent(Math.max(...shares))} of pages`,
      paths: RARE.map((w) => `/v1/orgs/${org}/search${query(w)}`),
    },
    {
      label: 'org search, same words, limit=10',
      paths: RARE.map((w) => `/v1/orgs/${org}/search${query(w, '&limit=10')}`),
    },
    {
      label: `space search, same words (${Math.round(pages / spaces.length).toLocaleString('en')} pages)`,
      paths: RARE.map((w) => `/v1/spaces/${spaces[0]!.id}/search${query(w)}`),
    },
    {
      label: `org search, 1 word in ${percent(await share('quorble'))} of pages (capped)`,
      paths: [`/v1/orgs/${org}/search${query('quorble')}`],
    },
  ];
  const sample = await call('GET', cases[0]!.paths[0]!, token);
  console.log(
    `query "${RARE[0]}": count ${sample.count}, first page ${sample.items.reduce((n: number, s: { pages: unknown[] }) => n + s.pages.length, 0)} results in ${sample.items.length} spaces\n`,
  );
  console.log(
    `${connections} connections; every case warmed up ${warmup} s, then ${rounds} round(s) of ${seconds} s per case, cases alternating; the median round of each case (p95 of every round in brackets); default limit (50 results), QUIRE_SEARCH_CANDIDATES ${cap ? `= ${cap}` : 'at its default'}`,
  );
  // The platform has just started: its first seconds (V8 compiling, each pooled connection planning the statements
  // it prepares) belong to no case.
  if (warmup) for (const c of cases) await load(base, c.paths, token, warmup, undefined);
  const measured = cases.map(() => [] as Figures[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of cases.entries())
      measured[i]!.push(await load(base, c.paths, token, seconds, platform.proc.pid));
  }
  console.log(
    `${'case'.padEnd(58)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}   CPU/request: platform, PostgreSQL`,
  );
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
  // Requests still in flight when a run ended finish before the platform stops. Memory is read then, and again once
  // the platform has been idle for BENCH_SETTLE seconds (V8's memory reducer shrinks the heap of an idle process).
  await sleep(1_000);
  for (const moment of ['after the run', `after ${settle} s idle`]) {
    if (moment !== 'after the run') await sleep(settle * 1_000);
    const line = await memoryLine(platform.proc.pid, base, moment);
    if (line) {
      console.log(line);
      notes.push(line);
    }
  }
  console.log(`\nload average now ${loadAverage()}`);
  return {
    cases: cases.map((c, i) => ({
      label: c.label,
      figures: [...measured[i]!].sort((a, b) => a.rps - b.rps)[Math.floor(measured[i]!.length / 2)]!,
      rounds: measured[i]!,
    })),
    notes,
  };
}

// ——— main ———
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
const results = new Map<BuildMode, ModeResult>();
let failed = false;
for (const mode of modes) {
  const dbName = dbNameOf(mode);
  if (reused === undefined) await admin.query(`create database "${dbName}"`);
  const db = new pg.Client({ connectionString: databaseUrl(dbName) });
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-search-'));
  const fleet = new Fleet();
  try {
    await db.connect();
    results.set(
      mode,
      await Promise.race([
        bench(fleet, db, dataDir, mode, databaseUrl(dbName)),
        fleet.failed.then(() => {
          throw new Error('the platform stopped');
        }),
      ]),
    );
  } catch (err) {
    failed = true;
    console.error(
      `\nbench failed: ${err instanceof ChildExitError ? err.message : err instanceof Error ? err.stack : String(err)}\n`,
    );
  } finally {
    console.log('stopping …');
    for (const w of await fleet.stopAll()) console.error(`warning: ${w}`);
    await db.end().catch(() => {});
    if (reused !== undefined) console.log(`left the database as it was: ${dbName}`);
    else if (process.env.BENCH_KEEP_DB === '1')
      console.log(`kept the database: ${dbName} (BENCH_SEARCH_DB=${dbName} measures on it again)`);
    else await admin.query(`drop database if exists "${dbName}" with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) break;
}
await admin.end();
if (results.size) {
  const label = (m: BuildMode) => (m === 'api' ? 'API-built' : 'SQL-seeded');
  console.log(
    `\nside by side (${PAGES.toLocaleString('en')} pages in ${SPACES} space(s); median round; req/s, p50, p95, p99 in ms):`,
  );
  for (const [m, r] of results) for (const n of r.notes) console.log(`  ${label(m).padEnd(10)} ${n}`);
  const first = [...results.values()][0]!;
  console.log(`${'case'.padEnd(58)} ${[...results.keys()].map((m) => label(m).padStart(26)).join(' ')}`);
  for (const [i, c] of first.cases.entries()) {
    const cells = [...results.values()].map((r) => {
      const f = r.cases[i]!.figures;
      return `${f.rps.toFixed(0)} ${f.p50.toFixed(0)}/${f.p95.toFixed(0)}/${f.p99.toFixed(0)}`.padStart(26);
    });
    console.log(`${c.label.padEnd(58)} ${cells.join(' ')}`);
  }
}
process.exit(failed ? 1 : 0);
