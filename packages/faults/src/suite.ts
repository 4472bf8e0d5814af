import { Deployment, PROCESSES, type ProcessName } from './deployment.ts';
import { Load, type Sample, type Target } from './load.ts';
import { PrivateNats } from './private-nats.ts';
import { PrivatePostgres } from './private-postgres.ts';
import { sleep, tempDir, until } from './processes.ts';

export interface SuiteOptions {
  /** The short run (CI): brief outages. The full one holds PostgreSQL away 10 s and NATS 60 s. */
  short: boolean;
  writers: number;
  log: (line: string) => void;
}

export interface FaultResult {
  fault: string;
  heldMs: number;
  /** How long bringing the part back took (PostgreSQL's or NATS's start, a process's start until it answers /healthz). */
  restartMs: number;
  /** From the part being back to the first success of what it blocked. */
  recoveryMs: number | null;
  statuses: Record<string, number>;
  /** The slowest 503 while the fault lasted (ms): outages are answered quickly, not waited out. */
  slowest503Ms: number;
  note?: string;
  /** The slowest `/healthz` of the processes still running, asked while the fault lasted (ms). */
  healthzMs: number;
  /** The processes whose `/readyz` answered 503 while the fault lasted. */
  notReady: string[];
  /** From the part being back until every `/readyz` answers 200 again (ms). */
  readyAgainMs: number | null;
}

export interface SuiteReport {
  ok: boolean;
  faults: FaultResult[];
  acknowledged: number;
  lost: number;
  eventsMissing: number;
  calls: number;
  problems: string[];
  logDir: string;
}

/** Recovery must take at most this long. */
export const RECOVERY_LIMIT_MS = 10_000;
/** Liveness answers within this (the contract is 100 ms; generous here: the suite runs on busy machines too). */
const HEALTHZ_LIMIT_MS = 1_000;
/** A 503 slower than this is not "quick" (generous: the suite runs on busy machines too). */
const SLOW_503_MS = 5_000;

const ALLOWED: Record<Sample['kind'], Set<number>> = { write: new Set([201, 503]), read: new Set([200, 503]) };
/** The call each fault blocks: its first success after the fault ends is the recovery. */
const BLOCKED: Record<ProcessName, { kind: Sample['kind']; target: Target }> = {
  'org-admin': { kind: 'write', target: 'content' },
  content: { kind: 'write', target: 'content' },
  sites: { kind: 'read', target: 'sites' },
  integrations: { kind: 'read', target: 'integrations' },
  gateway: { kind: 'write', target: 'content' },
};

/** Teardowns of the runs in progress: an interrupted run (Ctrl-C, SIGTERM) stops what it started. */
const interrupted = new Set<() => Promise<void>>();
export async function stopRunsInProgress(): Promise<void> {
  await Promise.allSettled([...interrupted].map((t) => t()));
}

/**
 * The fault suite: the distributed deployment on a private PostgreSQL and NATS under write load, through
 * a PostgreSQL crash, a NATS stop, and `kill -9` of each process in turn. Checks no 5xx but 503, only the
 * statuses each call documents, Retry-After on every 503, recovery within 10 s, no acknowledged write lost,
 * every write's event delivered.
 */
export async function runSuite(opts: SuiteOptions): Promise<SuiteReport> {
  const logs = tempDir('logs');
  const pg = await PrivatePostgres.create();
  const nats = await PrivateNats.create().catch(async (err: unknown) => {
    await pg.destroy();
    throw err;
  });
  const d = new Deployment({ databaseUrl: pg.url('quire'), natsUrl: nats.url, logDir: logs.path });
  const teardown = async () => {
    await d.stopAll();
    await nats.destroy();
    await pg.destroy();
  };
  interrupted.add(teardown);
  const problems: string[] = [];
  let completed = false;
  try {
    await pg.sql('postgres', 'create database quire');
    await d.startAll();
    const { organization, token } = await d.bootstrap();
    const load = new Load(d.url('gateway'), token, organization);
    load.start(opts.writers);
    await sleep(2_000);
    const faults = await injectEveryFault({ load, d, pg, nats }, opts);
    load.phase = 'steady';
    await sleep(2_000);
    await load.stop();
    problems.push(...checkSamples(load.samples), ...faults.flatMap(checkFault));
    const { lost, eventsMissing } = await checkData(pg, load, problems);
    completed = true;
    return {
      ok: problems.length === 0,
      faults,
      acknowledged: load.acked.size,
      lost,
      eventsMissing,
      calls: load.samples.length,
      problems,
      logDir: logs.path,
    };
  } finally {
    interrupted.delete(teardown);
    await teardown();
    // The processes' logs are kept when anything went wrong (the report names the directory).
    if (completed && problems.length === 0) logs.remove();
    else opts.log(`logs kept in ${logs.path}`);
  }
}

/** Each fault in turn under the load, logged as it ends: a PostgreSQL crash, a NATS stop, `kill -9` of each process. */
async function injectEveryFault(
  parts: { load: Load; d: Deployment; pg: PrivatePostgres; nats: PrivateNats },
  opts: SuiteOptions,
): Promise<FaultResult[]> {
  const { load, d, pg, nats } = parts;
  const faults: FaultResult[] = [];
  const isWrite = (s: Sample) => s.kind === 'write' && s.status === 201;
  const specs: FaultSpec[] = [
    {
      fault: 'postgres crash',
      held: opts.short ? 3_000 : 10_000,
      inject: () => pg.crash(),
      restore: () => pg.start(),
      recovered: isWrite,
    },
    {
      fault: 'nats stop',
      held: opts.short ? 5_000 : 60_000,
      inject: () => nats.stop(),
      restore: () => nats.start(),
      recovered: isWrite,
      during: async () => `outbox backlog at the end of the outage: ${await backlog(pg)}`,
    },
    ...PROCESSES.map((name): FaultSpec => {
      const blocked = BLOCKED[name];
      return {
        fault: `kill -9 ${name}`,
        held: opts.short ? 1_500 : 5_000,
        inject: () => d.kill(name),
        restore: () => d.start(name),
        recovered: (s) =>
          s.kind === blocked.kind && s.target === blocked.target && typeof s.status === 'number' && s.status < 300,
      };
    }),
  ];
  for (const spec of specs) {
    const result = await injectFault(load, d, spec);
    opts.log(faultLine(result));
    faults.push(result);
    await sleep(1_000);
  }
  return faults;
}

/** What the log says of a fault once it is over. */
function faultLine(result: FaultResult): string {
  return (
    `${result.fault}: held ${result.heldMs} ms, back in ${result.restartMs} ms, recovered ${result.recoveryMs ?? 'never'} ms later, ` +
    `ready again ${result.readyAgainMs ?? 'never'} ms later; slowest 503 ${result.slowest503Ms} ms, slowest /healthz ${result.healthzMs} ms, ` +
    `not ready: ${result.notReady.join(' ') || 'none'}; ${JSON.stringify(result.statuses)}${result.note ? ` (${result.note})` : ''}`
  );
}

/** Each fault: recovery within the limit, liveness answered quickly, readiness down while it lasts (where it should be) and up again. */
function checkFault(f: FaultResult): string[] {
  const out: string[] = [];
  if (f.recoveryMs === null || f.recoveryMs > RECOVERY_LIMIT_MS)
    out.push(`${f.fault}: recovery ${f.recoveryMs ?? 'never'} ms`);
  if (f.readyAgainMs === null || f.readyAgainMs > RECOVERY_LIMIT_MS)
    out.push(`${f.fault}: /readyz 200 again after ${f.readyAgainMs ?? 'never'} ms`);
  if (f.healthzMs > HEALTHZ_LIMIT_MS) out.push(`${f.fault}: /healthz took ${f.healthzMs} ms`);
  const expected =
    f.fault === 'postgres crash' || f.fault === 'nats stop'
      ? ['content', 'gateway', 'integrations', 'org-admin', 'sites']
      : ['gateway'];
  const missing = expected.filter((p) => !f.fault.endsWith(` ${p}`) && !f.notReady.includes(p));
  if (missing.length) out.push(`${f.fault}: /readyz of ${missing.join(', ')} answered 200 while it lasted`);
  return out;
}

interface FaultSpec {
  fault: string;
  held: number;
  inject: () => Promise<void>;
  restore: () => Promise<void>;
  recovered: (s: Sample) => boolean;
  during?: (() => Promise<string>) | undefined;
}

/** Every process's `/healthz` (slowest time) and `/readyz` (who is not ready); a process that does not answer counts as down. */
async function probeHealth(d: Deployment): Promise<{ healthzMs: number; down: string[]; notReady: string[] }> {
  const probes = await Promise.all(
    PROCESSES.map(async (name) => {
      const started = performance.now();
      const live = await fetch(`${d.url(name)}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.ok,
        () => null,
      );
      const ms = performance.now() - started;
      const ready = live
        ? await fetch(`${d.url(name)}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
            (r) => r.ok,
            () => false,
          )
        : false;
      return { name, live, ms, ready };
    }),
  );
  return {
    healthzMs: Math.round(Math.max(0, ...probes.filter((p) => p.live).map((p) => p.ms))),
    down: probes.filter((p) => !p.live).map((p) => p.name),
    notReady: probes.filter((p) => p.live && !p.ready).map((p) => p.name),
  };
}

async function injectFault(load: Load, d: Deployment, spec: FaultSpec): Promise<FaultResult> {
  const from = load.samples.length;
  load.phase = spec.fault;
  const started = Date.now();
  await spec.inject();
  await sleep(spec.held);
  const health = await probeHealth(d);
  const note = await spec.during?.();
  const restoring = Date.now();
  load.phase = `${spec.fault} (recovering)`;
  await spec.restore();
  const back = Date.now();
  const recovered = await until(async () => load.samples.some((s) => s.at > back && spec.recovered(s)), 30_000, 20);
  const first = load.samples.find((s) => s.at > back && spec.recovered(s));
  const readyAgain = await until(async () => (await probeHealth(d)).notReady.length === 0, 30_000, 100);
  const readyAgainMs = readyAgain ? Date.now() - back : null;
  const mine = load.samples.slice(from);
  load.phase = 'steady';
  const statuses: Record<string, number> = {};
  for (const s of mine) statuses[String(s.status)] = (statuses[String(s.status)] ?? 0) + 1;
  const slowest = Math.max(0, ...mine.filter((s) => s.status === 503).map((s) => s.ms));
  return {
    fault: spec.fault,
    heldMs: restoring - started,
    restartMs: back - restoring,
    recoveryMs: recovered && first ? first.at - back : null,
    statuses,
    slowest503Ms: Math.round(slowest),
    healthzMs: health.healthzMs,
    notReady: health.notReady,
    readyAgainMs,
    ...(note ? { note } : {}),
  };
}

/** What each answer may be: its documented statuses, 503 with Retry-After and quickly, no hang, no refusal but the gateway's. */
function checkSamples(samples: Sample[]): string[] {
  const problems = new Map<string, number>();
  const add = (p: string) => problems.set(p, (problems.get(p) ?? 0) + 1);
  for (const s of samples) {
    const where = `${s.phase}: ${s.kind} of ${s.target}`;
    if (s.status === 'timeout') add(`${where}: no answer within 10 s`);
    else if (s.status === 'unreachable') {
      if (!s.phase.startsWith('kill -9 gateway')) add(`${where}: gateway unreachable`);
    } else if (!ALLOWED[s.kind].has(s.status)) add(`${where}: HTTP ${s.status}`);
    else if (s.status === 503) {
      if (!s.retryAfter) add(`${where}: 503 without Retry-After`);
      if (s.ms > SLOW_503_MS) add(`${where}: 503 after ${Math.round(s.ms)} ms`);
      if (s.phase === 'steady' || s.phase === 'warm-up') add(`${where}: 503 outside any fault`);
      if (s.phase.startsWith('nats stop') && s.kind === 'write')
        add(`${where}: a write refused while NATS is away (the outbox should hold its event)`);
    }
  }
  return [...problems].map(([p, n]) => `${p} (×${n})`);
}

const backlog = async (pg: PrivatePostgres) =>
  Number(
    (await pg.sql<{ n: string }>('quire', 'select count(*) as n from content.outbox where published_at is null'))[0]?.n,
  );

/** Every acknowledged space stored, and known to sites (its `space.created` event delivered). */
async function checkData(
  pg: PrivatePostgres,
  load: Load,
  problems: string[],
): Promise<{ lost: number; eventsMissing: number }> {
  const ids = [...load.acked.keys()];
  const stored = await pg.sql<{ id: string }>('quire', 'select id from content.space where id = any($1)', [ids]);
  const lost = ids.length - stored.length;
  if (lost) problems.push(`${lost} acknowledged writes lost`);
  let eventsMissing = ids.length;
  await until(
    async () => {
      const seen = await pg.sql<{ n: string }>(
        'quire',
        'select count(*) as n from sites.content_space where id = any($1)',
        [ids],
      );
      eventsMissing = ids.length - Number(seen[0]?.n);
      return eventsMissing === 0;
    },
    30_000,
    500,
  );
  if (eventsMissing)
    problems.push(
      `${eventsMissing} space.created events not delivered to sites within 30 s (outbox backlog ${await backlog(pg)})`,
    );
  return { lost, eventsMissing };
}
