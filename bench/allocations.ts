// What a read allocates: the bytes allocated per `GET /v1/spaces/{id}` answered by `quire start`, by module and by
// function, from V8's sampling heap profiler over the inspector (objects the garbage collector already took
// included, 1 KiB sampling interval), while autocannon reads one space at 20 connections. Unlike CPU times, the
// bytes do not move with the machine's load: two trees compare on a busy machine too.
// Usage: npm run bench:alloc -- [key=dir …] (default: cur=. ; e.g. ref=/tmp/quire-compare-612ff5e6afeb cur=.),
// all started on one throwaway database (the last one given seeds it: give the newest last).
// Settings: BENCH_SECONDS (6, measured after a 2 s warm-up), N (40 functions listed).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '@quire/kit';
import { comparativeRun, runComparative, seedBenchSpace } from './platforms.ts';
import { Fleet } from './processes.ts';
import { NO_RATE_LIMITS } from './env.ts';

const args = process.argv.slice(2);
const trees = (args.length ? args : ['cur=.']).map((a) => a.split('=') as [string, string]);
const run = comparativeRun('heap');
const fleet = new Fleet();
const abort = new AbortController();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);

async function inspector(port: number) {
  const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
  await new Promise((r) => ws.addEventListener('open', r, { once: true }));
  let id = 0;
  const pending = new Map<number, (v: any) => void>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data));
    if (m.id && pending.has(m.id)) pending.get(m.id)!(m.result ?? m.error);
  });
  return {
    send: (method: string, params: object = {}) =>
      new Promise<any>((r) => {
        pending.set(++id, r);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

function summarize(profile: any, reqs: number, label: string) {
  const byFn = new Map<string, number>();
  const byMod = new Map<string, number>();
  let total = 0;
  const walk = (n: any) => {
    const f = n.callFrame;
    const u: string = f.url;
    const mod = !u
      ? '(native)'
      : u.includes('node_modules/')
        ? u
            .replace(/^.*node_modules\//, '')
            .split('/')
            .slice(0, u.includes('node_modules/@') ? 2 : 1)
            .join('/')
        : u.startsWith('node:')
          ? `node:${u.slice(5).split('/')[0]}`
          : u.replace(/^.*\/(packages|services|gateway)\//, '$1/');
    const fn = `${f.functionName || '(anon)'} ${mod}:${f.lineNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + n.selfSize);
    byMod.set(mod, (byMod.get(mod) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(profile.head);
  console.log(`\n== ${label}: ${(total / reqs / 1024).toFixed(1)} KB a read (${reqs} reads)`);
  for (const [k, v] of [...byMod].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${(v / reqs / 1024).toFixed(2).padStart(6)} KB  ${k}`);
  console.log('  -- functions');
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.N ?? 40)))
    console.log(`  ${(v / reqs / 1024).toFixed(2).padStart(6)} KB  ${k}`);
}

await runComparative({ run, fleet, abort, profile: undefined }, async (dataDir) => {
  const urls: Record<string, { url: string; inspect: number }> = {};
  for (const [key, dir] of trees) {
    const port = await freePort();
    const inspect = await freePort();
    mkdirSync(join(dataDir, key), { recursive: true });
    await fleet.start({
      name: key,
      script: 'packages/cli/bin/quire.ts',
      args: ['start'],
      cwd: resolve(dir),
      env: { ...run.env, ...NO_RATE_LIMITS, PORT: String(port), QUIRE_DATA_DIR: join(dataDir, key) },
      readyUrl: `http://127.0.0.1:${port}/healthz`,
      tier: 0,
      execArgv: [`--inspect=127.0.0.1:${inspect}`],
    } as never);
    urls[key] = { url: `http://127.0.0.1:${port}`, inspect };
  }
  const last = trees.at(-1)![0];
  const { spaceId, auth } = await seedBenchSpace(urls[last]!.url, run.adminToken);
  for (const [key] of trees) {
    for (let i = 0; i < 40; i++) {
      const r = await fetch(`${urls[key]!.url}/v1/spaces/${spaceId}`, { headers: auth });
      await r.text();
      if (r.status === 200) break;
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
  for (const [key] of trees) {
    const url = `${urls[key]!.url}/v1/spaces/${spaceId}`;
    await autocannon({ url, connections: 20, duration: 2, headers: auth });
    const insp = await inspector(urls[key]!.inspect);
    await insp.send('HeapProfiler.enable');
    await insp.send('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    const res = await autocannon({ url, connections: 20, duration: SECONDS, headers: auth });
    const { profile } = await insp.send('HeapProfiler.stopSampling');
    insp.close();
    summarize(profile, res.requests.total, `${key} (${res['2xx']} 2xx of ${res.requests.total})`);
  }
});
