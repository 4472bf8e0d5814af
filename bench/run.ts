// npm run bench — GET a space by id, three ways, each server in its own process(es), all running for the
// whole bench (so they see the same machine) and measured one at a time, in alternating rounds:
//   (a) baseline: a bare fastify route doing the same primary-key lookup with node-postgres (bench/baseline.ts);
//   (b) standalone: `quire start` (what `npm start` runs), in-process bus;
//   (c) distributed: the gateway and the four services as separate processes, NATS bus when reachable.
// Rounds a, b, c, a, b, c, …, each run after a short warm-up; prints every round, the medians of req/s and
// p99 per target and the ratios b/a and c/a of the medians against the goals.
// Env: DATABASE_URL (admin connection used to create the throwaway database; default
// postgres://postgres@127.0.0.1:5432/postgres), NATS_URL (for (c); default nats://127.0.0.1:4222, the
// in-process bus if unreachable), BENCH_CONNECTIONS (50), BENCH_SECONDS (10), BENCH_ROUNDS (3),
// BENCH_WARMUP (seconds, 2), BENCH_PROFILE=standalone|gateway|content|org-admin|sites|integrations|baseline
// (V8 CPU profile of that process, written to bench/results/ when it stops).
import { availableParallelism, cpus } from 'node:os';
import { abLoadSettings, NO_RATE_LIMITS } from './env.ts';
import {
  formatRound,
  formatSummary,
  loadAverage,
  measureOnce,
  summarize,
  type RoundFigures,
  type Target,
} from './measure.ts';
import {
  busOf,
  comparativeRun,
  DISTRIBUTED,
  expectSpaceAnswered,
  runComparative,
  seedBenchSpace,
  startPlatforms,
} from './platforms.ts';
import { Fleet } from './processes.ts';
import { compare, parseCompareArgs } from './compare.ts';

// `npm run bench -- --compare <ref>`: the A/B of bench/compare.ts instead.
const compareOptions = parseCompareArgs(process.argv.slice(2));
if (compareOptions) {
  await compare(compareOptions);
  process.exit();
}

const { connections, seconds, rounds, warmup } = abLoadSettings();
const PROFILABLE = ['standalone', 'gateway', 'content', 'org-admin', 'sites', 'integrations', 'baseline'];
const profile = process.env.BENCH_PROFILE || undefined;
if (profile && !PROFILABLE.includes(profile))
  throw new Error(`BENCH_PROFILE must be one of ${PROFILABLE.join(', ')}, not ${JSON.stringify(profile)}`);

const run = comparativeRun('bench');
const common = { ...run.env, ...NO_RATE_LIMITS };

const fleet = new Fleet();
const abort = new AbortController();
async function bench(dataDir: string): Promise<void> {
  const cores = availableParallelism();
  const bus = await busOf(run, true);
  const natsUp = bus.NATS_URL !== undefined;

  console.log(
    `GET a space by id — ${connections} connections, ${rounds} rounds × ${seconds} s per target (each after a ${warmup} s warm-up), alternating a, b, c`,
  );
  console.log(
    `machine: ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}; every server runs for the whole bench, one is measured at a time; load average ${loadAverage()}`,
  );
  console.log(
    `distributed bus: ${natsUp ? `NATS ${run.natsUrl} (stream ${run.natsStream}, deleted at the end)` : `in-process (NATS not reachable at ${run.natsUrl})`}\n`,
  );

  const { port, pidsOf } = await startPlatforms(fleet, { env: common, dataDir, bus, distributed: true, profile });

  // Seeding, once, through the standalone's API; both platforms share the database.
  const api = `http://127.0.0.1:${port.standalone}`;
  const { spaceId, auth } = await seedBenchSpace(api, run.adminToken);

  const targets: Target[] = [
    {
      key: 'a',
      label: 'baseline',
      url: `http://127.0.0.1:${port.baseline}/spaces/${spaceId}`,
      pids: pidsOf('baseline'),
    },
    {
      key: 'b',
      label: 'standalone',
      url: `http://127.0.0.1:${port.standalone}/v1/spaces/${spaceId}`,
      headers: auth,
      pids: pidsOf('standalone'),
    },
    {
      key: 'c',
      label: 'distributed',
      url: `http://127.0.0.1:${port.gateway}/v1/spaces/${spaceId}`,
      headers: auth,
      pids: pidsOf(...DISTRIBUTED),
    },
  ];
  await expectSpaceAnswered(targets, spaceId);
  console.log(`\n(a) baseline     bare fastify + pg primary-key lookup          ${targets[0]!.url}`);
  console.log(`(b) standalone   quire start, one process, in-process bus      GET /v1/spaces/${spaceId}`);
  console.log(
    `(c) distributed  gateway + org-admin, content, sites, integrations as 5 processes, ${natsUp ? 'NATS' : 'in-process'} bus\n`,
  );

  const figures = new Map<Target, RoundFigures[]>(targets.map((t) => [t, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      const f = await measureOnce(t, { connections, seconds, warmup }, abort.signal);
      figures.get(t)!.push(f);
      console.log(formatRound(round, t, f));
    }
  }
  const [a, b, c] = targets.map((t) => summarize(t, figures.get(t)!));
  console.log(
    `\nmedians over ${rounds} rounds, ${cores} cores (load average 1/5/15 min now ${loadAverage()}, the bench included)\n`,
  );
  console.log(formatSummary(a!, b!, c!));
  console.log('');
}

await runComparative({ run, fleet, abort, profile }, bench);
