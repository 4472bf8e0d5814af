// wrk (a C load generator, when installed) as a second opinion beside autocannon: it costs the machine less CPU per
// request than autocannon's Node process, so the servers get more of two shared cores.
import { spawn, spawnSync } from 'node:child_process';
import type { Target } from './measure.ts';

export interface WrkFigures {
  rps: number;
  /** p99 latency, ms. */
  p99: number;
  errors: number;
}

export const wrkInstalled = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** Parses wrk's `--latency` report. */
export function parseWrk(out: string): WrkFigures {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p = /^\s*99(?:\.000)?%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  const p99 = p ? Number(p[1]) * UNIT_MS[p[2]!]! : Number.NaN;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (sock ? sock.slice(1).reduce((n, x) => n + Number(x), 0) : 0);
  if (!Number.isFinite(rps) || !Number.isFinite(p99)) throw new Error(`could not read wrk's report:\n${out}`);
  return { rps, p99, errors };
}

/** One wrk run of `seconds` on the target (2 threads, `connections` connections). */
export function measureWrk(
  target: Target,
  o: { connections: number; seconds: number },
  signal: AbortSignal,
): Promise<WrkFigures> {
  signal.throwIfAborted();
  const headers = Object.entries(target.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = ['-t2', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', ...headers, target.url];
  return new Promise((resolve, reject) => {
    const proc = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const onAbort = () => proc.kill('SIGINT');
    signal.addEventListener('abort', onAbort, { once: true });
    proc.once('error', reject);
    proc.once('close', () => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason);
      try {
        resolve(parseWrk(out));
      } catch (err) {
        reject(err);
      }
    });
  });
}
