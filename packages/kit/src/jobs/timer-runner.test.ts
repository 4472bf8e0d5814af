import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventually, failingJob, testLogger } from '../testing/index.ts';
import { retryDelay, scheduledRunId, untilNextPeriod, type JobDefinition, type JobRun } from './job.ts';
import { TimerJobRunner } from './timer-runner.ts';

const runners: TimerJobRunner[] = [];
const runner = (jobs: JobDefinition<any>[]) => {
  const r = new TimerJobRunner(jobs, testLogger());
  runners.push(r);
  return r;
};
afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
});

describe('job helpers', () => {
  it('names one scheduled run per period and waits until the next one', () => {
    const def = { name: 'tick', everyMs: 1_000, run: async () => {} };
    expect(scheduledRunId(def, 12_345)).toBe('tick@12000');
    expect(scheduledRunId(def, 12_999)).toBe('tick@12000');
    expect(scheduledRunId(def, 13_000)).toBe('tick@13000');
    expect(untilNextPeriod(1_000, 12_345)).toBe(655);
  });

  it('backs off per attempt, repeating the last delay', () => {
    const def = { name: 'x', run: async () => {}, backoffMs: [10, 20] };
    expect([1, 2, 3, 9].map((a) => retryDelay(def, a))).toEqual([10, 20, 20, 20]);
  });

  it('refuses bad job names and duplicates', () => {
    expect(() => new TimerJobRunner([{ name: 'Bad Name', run: async () => {} }], testLogger())).toThrow(/lowercase/);
    expect(
      () =>
        new TimerJobRunner(
          [
            { name: 'a', run: async () => {} },
            { name: 'a', run: async () => {} },
          ],
          testLogger(),
        ),
    ).toThrow(/twice/);
  });
});

describe('TimerJobRunner (standalone)', () => {
  it('runs a scheduled job at start, then once per period', async () => {
    const runs: JobRun[] = [];
    const r = runner([{ name: 'tick', everyMs: 40, run: async (run) => void runs.push(run) }]);
    await r.start();
    await eventually(async () => runs.length >= 3, 2_000, 'three runs');
    expect(new Set(runs.map((x) => x.id)).size).toBe(runs.length);
    expect(runs.every((x) => x.id.startsWith('tick@') && x.attempt === 1)).toBe(true);
    await r.stop();
    const after = runs.length;
    await new Promise((res) => setTimeout(res, 120));
    expect(runs.length).toBe(after);
  });

  it('retries a failing run with backoff, then dead-letters it with the last error', async () => {
    const { job, attempts } = failingJob([30, 60]);
    const r = runner([job]);
    await r.start();
    const id = await r.enqueue('flaky', { n: 1 });
    await r.idle();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(25);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(55);
    expect(r.deadLetters()).toEqual([
      expect.objectContaining({ id, job: 'flaky', payload: { n: 1 }, attempts: 3, error: 'Error: boom 3' }),
    ]);
  });

  it('succeeds on a retry without dead-lettering', async () => {
    let calls = 0;
    const r = runner([
      {
        name: 'second-time',
        backoffMs: [5],
        run: async () =>
          void (
            ++calls === 1 &&
            (() => {
              throw new Error('once');
            })()
          ),
      },
    ]);
    await r.start();
    await r.enqueue('second-time');
    await r.idle();
    expect(calls).toBe(2);
    expect(r.deadLetters()).toEqual([]);
  });

  it('validates payloads, dedupes run ids and refuses unknown jobs', async () => {
    const seen: number[] = [];
    const r = runner([
      {
        name: 'typed',
        payload: z.object({ n: z.number() }),
        run: async (run: JobRun<{ n: number }>) => void seen.push(run.payload.n),
      },
    ]);
    await r.start();
    await r.enqueue('typed', { n: 1 }, { id: 'same' });
    await r.enqueue('typed', { n: 2 }, { id: 'same' });
    await r.enqueue('typed', { n: 'three' });
    await r.idle();
    expect(seen).toEqual([1]);
    expect(r.deadLetters()).toEqual([
      expect.objectContaining({ job: 'typed', attempts: 0, error: expect.stringMatching(/^invalid payload/) }),
    ]);
    await expect(r.enqueue('nope')).rejects.toThrow('unknown job nope');
  });
});
