import { describe, expect, it } from 'vitest';
import { fuzzPlatform } from '../fuzz/fuzz.ts';
import { formatFindings, formatSummary } from '../fuzz/report.ts';
import { usePlatform } from './harness.ts';

/**
 * Hostile input: every operation of /v1/openapi.json, valid and hostile requests, every answer keeps the
 * contract (see fuzz/contract.ts). Seeded and bounded so CI stays fast; `npm run fuzz -- --budget N --seed S`
 * runs longer or other seeds, and QUIRE_FUZZ_SEED / QUIRE_FUZZ_BUDGET replay another run here.
 * Both transports: the services in process (`npm start`), and behind HTTP as in a distributed deployment
 * (the raw input crosses a socket as JSON: `?__proto__=1` once turned into a 503 there), with a third of
 * the budget.
 */
const seed = Number(process.env.QUIRE_FUZZ_SEED ?? 20_260_101);
const budget = Number(process.env.QUIRE_FUZZ_BUDGET ?? 3000);

describe.each([
  { transport: 'in-process' as const, budget },
  { transport: 'http' as const, budget: Math.ceil(budget / 3) },
])('the contract ($transport transport)', ({ transport, budget }) => {
  const p = usePlatform({ transport, env: { QUIRE_OUTBOUND_FETCH: '0' } });

  it(`keeps the contract under ${budget} requests (seed ${seed})`, { timeout: 120_000 }, async () => {
    const report = await fuzzPlatform(p, { seed, budget });
    expect(report.sent).toBe(budget);
    expect(report.findings.length, `${formatFindings(report, 2)}\n\n${formatSummary(report)}\n`).toBe(0);
  });
});
