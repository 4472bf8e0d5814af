// npm run bench -- --compare <ref>: an A/B of `GET /v1/spaces/{id}` between the current tree and another commit.
// Both run `quire start` (each tree's own `packages/cli/bin/quire.ts`, with its own first-line Node settings, as
// `npm start` runs it) on ONE throwaway database, beside the bare baseline (bench/baseline.ts); they are measured one
// at a time in alternating rounds (a, ref, current, a, ref, current, …) so both see the same machine, and the bench
// prints each one's ratio to the baseline measured in the same rounds. The other commit is checked out once in a git
// worktree under the system's temporary directory (kept for the next run) with this tree's node_modules hard-linked
// in (`--npm-ci` installs its own lockfile instead).
// Options: --compare <ref> (a commit, branch or tag); --wrk (also measure every target with wrk, when installed);
// --distributed (also the gateway + four services of each tree, on the in-process bus); --tree <dir> (measure the
// tree at <dir> as it is instead of checking out <ref>); --only (measure only the other tree, not the current one);
// --min-ratio <x> (exit 1 when the other tree's ratio is below x: `git bisect run`'s test, exit 125 when it does
// not start). Settings: BENCH_CONNECTIONS (50), BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_WARMUP (2).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';

const mkdirp = (dir: string) => (mkdirSync(dir, { recursive: true }), dir);
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { abLoadSettings, NO_RATE_LIMITS } from './env.ts';
import { formatRound, loadAverage, measureOnce, median, summarize, type RoundFigures, type Target } from './measure.ts';
import { comparativeRun, expectSpaceAnswered, resultsDir, root, runComparative, seedBenchSpace } from './platforms.ts';
import { freePort } from '@quire/kit';
import { ChildExitError, Fleet, type ChildSpec } from './processes.ts';
import { measureWrk, wrkInstalled, type WrkFigures } from './wrk.ts';

export interface CompareOptions {
  ref?: string | undefined;
  tree?: string | undefined;
  wrk: boolean;
  distributed: boolean;
  only: boolean;
  minRatio?: number | undefined;
  maxCpuRatio?: number | undefined;
  /** With `vsTree`: the other tree is bad when its CPU per request exceeds this times that tree's. */
  maxCpuVs?: number | undefined;
  vsTree?: string | undefined;
  npmCi: boolean;
}

export function parseCompareArgs(argv: string[]): CompareOptions | undefined {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (!v || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v;
  };
  const ref = value('--compare');
  const tree = value('--tree');
  if (!ref && !tree) return undefined;
  const minRatio = value('--min-ratio');
  const maxCpuRatio = value('--max-cpu-ratio');
  const maxCpuVs = value('--max-cpu-vs');
  return {
    ref,
    tree,
    wrk: argv.includes('--wrk'),
    distributed: argv.includes('--distributed'),
    only: argv.includes('--only'),
    minRatio: minRatio === undefined ? undefined : Number(minRatio),
    maxCpuRatio: maxCpuRatio === undefined ? undefined : Number(maxCpuRatio),
    maxCpuVs: maxCpuVs === undefined ? undefined : Number(maxCpuVs),
    vsTree: value('--vs-tree'),
    npmCi: argv.includes('--npm-ci'),
  };
}

/** git's environment without `GIT_DIR` and the like (`git bisect run` sets them for its own worktree). */
const gitEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
const gitIn = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: gitEnv }).trim();
const git = (...args: string[]) => gitIn(root, ...args);

/** The tree of `ref`, checked out once (detached) in a worktree of its own, with node_modules. */
function checkout(ref: string, npmCi: boolean): string {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(tmpdir(), `quire-compare-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, '.git'))) {
    console.log(`checking out ${ref} (${commit.slice(0, 12)}) in ${dir} …`);
    git('worktree', 'add', '--detach', '--force', dir, commit);
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    const sameLock =
      readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8');
    if (npmCi) {
      console.log(`npm ci in ${dir} …`);
      const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`npm ci in ${dir} failed`);
    } else {
      // Hard links: instant, no space; the workspaces' own links (node_modules/@quire/*) are relative, so they point
      // into the other tree.
      for (const sub of ['.', ...workspaceDirs(dir)]) {
        const from = join(root, sub, 'node_modules');
        if (existsSync(from) && existsSync(join(dir, sub))) execFileSync('cp', ['-al', from, join(dir, sub)]);
      }
      if (!sameLock)
        console.log(
          `note: ${ref}'s package-lock.json differs from this tree's; its node_modules are this tree's (--npm-ci installs its own)`,
        );
    }
  }
  return dir;
}

function workspaceDirs(dir: string): string[] {
  const out = ['gateway'];
  for (const group of ['packages', 'services'])
    if (existsSync(join(dir, group))) for (const d of readdirSync(join(dir, group))) out.push(join(group, d));
  return out;
}

const describe = (dir: string) => {
  try {
    const head = gitIn(dir, 'log', '-1', '--format=%h %s').slice(0, 70);
    const dirty = gitIn(dir, 'status', '--porcelain', '--untracked-files=no');
    return dirty ? `${head} (+ uncommitted changes)` : head;
  } catch {
    return dir;
  }
};

interface Tree {
  key: string;
  dir: string;
  label: string;
}

export async function compare(o: CompareOptions): Promise<void> {
  const settings = abLoadSettings();
  const { connections, seconds, rounds, warmup } = settings;
  const otherDir = o.tree ? resolve(o.tree) : checkout(o.ref!, o.npmCi);
  const trees: Tree[] = [{ key: 'ref', dir: otherDir, label: o.ref ?? 'other' }];
  if (!o.only) trees.push({ key: 'cur', dir: o.vsTree ? resolve(o.vsTree) : root, label: 'current' });
  const run = comparativeRun('compare');
  const env = { ...run.env, ...NO_RATE_LIMITS };
  const fleet = new Fleet();
  const abort = new AbortController();
  let result: { ratio: number; cpuRatio: number; cpuVs: number } | undefined;
  const cpuOf = new Map<string, number>();
  let startFailed = false;

  await runComparative({ run, fleet, abort, profile: process.env.BENCH_PROFILE || undefined }, async (dataDir) => {
    console.log(
      `A/B: GET /v1/spaces/{id}, ${connections} connections, ${rounds} rounds × ${seconds} s (after ${warmup} s warm-up), load average ${loadAverage()}`,
    );
    for (const t of trees) console.log(`  ${t.key.padEnd(4)} ${t.dir}: ${describe(t.dir)}`);
    const targets: (Target & { tree?: Tree; kind: string })[] = [];
    let seedBase = '';
    try {
      // The oldest first: it migrates the schema it knows, the newer tree then adds its own on top.
      const committed = (t: Tree) => Number(gitIn(t.dir, 'log', '-1', '--format=%ct'));
      for (const t of [...trees].sort((x, y) => committed(x) - committed(y))) {
        const port = await freePort();
        await fleet.start(
          spec(
            t,
            'standalone',
            'packages/cli/bin/quire.ts',
            ['start'],
            { ...env, PORT: String(port), QUIRE_DATA_DIR: mkdirp(join(dataDir, t.key)) },
            `http://127.0.0.1:${port}/healthz`,
          ),
        );
        const url = `http://127.0.0.1:${port}`;
        seedBase = url;
        targets.push({
          key: 'b',
          label: `${t.key} standalone`,
          url,
          tree: t,
          kind: 'standalone',
          pids: pidsOf(fleet, `${t.key}-standalone`),
        });
        if (o.distributed) targets.push(await startDistributed(fleet, t, env));
      }
    } catch (err) {
      if (err instanceof ChildExitError) startFailed = true;
      throw err;
    }
    const basePort = await freePort();
    await fleet.start({
      name: 'baseline',
      script: 'bench/baseline.ts',
      args: [],
      cwd: root,
      env: { ...env, PORT: String(basePort) },
      readyUrl: `http://127.0.0.1:${basePort}/spaces/none`,
      ready: (res) => res.status === 404,
      tier: 0,
    });

    const { spaceId, auth } = await seedBenchSpace(seedBase, run.adminToken);
    const baseline: Target = {
      key: 'a',
      label: 'baseline',
      url: `http://127.0.0.1:${basePort}/spaces/${spaceId}`,
      pids: pidsOf(fleet, 'baseline'),
    };
    for (const t of targets) {
      t.url = `${t.url}/v1/spaces/${spaceId}`;
      t.headers = auth;
    }
    await expectSpaceAnswered([baseline, ...targets], spaceId);

    const all = [baseline, ...targets];
    const figures = new Map<Target, RoundFigures[]>(all.map((t) => [t, []]));
    const wrkFigures = new Map<Target, WrkFigures[]>(all.map((t) => [t, []]));
    const useWrk = o.wrk && wrkInstalled();
    if (o.wrk && !useWrk) console.log('wrk is not installed: autocannon only');
    console.log('');
    for (let round = 1; round <= rounds; round++) {
      for (const t of all) {
        const f = await measureOnce(t, { connections, seconds, warmup }, abort.signal);
        figures.get(t)!.push(f);
        console.log(`${formatRound(round, t, f)}   load ${loadAverage()}`);
      }
      if (useWrk)
        for (const t of all) {
          const w = await measureWrk(t, { connections, seconds }, abort.signal);
          wrkFigures.get(t)!.push(w);
          console.log(
            `round ${round}  wrk ${t.label.padEnd(22)} ${w.rps.toFixed(0).padStart(7)} req/s   p99 ${w.p99.toFixed(1)} ms${w.errors ? `   (${w.errors} errors/non-2xx)` : ''}   load ${loadAverage()}`,
          );
        }
    }
    const a = summarize(baseline, figures.get(baseline)!);
    console.log(`\nmedians over ${rounds} rounds (load average now ${loadAverage()}):`);
    const row = (label: string, rps: number, p99: number, ratio?: number, cpu?: number) =>
      `  ${label.padEnd(26)} ${rps.toFixed(0).padStart(7)} req/s   p99 ${p99.toFixed(1).padStart(6)} ms${ratio === undefined ? '' : `   ratio ${ratio.toFixed(2)}`}${cpu === undefined ? '' : `   CPU ${cpu.toFixed(0)} µs/req`}`;
    console.log(`autocannon`);
    console.log(row('baseline', a.rps, a.p99, undefined, a.cpuUs));
    for (const t of targets) {
      const s = summarize(t, figures.get(t)!);
      console.log(row(t.label, s.rps, s.p99, s.rps / a.rps, s.cpuUs));
      if (t.kind === 'standalone') cpuOf.set(t.tree!.key, s.cpuUs ?? Number.NaN);
      if (t.tree?.key === 'ref' && t.kind === 'standalone')
        result = {
          ratio: s.rps / a.rps,
          cpuRatio: (s.cpuUs ?? Number.NaN) / (a.cpuUs ?? Number.NaN),
          cpuVs: Number.NaN,
        };
    }
    if (useWrk) {
      const w = (t: Target) => ({
        rps: median(wrkFigures.get(t)!.map((x) => x.rps)),
        p99: median(wrkFigures.get(t)!.map((x) => x.p99)),
      });
      const wa = w(baseline);
      console.log(`wrk`);
      console.log(row('baseline', wa.rps, wa.p99));
      for (const t of targets) {
        const s = w(t);
        console.log(row(t.label, s.rps, s.p99, s.rps / wa.rps));
      }
    }
    if (result && cpuOf.has('cur')) {
      result.cpuVs = cpuOf.get('ref')! / cpuOf.get('cur')!;
      console.log(`CPU per request, ref / cur: ${result.cpuVs.toFixed(2)}`);
    }
    console.log('');
  });
  if (o.minRatio !== undefined || o.maxCpuRatio !== undefined || o.maxCpuVs !== undefined) {
    if (startFailed || !result) process.exitCode = 125;
    else {
      // For `git bisect run`: 0 (good) when fast enough, 1 (bad) when not. The CPU per request against the
      // baseline's is the steadier figure on a busy machine (it leaves out the load generator and the neighbours).
      const good =
        (o.minRatio === undefined || result.ratio >= o.minRatio) &&
        (o.maxCpuRatio === undefined || result.cpuRatio <= o.maxCpuRatio) &&
        (o.maxCpuVs === undefined || result.cpuVs <= o.maxCpuVs);
      console.log(
        `bisect: req/s ratio ${result.ratio.toFixed(2)} (min ${o.minRatio ?? '-'}), CPU per request ratio ${result.cpuRatio.toFixed(2)} (max ${o.maxCpuRatio ?? '-'}), CPU per request against the other tree ${result.cpuVs.toFixed(2)} (max ${o.maxCpuVs ?? '-'}): ${good ? 'good' : 'bad'}, load ${loadAverage()}`,
      );
      process.exitCode = good ? 0 : 1;
    }
  }
}

/** BENCH_PROFILE=ref|cur|ref,cur (or ref-gateway, cur-content, …): a V8 CPU profile of those processes in bench/results/. */
function spec(
  t: Tree,
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): ChildSpec {
  const wanted = (process.env.BENCH_PROFILE ?? '').split(',');
  const profiled = wanted.includes(`${t.key}-${name}`) || (name === 'standalone' && wanted.includes(t.key));
  return {
    name: `${t.key}-${name}`,
    script,
    args,
    cwd: t.dir,
    env,
    readyUrl,
    tier: name === 'standalone' || name === 'gateway' ? 0 : 1,
    execArgv: profiled ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
  };
}

const pidsOf =
  (fleet: Fleet, ...names: string[]) =>
  () =>
    fleet.children.filter((c) => names.includes(c.spec.name)).flatMap((c) => (c.proc.pid ? [c.proc.pid] : []));

async function startDistributed(
  fleet: Fleet,
  t: Tree,
  env: Record<string, string>,
): Promise<Target & { tree: Tree; kind: string }> {
  const services = ['org-admin', 'content', 'sites', 'integrations'] as const;
  const ports = Object.fromEntries(await Promise.all(services.map(async (s) => [s, await freePort()] as const)));
  const url = (s: string) => `http://127.0.0.1:${ports[s]}`;
  const peers = {
    ORG_ADMIN_URL: url('org-admin'),
    CONTENT_URL: url('content'),
    SITES_URL: url('sites'),
    INTEGRATIONS_URL: url('integrations'),
  };
  for (const s of services)
    await fleet.start(
      spec(t, s, `services/${s}/src/main.ts`, [], { ...env, ...peers, PORT: String(ports[s]) }, `${url(s)}/readyz`),
    );
  const gw = await freePort();
  await fleet.start(
    spec(
      t,
      'gateway',
      'gateway/src/main.ts',
      [],
      { ...env, ...peers, PORT: String(gw) },
      `http://127.0.0.1:${gw}/healthz`,
    ),
  );
  return {
    key: 'c',
    label: `${t.key} distributed`,
    url: `http://127.0.0.1:${gw}`,
    tree: t,
    kind: 'distributed',
    pids: pidsOf(fleet, ...['gateway', ...services].map((s) => `${t.key}-${s}`)),
  };
}
