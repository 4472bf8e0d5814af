import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzPlatform } from '../fuzz/fuzz.ts';
import { formatFindings, formatSummary } from '../fuzz/report.ts';
import { startPlatform, type Boot, type Platform } from './harness.ts';

/**
 * Hostile input under load: the contract fuzz run (see contract-fuzz.e2e.test.ts) while another client
 * saturates the instance — 12 concurrent callers creating, listing and reading spaces as fast as they are
 * answered, rate limits off. A busy instance once answered the fuzz 5xx that a quiet one did not; both the
 * fuzz and the saturating client must see no 5xx.
 */
const seed = Number(process.env.QUIRE_FUZZ_SEED ?? 20_260_101);
const budget = Math.ceil(Number(process.env.QUIRE_FUZZ_BUDGET ?? 3000) / 6);
const SATURATING_CALLERS = 12;

/** Callers hitting the platform until stopped; every status they got, counted. */
function saturate(p: Platform, boot: Boot): { statuses: Map<number, number>; stop(): Promise<void> } {
  const statuses = new Map<number, number>();
  let running = true;
  const org = boot.organization.id;
  const headers = { authorization: `Bearer ${boot.token}`, 'content-type': 'application/json' };
  const ids: string[] = [];
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const call = async (method: string, path: string, body?: unknown) => {
    try {
      const res = await fetch(`${p.url}/v1${path}`, {
        method,
        headers,
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      count(res.status);
      return res.status < 300 ? await res.json() : undefined;
    } catch {
      count(0); // no answer within 10 s, or none at all: reported as status 0
      return undefined;
    }
  };
  const loop = async (i: number) => {
    for (let n = 0; running; n++) {
      if (n % 3 === 0) {
        const space = (await call('POST', `/orgs/${org}/spaces`, { title: `load ${i}-${n}` })) as
          | { id?: string }
          | undefined;
        if (space?.id) ids.push(space.id);
      } else if (n % 3 === 1) await call('GET', `/orgs/${org}/spaces?limit=50`);
      else if (ids.length) await call('GET', `/spaces/${ids[n % ids.length]}`);
    }
  };
  const loops = Array.from({ length: SATURATING_CALLERS }, (_, i) => loop(i));
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('the contract while another client saturates the instance', () => {
  let p: Platform;
  let boot: Boot;
  beforeAll(async () => {
    p = await startPlatform({
      env: { QUIRE_OUTBOUND_FETCH: '0', QUIRE_RATE_LIMIT_PER_MINUTE: '0', QUIRE_RATE_LIMIT_ADDRESS_PER_MINUTE: '0' },
    });
    boot = (await p.cli(['bootstrap', '--org', 'Load', '--email', 'load@quire.test'])).json;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it(`keeps the contract under ${budget} requests (seed ${seed}), and the saturating client sees no 5xx`, {
    timeout: 180_000,
  }, async () => {
    const load = saturate(p, boot);
    let report: Awaited<ReturnType<typeof fuzzPlatform>>;
    try {
      report = await fuzzPlatform(p, { seed, budget });
    } finally {
      await load.stop();
    }
    expect(report.sent).toBe(budget);
    expect(report.findings.length, `${formatFindings(report, 2)}\n\n${formatSummary(report)}\n`).toBe(0);
    const loadCalls = [...load.statuses.values()].reduce((a, b) => a + b, 0);
    expect(loadCalls).toBeGreaterThan(budget);
    expect([...load.statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(new Set(load.statuses.keys())).toEqual(new Set([200, 201]));
  });
});
