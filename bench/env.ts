// The bench scripts' settings from the environment, the environment they hand their children, and their API calls.

/** An integer setting (`fallback` when unset or empty); a value that is not an integer >= `min` stops the bench naming it. */
export function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer >= ${min}, not ${JSON.stringify(raw)}`);
  return n;
}

/** How a bench loads a server (autocannon): BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP (seconds). */
export interface LoadSettings {
  connections: number;
  seconds: number;
  rounds: number;
  warmup: number;
}

/** The load settings from the environment, each defaulting to the bench's own. */
export const loadSettings = (defaults: LoadSettings): LoadSettings => ({
  connections: intEnv('BENCH_CONNECTIONS', defaults.connections, 1),
  seconds: intEnv('BENCH_SECONDS', defaults.seconds, 1),
  rounds: intEnv('BENCH_ROUNDS', defaults.rounds, 1),
  warmup: intEnv('BENCH_WARMUP', defaults.warmup, 0),
});

/** The A/B load of `npm run bench` and of `--compare` (bench/compare.ts), from the environment. */
export const abLoadSettings = (): LoadSettings => loadSettings({ connections: 50, seconds: 10, rounds: 3, warmup: 2 });

/**
 * No rate limits, for a platform one bench client calls thousands of times: the default limits (on since issue 29)
 * would answer most of the calls 429.
 */
export const NO_RATE_LIMITS = {
  QUIRE_RATE_LIMIT_PER_MINUTE: '0',
  QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
  QUIRE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0',
};

/** Anything Quire reads: the children get the bench's environment without it, and what they need set explicitly. */
const QUIRE_ENV =
  /^(DATABASE_URL|PORT|HOST|LOG_LEVEL|NATS_.*|QUIRE_.*|BENCH_.*|(ORG_ADMIN|CONTENT|SITES|INTEGRATIONS)_URL)$/;
export const childBaseEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !QUIRE_ENV.test(e[0])),
  );

/** A JSON call to the API at `base` with a bearer token: the parsed answer; an error answer stops the bench naming it. */
export const apiCaller =
  (base: string) =>
  async (method: string, path: string, token: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
