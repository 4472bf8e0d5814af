// npm run bench:content — the content engine at 10,000 pages, in one process (standalone platform on a
// throwaway database): the cost of a revision changing one page (rows written, time) in a 10-page and a
// 10,000-page space, 20 merges of change requests touching 10 pages each (p95), page reads by id and by
// path under 10 connections (p99), and GET /content/pages of the whole tree. Env: DATABASE_URL (admin
// connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PAGES (10000).
import autocannon from 'autocannon';
import { startBenchPlatform } from './standalone.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);

const percentile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

const platform = await startBenchPlatform('content', { QUIRE_BODY_LIMIT: String(16 * 1024 * 1024) });
try {
  const { base, db, token, org, call } = platform;

  /** A space with `n` pages (10 top-level sections, the rest spread under them), merged into main. */
  async function spaceWith(n: number) {
    const space = await call('POST', `/v1/orgs/${org}/spaces`, token, { title: `${n} pages` });
    const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, token, {});
    const sections = Math.min(10, n);
    await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, {
      changes: Array.from({ length: sections }, (_, i) => ({ operation: 'insert_page', ref: `s${i}`, title: `Section ${i}`, document: { markdown: `Section ${i}\n` } })),
    });
    const { pages } = await call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`, token);
    for (let done = sections; done < n; ) {
      const batch = Math.min(50, n - done);
      await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, token, {
        changes: Array.from({ length: batch }, (_, i) => ({ operation: 'insert_page', into: pages[(done + i) % sections].id, title: `Page ${done + i}`, document: { markdown: `Page ${done + i}\n\nline one\n\nline two\n\nline three\n` } })),
      });
      done += batch;
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, token);
    const tree = (await call('GET', `/v1/spaces/${space.id}/content/pages`, token)).pages as { id: string; path: string; pages: { id: string; path: string }[] }[];
    const leaves = tree.flatMap((s) => s.pages);
    return { space, leaves: leaves.length ? leaves : tree };
  }

  /** A change request editing `k` pages; returns it and the time of its content call. */
  async function editing(spaceId: string, pageIds: string[]) {
    const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, token, {});
    const t0 = process.hrtime.bigint();
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, token, {
      changes: pageIds.map((page, i) => ({ operation: 'update_page', page, document: { markdown: `Edited ${i}\n\nline one\n\nline two changed\n\nline three\n` } })),
    });
    return { cr, editMs: ms(t0) };
  }
  const rowsOf = async (revision: string) => Number((await db.query('select count(*) from content.revision_page where revision_id = $1', [revision])).rows[0].count);

  console.log(`\ncontent engine bench: ${PAGES} pages, node ${process.version}\n`);
  let t0 = process.hrtime.bigint();
  const small = await spaceWith(10);
  const big = await spaceWith(PAGES);
  console.log(`setup: two spaces (10 and ${PAGES} pages) written and merged in ${(ms(t0) / 1000).toFixed(1)} s`);

  for (const [label, s] of [['10 pages', small], [`${PAGES} pages`, big]] as const) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 5; i++) {
      const { cr, editMs } = await editing(s.space.id, [s.leaves[i % s.leaves.length]!.id]);
      times.push(editMs);
      rows = await rowsOf((await call('GET', `/v1/spaces/${s.space.id}/change-requests/${cr.id}`, token)).revision);
    }
    console.log(`revision changing 1 page, ${label.padEnd(12)} rows written ${rows}, median ${percentile(times, 0.5).toFixed(1)} ms (5 runs)`);
  }

  const mergeTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const pages = Array.from({ length: 10 }, (_, j) => big.leaves[(i * 10 + j) % big.leaves.length]!.id);
    const { cr } = await editing(big.space.id, pages);
    t0 = process.hrtime.bigint();
    const res = await call('POST', `/v1/spaces/${big.space.id}/change-requests/${cr.id}/merge`, token);
    mergeTimes.push(ms(t0));
    if (res.result !== 'merge') throw new Error(`merge ${i}: ${res.result}`);
  }
  console.log(`merge of a change request touching 10 pages (main moved by the previous merge: a real three-way merge each time): p50 ${percentile(mergeTimes, 0.5).toFixed(0)} ms, p95 ${percentile(mergeTimes, 0.95).toFixed(0)} ms (20 merges)`);

  t0 = process.hrtime.bigint();
  const whole = await fetch(`${base}/v1/spaces/${big.space.id}/content/pages`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = (await whole.arrayBuffer()).byteLength;
  console.log(`GET /content/pages of the ${PAGES}-page tree: ${ms(t0).toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB)`);

  const leaf = big.leaves[Math.floor(big.leaves.length / 2)]!;
  for (const [label, path] of [['by id', `/v1/spaces/${big.space.id}/content/page/${leaf.id}`], ['by path', `/v1/spaces/${big.space.id}/content/path/${leaf.path}`]] as const) {
    const r = await autocannon({ url: `${base}${path}`, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: 5 });
    console.log(`page ${label.padEnd(8)} 10 connections: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms${r.non2xx ? ` (${r.non2xx} non-2xx)` : ''}`);
  }
} finally {
  await platform.stop();
}
