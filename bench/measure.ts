// Load generation (autocannon, in the bench process) and the figures: every round, medians, ratios.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';

export interface Target {
  key: 'a' | 'b' | 'c';
  label: string;
  url: string;
  headers?: Record<string, string>;
  /** The processes serving it, whose CPU time the rounds account (Linux `/proc`). */
  pids?: () => number[];
}

export interface RoundFigures {
  rps: number;
  p99: number;
  errors: number;
  /** CPU time (user + system) of the target's own processes per request answered, in µs; undefined without `/proc`. */
  cpuUs?: number | undefined;
}

/** The load average over 1, 5 and 15 minutes, as printed. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const TICKS_PER_SECOND = 100; // USER_HZ: the unit of utime/stime in /proc/<pid>/stat on Linux

/** User + system CPU seconds of these processes so far, or undefined when /proc cannot tell. */
export function cpuSeconds(pids: number[]): number | undefined {
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // Fields after the command name (which may hold spaces, in parentheses): utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * Where a platform's memory is, from its `/metrics` (prom-client's default metrics, the main thread's): V8 heap used
 * and total, and memory outside the heap (`external`, of which array buffers), in MiB; undefined when it does not answer.
 */
export async function heapMiB(
  baseUrl: string,
): Promise<{ heapUsed: number; heapTotal: number; external: number } | undefined> {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const value = (name: string) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
    const figures = {
      heapUsed: value('nodejs_heap_size_used_bytes'),
      heapTotal: value('nodejs_heap_size_total_bytes'),
      external: value('nodejs_external_memory_bytes'),
    };
    return Object.values(figures).every(Number.isFinite) ? figures : undefined;
  } catch {
    return undefined;
  }
}

/** A process's resident memory now and at its peak (`VmRSS`, `VmHWM` of /proc), in MiB; undefined off Linux. */
export function memoryMiB(pid: number): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const [rss, peak] = [kib('VmRSS'), kib('VmHWM')];
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rss: rss / 1024, peak: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

function run(target: Target, connections: number, seconds: number, signal: AbortSignal): Promise<autocannon.Result> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: target.url, headers: target.headers ?? {}, connections, duration: seconds },
      (err, result) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(signal.reason);
        else if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve(result);
      },
    );
    const onAbort = () => instance.stop();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A short warm-up, then one measured run; `signal` stops the load in flight (Ctrl-C, a child died). */
export async function measureOnce(
  target: Target,
  opts: { connections: number; seconds: number; warmup: number },
  signal: AbortSignal,
): Promise<RoundFigures> {
  if (opts.warmup > 0) await run(target, opts.connections, opts.warmup, signal);
  const pids = target.pids?.() ?? [];
  const cpuBefore = cpuSeconds(pids);
  const r = await run(target, opts.connections, opts.seconds, signal);
  const cpuAfter = cpuSeconds(pids);
  const cpuUs =
    cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0
      ? ((cpuAfter - cpuBefore) / r.requests.total) * 1e6
      : undefined;
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx, cpuUs };
}

export function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const fmtRps = (n: number) => n.toFixed(0);
const fmtMs = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} ms`;
const fmtUs = (n: number) => `${n.toFixed(0)} µs`;

export function formatRound(round: number, target: Target, f: RoundFigures): string {
  const errs = f.errors ? `   (${f.errors} errors/timeouts/non-2xx)` : '';
  const cpu = f.cpuUs === undefined ? '' : `   CPU ${fmtUs(f.cpuUs).padStart(7)}/req`;
  return `round ${round}  (${target.key}) ${target.label.padEnd(12)} ${fmtRps(f.rps).padStart(7)} req/s   p99 ${fmtMs(f.p99).padStart(8)}${cpu}${errs}`;
}

export interface Summary {
  target: Target;
  rounds: RoundFigures[];
  rps: number;
  p99: number;
  cpuUs?: number | undefined;
}

export function summarize(target: Target, rounds: RoundFigures[]): Summary {
  const cpu = rounds.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
  return {
    target,
    rounds,
    rps: median(rounds.map((r) => r.rps)),
    p99: median(rounds.map((r) => r.p99)),
    cpuUs: cpu.length ? median(cpu) : undefined,
  };
}

/** The table of medians and rounds, then the ratios b/a and c/a against the goals. */
export function formatSummary(a: Summary, b: Summary, c: Summary): string {
  const lines = [`target            median req/s   median p99   every round (req/s @ p99)`];
  for (const s of [a, b, c]) {
    const rounds = s.rounds
      .map((r) => `${fmtRps(r.rps)} @ ${fmtMs(r.p99)}${r.errors ? ` (${r.errors} err)` : ''}`)
      .join(', ');
    lines.push(
      `(${s.target.key}) ${s.target.label.padEnd(12)} ${fmtRps(s.rps).padStart(12)}   ${fmtMs(s.p99).padStart(10)}   ${rounds}`,
    );
  }
  const ba = b.rps / a.rps;
  const ca = c.rps / a.rps;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  lines.push('');
  // Issue 37's goals: standalone at least 0.8 of the baseline with a p99 within twice the baseline's; distributed 0.5.
  lines.push(
    `b/a = ${ba.toFixed(2)}   goal: b/a >= 0.8 with p99 <= 2 × a's (standalone; p99 ${fmtMs(b.p99)} against ${fmtMs(a.p99)})   ${verdict(ba >= 0.8 && b.p99 <= 2 * a.p99)}`,
  );
  lines.push(`c/a = ${ca.toFixed(2)}   goal: c/a >= 0.5 (distributed; p99 ${fmtMs(c.p99)})   ${verdict(ca >= 0.5)}`);
  if (a.cpuUs !== undefined && b.cpuUs !== undefined && c.cpuUs !== undefined) {
    lines.push('');
    lines.push(
      `CPU per request, the target's own processes (median): a ${fmtUs(a.cpuUs)}, b ${fmtUs(b.cpuUs)}, c ${fmtUs(c.cpuUs)}`,
    );
    lines.push(
      `  a/b = ${(a.cpuUs / b.cpuUs).toFixed(2)}, a/c = ${(a.cpuUs / c.cpuUs).toFixed(2)}: the ratios above with the load generator, PostgreSQL and anything else on the machine left out`,
    );
  }
  const errors = [a, b, c].flatMap((s) => (s.rounds.some((r) => r.errors) ? [s.target.key] : []));
  if (errors.length)
    lines.push(`warning: errors or non-2xx answers during (${errors.join('), (')}): their figures are not comparable`);
  return lines.join('\n');
}
