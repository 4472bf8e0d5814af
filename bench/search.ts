// npm run bench:search — full-text search at 100,000 pages in one organization, through the real HTTP API.
//
// `quire start` (what `npm start` runs) as a child process on a throwaway database. The organization and its spaces
// are created through the API; then each space gets a live revision of BENCH_SEARCH_PAGES / BENCH_SEARCH_SPACES pages
// written straight into the content schema as the engine writes a snapshot revision (a `revision` row whose lineage is
// itself, one `revision_page` row per page, content-addressed `document` rows, the space's `revision_id` moved to it):
// writing 100,000 pages through change requests would take the bench an hour. The search index is then built by the
// service's own code — its search job, which indexes every space whose index is behind its live revision (set to scan
// every 2 s here) — and timed. Then autocannon (in this process) measures, after a warm-up:
//   1. GET /v1/orgs/{o}/search?query=zephyr   one word in ~5% of the pages, over every space (the goal: p95 < 50 ms)
//   2. the same with limit=10 (a search box's page of results; the API's default is 50)
//   3. GET /v1/spaces/{s}/search?query=zephyr  the same word, one space
//   4. GET /v1/orgs/{o}/search?query=quorble   a word in ~60% of the pages: ranking capped at QUIRE_SEARCH_CANDIDATES
// and prints req/s, p50, p95, p99 (from every response's latency). Env: DATABASE_URL (admin connection; default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_SEARCH_PAGES (100000), BENCH_SEARCH_SPACES (10),
// BENCH_CONNECTIONS (10), BENCH_SECONDS (10), BENCH_WARMUP (3), BENCH_KEEP_DB=1 (keeps the database, for EXPLAIN; drop
// it yourself: its name is printed).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { childBaseEnv, intEnv } from './env.ts';
import { ChildExitError, Fleet, freePort, sleep } from './processes.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const PAGES = intEnv('BENCH_SEARCH_PAGES', 100_000, 100);
const SPACES = intEnv('BENCH_SEARCH_SPACES', 10, 1);
const connections = intEnv('BENCH_CONNECTIONS', 10, 1);
const seconds = intEnv('BENCH_SECONDS', 10, 1);
const warmup = intEnv('BENCH_WARMUP', 3, 0);

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = randomBytes(4).toString('hex');
const dbName = `quire_bench_search_${runId}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const adminToken = `quire_admin_${randomBytes(24).toString('base64url')}`;
const baseEnv = childBaseEnv();

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

/** Page `i`: a title, and markdown of about 120 words in three sections; `zephyr` in 5% of them (in the title of 1 in 50 of those), `quorble` in 60%. */
function pageContent(i: number): { title: string; markdown: string } {
  const rare = i % 20 === 7;
  const common = i % 5 < 3;
  const title = capitalized(`${word()} ${word()}${rare && i % 1000 === 7 ? ' zephyr' : ''}`);
  const markdown = [
    `${capitalized(sentence(25, common ? 'quorble' : undefined))} ${sentence(15)}`,
    `## ${capitalized(word())} ${word()}`,
    `${capitalized(sentence(30, rare ? 'zephyrs' : undefined))} ${sentence(10)}`,
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
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  requests: number;
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

function load(url: string, token: string, duration: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon({ url, headers: { authorization: `Bearer ${token}` }, connections, duration }, (err, result) => {
      if (err) return reject(err instanceof Error ? err : new Error(String(err)));
      latencies.sort((a, b) => a - b);
      resolve({
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
  await fleet.start({
    name: 'standalone',
    script: 'packages/cli/bin/quire.ts',
    args: ['start'],
    env: { ...baseEnv, DATABASE_URL: dbUrl, QUIRE_ADMIN_TOKEN: adminToken, QUIRE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', QUIRE_SEARCH_SCAN_EVERY_MS: '2000' },
    readyUrl: `${base}/healthz`,
    cwd: root,
    tier: 0,
  });
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const boot = await call('POST', '/v1/admin/bootstrap', adminToken, { title: 'Bench Org', email: 'bench@quire.local' });
  const token: string = boot.token;
  const org: string = boot.organization.id;
  const spaces: { id: string }[] = [];
  for (let i = 0; i < SPACES; i++) spaces.push(await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `Space ${i + 1}` }));

  let t0 = performance.now();
  const per = Math.ceil(PAGES / SPACES);
  for (let i = 0; i < SPACES; i++) await writeRevision(db, spaces[i]!.id, i * per, Math.min(per, PAGES - i * per));
  console.log(`seeded ${PAGES.toLocaleString('en')} pages (revisions, page rows, documents) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  t0 = performance.now();
  const indexed = async () =>
    Number(
      (await db.query(`select count(*) as n from content.search_space st join content.space s on s.id = st.space_id where s.organization_id = $1 and st.revision_id = s.revision_id`, [org])).rows[0].n,
    );
  while ((await indexed()) < SPACES) {
    if (performance.now() - t0 > 30 * 60_000) throw new Error('the search job did not index the spaces within 30 minutes');
    await sleep(500);
  }
  const indexMs = performance.now() - t0;
  const { rows: sizes } = await db.query(
    `select (select count(*) from content.search_page) as pages, (select count(*) from content.search_document) as documents, (select count(*) from content.search_section) as sections,
            pg_size_pretty(pg_total_relation_size('content.search_page') + pg_total_relation_size('content.search_document') + pg_total_relation_size('content.search_section')) as size`,
  );
  console.log(`indexed by the search job in ${(indexMs / 1000).toFixed(1)} s (${(PAGES / (indexMs / 1000)).toFixed(0)} pages/s): ${sizes[0].pages} pages, ${sizes[0].documents} documents, ${sizes[0].sections} sections, ${sizes[0].size}`);
  // What autovacuum does after a bulk load anyway: the GIN pending lists merged, statistics for the planner.
  await db.query('vacuum analyze content.search_page, content.search_document, content.search_section');

  const matching = async (w: string) => Number((await db.query(`select count(*) as n from content.search_page where tsv @@ to_tsquery('english', $1)`, [w])).rows[0].n);
  const cases = [
    { label: `org search, 1 word in ${(((await matching('zephyr')) / PAGES) * 100).toFixed(1)}% of pages`, url: `${base}/v1/orgs/${org}/search?query=zephyr` },
    { label: 'org search, same word, limit=10', url: `${base}/v1/orgs/${org}/search?query=zephyr&limit=10` },
    { label: `space search, same word (${(PAGES / SPACES).toLocaleString('en')} pages)`, url: `${base}/v1/spaces/${spaces[0]!.id}/search?query=zephyr` },
    { label: `org search, 1 word in ${(((await matching('quorble')) / PAGES) * 100).toFixed(0)}% of pages (capped)`, url: `${base}/v1/orgs/${org}/search?query=quorble` },
  ];
  const sample = await call('GET', new URL(cases[0]!.url).pathname + new URL(cases[0]!.url).search, token);
  console.log(`query "zephyr": count ${sample.count}, first page ${sample.items.reduce((n: number, s: { pages: unknown[] }) => n + s.pages.length, 0)} results in ${sample.items.length} spaces\n`);
  console.log(`${connections} connections, ${seconds} s each after a ${warmup} s warm-up; default limit (50 results), QUIRE_SEARCH_CANDIDATES at its default`);
  console.log(`${'case'.padEnd(58)} ${'req/s'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'p99'.padStart(7)}`);
  for (const c of cases) {
    if (warmup) await load(c.url, token, warmup);
    const f = await load(c.url, token, seconds);
    const ms = (v: number) => `${v.toFixed(0)} ms`.padStart(7);
    console.log(`${c.label.padEnd(58)} ${f.rps.toFixed(0).padStart(7)} ${ms(f.p50)} ${ms(f.p95)} ${ms(f.p99)}${f.errors ? `  (${f.errors} errors/non-2xx)` : ''}`);
  }
  // Requests still in flight when a run ended finish before the platform stops.
  await sleep(1_000);
  console.log(`\nload average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

// ——— main ———
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database "${dbName}"`);
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
  if (process.env.BENCH_KEEP_DB === '1') console.log(`kept the database: ${dbUrl}`);
  else await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
