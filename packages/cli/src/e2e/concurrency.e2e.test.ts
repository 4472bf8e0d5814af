import { describe, expect, it } from 'vitest';
import { concurrencyPlatform, formatConcurrencyFindings, formatConcurrencySummary } from '../fuzz/concurrency.ts';
import { usePlatform } from './harness.ts';

/**
 * Concurrent writes to one resource (see fuzz/concurrency.ts): every write operation of /v1/openapi.json, 8
 * identical calls at once, then 8 mixed with a DELETE of the same resource; only documented statuses, never a
 * 5xx, identical PUTs answered alike, the resource read back in a documented status. Both transports: the
 * services in process (`npm start`), and behind HTTP as in a distributed deployment.
 * QUIRE_CONCURRENCY_REPORT=1 prints the statuses of every run and the slowest operations.
 */
const seed = Number(process.env.QUIRE_FUZZ_SEED ?? 20_260_101);

describe.each(['in-process', 'http'] as const)('concurrent writes (%s transport)', (transport) => {
  const p = usePlatform({ transport, env: { QUIRE_OUTBOUND_FETCH: '0' } });

  it('answers every write operation called 8 times at once, alone and with a DELETE, within its contract', {
    timeout: 180_000,
  }, async () => {
    const report = await concurrencyPlatform(p, { copies: 8, seed });
    if (process.env.QUIRE_CONCURRENCY_REPORT) console.log(formatConcurrencySummary(report));
    expect(report.operations).toBeGreaterThan(60);
    const { findings } = report;
    expect(findings.length, `${formatConcurrencyFindings(report)}\n\n${formatConcurrencySummary(report)}\n`).toBe(0);
  });
});
