import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { eventually, failingJob, natsAvailable, TEST_NATS_URL, testLogger } from '../testing/index.ts';
import type { JobDefinition } from './job.ts';
import { NatsJobRunner } from './nats-runner.ts';

const hasNats = await natsAvailable();

/** A work-queue stream of its own per test; replicas share it like service replicas do. */
function queue() {
  const id = randomBytes(4).toString('hex');
  const opts = { url: TEST_NATS_URL, stream: `QTJ_${id}`, prefix: `qtj${id}`, log: testLogger() };
  const started: NatsJobRunner[] = [];
  return {
    opts,
    replica: async (jobs: JobDefinition<any>[]) => {
      const r = await NatsJobRunner.connect(opts, jobs);
      started.push(r);
      await r.start();
      return r;
    },
    cleanup: async () => {
      for (const r of started.slice(1)) await r.stop();
      if (started[0]) {
        await started[0].deleteStream().catch(() => {});
        await started[0].stop();
      }
    },
  };
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups) await c();
  cleanups = [];
});

describe.skipIf(!hasNats)('NatsJobRunner (JetStream work queue)', () => {
  it('uses a work-queue stream and runs each queued run once across replicas', async () => {
    const q = queue();
    cleanups.push(q.cleanup);
    const ran: { replica: string; n: number }[] = [];
    const job = (replica: string): JobDefinition<{ n: number }> => ({
      name: 'work',
      payload: z.object({ n: z.number() }),
      run: async (run) => {
        await new Promise((r) => setTimeout(r, 5));
        ran.push({ replica, n: run.payload.n });
      },
    });
    const a = await q.replica([job('a')]);
    await q.replica([job('b')]);
    for (let n = 0; n < 20; n++) await a.enqueue('work', { n });
    await eventually(async () => ran.length >= 20, 10_000, 'twenty runs');
    await new Promise((r) => setTimeout(r, 200));
    expect(ran.map((r) => r.n).sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
    expect(new Set(ran.map((r) => r.replica))).toEqual(new Set(['a', 'b']));

    const nc = await connect({ servers: TEST_NATS_URL });
    const info = await (await jetstreamManager(nc)).streams.info(q.opts.stream);
    await nc.close();
    expect(info.config.retention).toBe('workqueue');
    await eventually(
      async () => {
        const nc2 = await connect({ servers: TEST_NATS_URL });
        const state = (await (await jetstreamManager(nc2)).streams.info(q.opts.stream)).state;
        await nc2.close();
        return state.messages === 0;
      },
      5_000,
      'acknowledged runs removed from the work queue',
    );
  });

  it('keeps one scheduled run per period whatever the number of replicas', async () => {
    const q = queue();
    cleanups.push(q.cleanup);
    const ids: string[] = [];
    const job: JobDefinition = { name: 'hourly', everyMs: 3_600_000, run: async (run) => void ids.push(run.id) };
    await q.replica([job]);
    await q.replica([job]);
    await q.replica([job]);
    await eventually(async () => ids.length >= 1, 5_000, 'the scheduled run');
    await new Promise((r) => setTimeout(r, 500));
    expect(ids).toEqual([`hourly@${Math.floor(Date.now() / 3_600_000) * 3_600_000}`]);
  });

  it('retries with the backoff delay (nak), then publishes a dead letter and removes the run', async () => {
    const q = queue();
    cleanups.push(q.cleanup);
    const { job, attempts } = failingJob([300, 600]);
    const r = await q.replica([job]);
    const id = await r.enqueue('flaky', { n: 7 });
    const dead = await eventually(() => r.lastDeadLetter('flaky'), 10_000, 'the dead letter');
    expect(dead).toMatchObject({ id, job: 'flaky', payload: { n: 7 }, attempts: 3, error: 'Error: boom 3' });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(250);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(550);
    // Only the dead letter is left in the stream: the exhausted run was acknowledged.
    const nc = await connect({ servers: TEST_NATS_URL });
    const info = await (await jetstreamManager(nc)).streams.info(q.opts.stream, { subjects_filter: '>' });
    await nc.close();
    expect(info.state.subjects).toEqual({ [`${q.opts.prefix}.dead.flaky`]: 1 });
  });

  it('dead-letters a run whose payload does not validate, without running it', async () => {
    const q = queue();
    cleanups.push(q.cleanup);
    let ran = 0;
    const r = await q.replica([{ name: 'typed', payload: z.object({ n: z.number() }), run: async () => void ran++ }]);
    await r.enqueue('typed', { n: 'x' });
    const dead = await eventually(() => r.lastDeadLetter('typed'), 5_000, 'the dead letter');
    expect(dead.error).toMatch(/^invalid payload/);
    expect(ran).toBe(0);
  });
});
