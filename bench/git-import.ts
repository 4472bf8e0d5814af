// npm run bench:git — Git Sync imports through the standalone platform (issue 38 item 3, issue 36 item 2), reported,
// never asserted. On a throwaway database, with Debian's `git http-backend` on loopback (allowed as an intranet Git
// host by QUIRE_GIT_PRIVATE_HOSTS):
//   1. a generated GitBook repository of BENCH_GIT_PAGES pages (200; SUMMARY.md, folders, a paragraph, a list, code,
//      one image each) and BENCH_GIT_ASSET_MB of assets (250; PNG files of random bytes, incompressible; repacked on
//      the server as a Git host keeps it) is imported into a new space: the time from the API call to the
//      operation's success, the process's RSS growth;
//   2. the same commit imported again with `force` (unchanged files are not read again);
//   3. a hostile repository (README.md and a 400 MB blob of zeros, ~400 KB compressed) is imported: the time until
//      it is refused, the error, the process's RSS growth.
// Each import reports its wall time and the CPU seconds the platform's process used meanwhile (on a loaded machine
// the wall time is mostly waiting for a core). During each import, GET /healthz every 25 ms: its median and max latency (the event loop's responsiveness); the
// same for 5 s with nothing running first (0.), what the machine's own load costs.
// Env: DATABASE_URL (admin connection; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_GIT_PAGES,
// BENCH_GIT_ASSET_MB, BENCH_GIT_PARTS (`1,2,3`).
import { exec, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { commitAll, runGit } from '../services/content/src/modules/git/git-http-server.testing.ts';
import { intEnv } from './env.ts';
import { startBenchPlatform } from './standalone.ts';

const PAGES = intEnv('BENCH_GIT_PAGES', 200, 1);
const ASSET_MB = intEnv('BENCH_GIT_ASSET_MB', 250, 0);
const parts = new Set((process.env.BENCH_GIT_PARTS ?? '1,2,3').split(',').map((p) => p.trim()));
const auth = { user: 'bench', password: 'bench-password' };
const sh = (command: string, cwd: string) =>
  new Promise<void>((resolve, reject) => exec(command, { cwd }, (err) => (err ? reject(err) : resolve())));

/** A PNG of `bytes` bytes: a valid signature and IHDR (800×600), then random bytes (incompressible). */
function png(bytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(800, 0);
  ihdr.writeUInt32BE(600, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const head = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)]);
  const idat = chunk('IDAT', deflateSync(Buffer.alloc(16)));
  return Buffer.concat([head, idat, randomBytes(Math.max(0, bytes - head.length - idat.length))]);
}

const page = (i: number, image: string | null) =>
  [
    `# Page ${i}`,
    `Page ${i} explains **how** things work, with \`code\` and [a link](https://example.com/${i}).`,
    '- first\n- second\n- third',
    '```ts\nexport const answer = 42;\n```',
    ...(image ? [`![Figure ${i}](${image})`] : []),
  ].join('\n\n');

/** A GitBook repository in `dir`: sections of 10 pages in folders, listed in SUMMARY.md, one image a page. */
function generate(dir: string): void {
  mkdirSync(join(dir, '.gitbook/assets'), { recursive: true });
  const images = Math.min(PAGES, ASSET_MB);
  const perImage = images ? Math.floor((ASSET_MB * 1024 * 1024) / images) : 0;
  for (let i = 0; i < images; i++) writeFileSync(join(dir, `.gitbook/assets/figure-${i}@2x.png`), png(perImage));
  const summary = ['# Table of contents', '', '* [Introduction](README.md)'];
  writeFileSync(join(dir, 'README.md'), page(0, null));
  for (let i = 1; i < PAGES; i++) {
    const section = `section-${Math.ceil(i / 10)}`;
    mkdirSync(join(dir, section), { recursive: true });
    const image = i < images ? `../.gitbook/assets/figure-${i}@2x.png` : null;
    writeFileSync(join(dir, section, `page-${i}.md`), page(i, image));
    summary.push(`${i % 10 === 1 ? '' : '  '}* [Page ${i}](${section}/page-${i}.md)`);
  }
  writeFileSync(join(dir, 'SUMMARY.md'), `${summary.join('\n')}\n`);
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The Git server, in a child process (bench/git-server.ts): its URLs and the folder of its repositories. */
async function startServerProcess() {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'git-server.ts')], {
    env: { ...process.env, BENCH_GIT_USER: auth.user, BENCH_GIT_PASSWORD: auth.password },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`the Git server stopped (${code})`)));
  });
  const { port, root } = JSON.parse(first) as { port: number; root: string };
  return {
    root,
    urlOf: (name: string, creds?: typeof auth) =>
      `http://${creds ? `${creds.user}:${creds.password}@` : ''}127.0.0.1:${port}/${name}.git`,
    createRepo: (name: string) => runGit(['init', '--bare', '--initial-branch=main', join(root, `${name}.git`)]),
    close: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const server = await startServerProcess();
const work = mkdtempSync(join(tmpdir(), 'quire-bench-git-'));
const platform = await startBenchPlatform('git', { QUIRE_GIT_PRIVATE_HOSTS: '127.0.0.1' });
try {
  const { base, token, org, call } = platform;

  /** Imports `url` into `space`, GET /healthz every 25 ms meanwhile; the outcome and the figures. */
  async function measureImport(space: string, url: string, force = false) {
    // A full collection first, before the probes start: the platform shares this process, so a forced GC while a
    // probe is in flight would be counted as the import's stall.
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    const latencies: number[] = [];
    // The operation's phase (getSpaceGitInfo's progress) when each probe slower than 200 ms started: where it stalls.
    let phase = 'queued';
    const slow: string[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        const at = phase;
        await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
        const ms = performance.now() - t0;
        latencies.push(ms);
        if (ms > 200) slow.push(`${Math.round(ms)} ms (${at})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const cpu0 = process.cpuUsage();
    let peak = rss0;
    // What the process held at its peak: V8's heaps (every thread's isolate is in the RSS, only this one's here) and
    // the memory outside them that this thread's objects hold (Buffers).
    let atPeak = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > peak) (peak = m.rss), (atPeak = m);
    }, 20);
    const t0 = performance.now();
    await call('POST', `/v1/spaces/${space}/git/import`, token, { url, ref: 'refs/heads/main', force });
    let info: any;
    for (;;) {
      info = await call('GET', `/v1/spaces/${space}/git/info`, token);
      const p = info.operation?.progress;
      phase = p ? `${p.phase}${p.done !== undefined ? ` ${p.done}/${p.total ?? '?'}` : ''}` : info.operation?.state;
      if (info.operation?.state && info.operation.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    clearInterval(sampler);
    running = false;
    await probe;
    return {
      state: info.operation.state as string,
      error: info.operation.error as string | undefined,
      seconds: seconds.toFixed(1),
      // CPU the platform's process used meanwhile (the import, the job, the probes): what a quiet machine would wait.
      cpuSeconds: ((cpu.user + cpu.system) / 1e6).toFixed(1),
      rssGrowth: mb(peak - rss0),
      atPeak: `heap ${mb(atPeak.heapUsed)}, external ${mb(atPeak.external)} (ArrayBuffers ${mb(atPeak.arrayBuffers)})`,
      healthzMedianMs: median(latencies).toFixed(1),
      healthzMaxMs: Math.max(...latencies).toFixed(1),
      probes: latencies.length,
      slowProbes: slow.join(', ') || 'none',
    };
  }

  /** GET /healthz every 25 ms for `ms` with nothing else running: what the machine itself costs (a loaded one). */
  async function idleHealthz(ms: number) {
    const latencies: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const t0 = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
    return { healthzMedianMs: median(latencies).toFixed(1), healthzMaxMs: Math.max(...latencies).toFixed(1) };
  }
  console.log('0. idle (no import):', await idleHealthz(5_000));

  if (parts.has('1') || parts.has('2')) {
    const dir = join(work, 'docs');
    await runGit(['init', '--initial-branch=main', dir]);
    generate(dir);
    // The setup, not measured: random bytes do not compress, so the repository is written without trying to.
    const fast = ['-c', 'core.compression=0', '-c', 'pack.compression=0', '-c', 'pack.window=0'];
    await runGit([...fast, 'add', '-A'], { cwd: dir });
    await runGit([...fast, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'docs'], {
      cwd: dir,
    });
    await server.createRepo('docs');
    await runGit([...fast, 'push', server.urlOf('docs', auth), 'main'], { cwd: dir });
    // As a Git host keeps it: one pack, whose objects upload-pack sends as they are (not compressed again per fetch).
    await runGit([...fast, 'repack', '-adq'], { cwd: join(server.root, 'docs.git') });
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, token, { title: 'Imported' })).id as string;
    const url = server.urlOf('docs', auth);
    console.log(`repository: ${PAGES} pages, ${ASSET_MB} MB of assets`);
    if (parts.has('1')) console.log('1. first import:', await measureImport(space, url));
    if (parts.has('2')) console.log('2. the same commit again (force):', await measureImport(space, url, true));
  }
  if (parts.has('3')) {
    const dir = join(work, 'bomb');
    await runGit(['init', '--initial-branch=main', dir]);
    writeFileSync(join(dir, 'README.md'), '# Docs\n');
    await sh('head -c 400000000 /dev/zero > big.bin', dir);
    await commitAll(dir, 'bomb');
    rmSync(join(dir, 'big.bin'));
    await server.createRepo('bomb');
    await runGit(['-c', 'pack.compression=1', 'push', server.urlOf('bomb', auth), 'main'], { cwd: dir });
    const space = (await call('POST', `/v1/orgs/${org}/spaces`, token, { title: 'Bombed' })).id as string;
    console.log('3. decompression bomb (400 MB of zeros):', await measureImport(space, server.urlOf('bomb', auth)));
  }
} finally {
  await platform.stop();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
