// npm run bench:content — the content engine, in one process (standalone platform on a throwaway database), on
// spaces built the two ways (bench/build.ts), figures side by side:
//   - api (default, first): a space of BENCH_PAGES pages written through the HTTP API as users do (one change request
//     of insert_page batches of 50, merged, then 3 rounds of small change requests merged on top); the cost of the
//     change request's content writes as it grows (the first 10 batches against the last 10, and the rows each wrote);
//   - seeded: the same pages written straight into the content schema as one snapshot revision.
// Then, on each: a revision changing one page (rows written, time), 20 merges of change requests touching 10 pages in
// a 100-page space and in the big one (p50, p95, ratio), GET /content/pages of the whole tree, page reads by id and by
// path under 10 connections (p99), and the live revision's lineage (revisions, rows a cold read goes through). Once: a
// ~2 KB page read with ?format=markdown and ?format=document (req/s, 10 connections, alternating rounds).
// Env: DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PAGES (2000; the
// issue's sizes: 10000, 20000), BENCH_MODE (api,seeded | api | seeded), BENCH_SECONDS (5, per load),
// BENCH_READ_CONNECTIONS (10: the connections of the page reads), BENCH_PLATFORM (in-process | process: `quire start`
// in a process of its own, as users run it, measured through its port; see bench/standalone.ts), BENCH_PROFILE=process
// (with BENCH_PLATFORM=process: a V8 CPU profile of that process, written to bench/results/ when it stops).
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import {
  API_BUILD_ENV,
  buildModes,
  buildThroughApi,
  lineageOf,
  seedRevision,
  type BuildLog,
  type BuildMode,
} from './build.ts';
import { intEnv } from './env.ts';
import { startBenchPlatform } from './standalone.ts';

const PAGES = intEnv('BENCH_PAGES', 2_000, 100);
const SECONDS = intEnv('BENCH_SECONDS', 5, 1);
const READ_CONNECTIONS = intEnv('BENCH_READ_CONNECTIONS', 10, 1);
const modes = buildModes();

const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1))] ?? NaN;
const median = (xs: number[]) => percentile(xs, 0.5);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Page `i`: a title and a few lines (about 100 bytes). */
const content = (i: number) => ({ title: `Page ${i}`, markdown: `Page ${i}\n\nline one\n\nline two\n\nline three\n` });

const platform = await startBenchPlatform('content', {
  QUIRE_BODY_LIMIT: String(16 * 1024 * 1024),
  ...API_BUILD_ENV,
  QUIRE_SEARCH_SCAN_EVERY_MS: '2000',
});
const table = new Map<string, Partial<Record<BuildMode, string>>>();
const put = (mode: BuildMode, label: string, value: string) => table.set(label, { ...table.get(label), [mode]: value });
try {
  const { base, db, token, org, call } = platform;
  console.log(
    `\ncontent engine bench: ${PAGES.toLocaleString('en')} pages, spaces built ${modes.join(' and ')}, platform ${platform.mode === 'process' ? `in its own process (quire start, pid ${platform.pid})` : 'in this process (BENCH_PLATFORM=process: as users run it)'}, node ${process.version}, load average ${load()}\n`,
  );

  async function spaceBuilt(mode: BuildMode, n: number, log?: BuildLog) {
    const space = await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `${mode} ${n} pages` });
    if (mode === 'api') await buildThroughApi(call, token, space.id, content, 0, n, 3, log);
    else await seedRevision(db, space.id, content, 0, n);
    const tree = (await call('GET', `/v1/spaces/${space.id}/content/pages`, token)).pages as {
      id: string;
      path: string;
      pages: { id: string; path: string }[];
    }[];
    const leaves = tree.flatMap((s) => s.pages);
    return { space, leaves: leaves.length ? leaves : tree };
  }

  /** A change request editing these pages; returns it and the time of its content call. */
  async function editing(spaceId: string, pageIds: string[]) {
    const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, token, {});
    const t0 = process.hrtime.bigint();
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, token, {
      changes: pageIds.map((page, i) => ({
        operation: 'update_page',
        page,
        document: { markdown: `Edited ${i}\n\nline one\n\nline two changed\n\nline three\n` },
      })),
    });
    return { cr, editMs: ms(t0) };
  }
  const rowsOf = async (revision: string) =>
    Number(
      (await db.query('select count(*) from content.revision_page where revision_id = $1', [revision])).rows[0].count,
    );

  async function merges(s: Awaited<ReturnType<typeof spaceBuilt>>) {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const pages = Array.from({ length: 10 }, (_, j) => s.leaves[(i * 10 + j) % s.leaves.length]!.id);
      const { cr } = await editing(s.space.id, pages);
      const t0 = process.hrtime.bigint();
      const res = await call('POST', `/v1/spaces/${s.space.id}/change-requests/${cr.id}/merge`, token);
      times.push(ms(t0));
      if (res.result !== 'merge') throw new Error(`merge ${i}: ${res.result}`);
    }
    return times;
  }

  async function reads(path: string) {
    const r = await autocannon({
      url: `${base}${path}`,
      headers: { authorization: `Bearer ${token}` },
      connections: READ_CONNECTIONS,
      duration: SECONDS,
    });
    return `${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms${r.non2xx ? ` (${r.non2xx} non-2xx)` : ''}`;
  }

  for (const mode of modes) {
    const log: BuildLog = { batchMs: [], mergeMs: [] };
    let t0 = process.hrtime.bigint();
    const small = await spaceBuilt(mode, 100);
    const big = await spaceBuilt(mode, PAGES, log);
    // The search index catches up (a seeded space is indexed whole by the search job) before anything is measured.
    const indexed = async () =>
      Number(
        (
          await db.query(
            `select count(*) as n from content.search_space st join content.space s on s.id = st.space_id where s.id = any($1) and st.revision_id = s.revision_id`,
            [[small.space.id, big.space.id]],
          )
        ).rows[0].n,
      );
    for (const started = Date.now(); (await indexed()) < 2; ) {
      if (Date.now() - started > 10 * 60_000) throw new Error('the search index did not catch up within 10 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `${mode}: two spaces (100 and ${PAGES} pages) built in ${(ms(t0) / 1000).toFixed(1)} s, search index caught up (load average ${load()})`,
    );
    put(mode, `build of ${PAGES} pages (and its search index)`, `${(ms(t0) / 1000).toFixed(1)} s`);
    if (mode === 'api') {
      const first = log.batchMs.slice(2, 12);
      const last = log.batchMs.slice(-10);
      put(
        mode,
        'CR content write, 50 inserts: first 10 / last 10 batches (median)',
        `${median(first).toFixed(0)} / ${median(last).toFixed(0)} ms (×${(median(last) / median(first)).toFixed(2)})`,
      );
      const { rows } = await db.query(
        `select jsonb_array_length(r.lineage) = 1 as snapshot, (select count(*) from content.revision_page p where p.revision_id = r.id) as rows
           from content.revision r where r.space_id = $1 and r.type = 'edits' and r.change_request_id is not null order by r.created_at`,
        [big.space.id],
      );
      const deltas = rows.filter((r) => !r.snapshot).map((r) => Number(r.rows));
      const snapshots = rows.filter((r) => r.snapshot).map((r) => Number(r.rows));
      const total = rows.reduce((n, r) => n + Number(r.rows), 0);
      put(
        mode,
        'CR content writes: rows per delta (max), snapshots, all rows / pages',
        `${Math.max(0, ...deltas)}, ${snapshots.length} (largest ${Math.max(0, ...snapshots)}), ${(total / PAGES).toFixed(2)}`,
      );
    }

    for (const [label, s] of [
      ['100 pages', small],
      [`${PAGES} pages`, big],
    ] as const) {
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < 5; i++) {
        const { cr, editMs } = await editing(s.space.id, [s.leaves[i % s.leaves.length]!.id]);
        times.push(editMs);
        rows = await rowsOf((await call('GET', `/v1/spaces/${s.space.id}/change-requests/${cr.id}`, token)).revision);
      }
      put(mode, `revision changing 1 page, ${label}: rows, median`, `${rows} rows, ${median(times).toFixed(1)} ms`);
    }

    const smallMerges = await merges(small);
    const bigMerges = await merges(big);
    put(
      mode,
      `merge touching 10 pages, 100 pages: p50, p95`,
      `${median(smallMerges).toFixed(0)}, ${percentile(smallMerges, 0.95).toFixed(0)} ms`,
    );
    put(
      mode,
      `merge touching 10 pages, ${PAGES} pages: p50, p95 (p50 ratio)`,
      `${median(bigMerges).toFixed(0)}, ${percentile(bigMerges, 0.95).toFixed(0)} ms (×${(median(bigMerges) / median(smallMerges)).toFixed(1)})`,
    );

    const lineage = await lineageOf(db, big.space.id);
    put(
      mode,
      'live revision: lineage revisions, rows read cold / pages',
      `${lineage.revisions}, ${lineage.rows} / ${lineage.pages}`,
    );

    t0 = process.hrtime.bigint();
    const whole = await fetch(`${base}/v1/spaces/${big.space.id}/content/pages`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const bytes = (await whole.arrayBuffer()).byteLength;
    put(mode, `GET /content/pages (${PAGES}-page tree)`, `${ms(t0).toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB)`);

    const leaf = big.leaves[Math.floor(big.leaves.length / 2)]!;
    put(
      mode,
      `page by id, ${READ_CONNECTIONS} connections`,
      await reads(`/v1/spaces/${big.space.id}/content/page/${leaf.id}`),
    );
    put(
      mode,
      `page by path, ${READ_CONNECTIONS} connections`,
      await reads(`/v1/spaces/${big.space.id}/content/path/${leaf.path}`),
    );
  }

  // A ~2 KB page, read in both formats (rounds alternating): the JSON document is converted once per content hash.
  const space = await call('POST', `/v1/orgs/${org}/spaces`, token, { title: 'formats' });
  const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
  const section = (k: number) =>
    `## Section ${k}\n\nSome **bold** text, a [link](https://example.com/${k}) and \`code\`; a sentence long enough to be prose, about the section ${k}.\n\n- one item\n- another item with *emphasis*\n\n`;
  const markdown = `# Guide\n\n${Array.from({ length: 9 }, (_, k) => section(k)).join('')}`;
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, {
    changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown } }],
  });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, token);
  const page = (await call('GET', `/v1/spaces/${space.id}/content/pages`, token)).pages[0];
  const formats = { markdown: [] as number[], document: [] as number[] };
  for (let round = 0; round < 3; round++) {
    for (const format of ['markdown', 'document'] as const) {
      const r = await autocannon({
        url: `${base}/v1/spaces/${space.id}/content/page/${page.id}?format=${format}`,
        headers: { authorization: `Bearer ${token}` },
        connections: 10,
        duration: SECONDS,
      });
      formats[format].push(r.requests.average);
    }
  }
  const [md, doc] = [median(formats.markdown), median(formats.document)];

  console.log(
    `\n${'measure'.padEnd(72)} ${modes.map((m) => (m === 'api' ? 'API-built' : 'SQL-seeded').padEnd(34)).join(' ')}`,
  );
  for (const [label, v] of table)
    console.log(`${label.padEnd(72)} ${modes.map((m) => (v[m] ?? '—').padEnd(34)).join(' ')}`);
  console.log(
    `\n~${(markdown.length / 1024).toFixed(1)} KB page, 10 connections, median of 3 alternating rounds: ?format=markdown ${md.toFixed(0)} req/s, ?format=document ${doc.toFixed(0)} req/s (markdown/document ×${(md / doc).toFixed(2)})`,
  );
  console.log(`load average now ${load()}`);
} finally {
  await platform.stop();
}
