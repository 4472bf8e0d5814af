import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsJobRunner } from '@quire/kit';
import { testLogger } from '@quire/kit/testing';
import { slowJob } from './jobs-outage.fixture.ts';
import { PrivateNats } from './private-nats.ts';
import { privateServersAvailable, sleep, tempDir, until } from './processes.ts';

const available = privateServersAvailable();
/**
 * Job runs survive their worker and the broker: a run whose worker is killed with -9 mid-run is delivered
 * again once its lease expires and finishes once; the runner keeps working after NATS is stopped and started.
 */
let nats: PrivateNats;
const dir = tempDir('jobs');
const marks = join(dir.path, 'marks');
const lines = () => readFileSync(marks, 'utf8').split('\n').filter(Boolean);
const opts = () => ({ url: nats.url, stream: 'FAULT_JOBS', prefix: 'fault_jobs', log: testLogger() });

beforeAll(async () => {
  if (!available) return;
  nats = await PrivateNats.create();
  writeFileSync(marks, '');
});
afterAll(async () => {
  await nats?.destroy();
  dir.remove();
});

describe.skipIf(!available)('job runs through outages', () => {
  it('runs again, once, a run whose worker was killed with -9, after its lease', async () => {
    const worker = spawn(
      process.execPath,
      [join(import.meta.dirname, 'job-worker.ts'), nats.url, 'FAULT_JOBS', 'fault_jobs', marks],
      { stdio: 'inherit' },
    );
    expect(await until(async () => lines().includes('ready'), 30_000)).toBe(true);
    const survivor = await NatsJobRunner.connect(opts(), [
      slowJob(async (run) => {
        appendFileSync(marks, `finished ${run.id} ${run.attempt} survivor\n`);
      }),
    ]);
    // The worker takes the run first: the survivor starts consuming once the run is being worked.
    const id = await survivor.enqueue('slow', null, { id: 'slow:run-1' });
    expect(await until(async () => lines().some((l) => l.startsWith(`started ${id}`)), 10_000)).toBe(true);
    await survivor.start();
    worker.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await until(async () => lines().some((l) => l.startsWith(`finished ${id}`)), 15_000)).toBe(true);
    const redeliveredAfter = Date.now() - killedAt;
    await sleep(3_000); // a second delivery would come within another lease
    expect(lines().filter((l) => l.startsWith(`finished ${id}`))).toEqual([`finished ${id} 2 survivor`]);
    expect(redeliveredAfter).toBeLessThan(10_000);

    // NATS away and back: the same runner takes new runs again (its connection and consumer recover).
    await nats.stop();
    await sleep(2_000);
    await nats.start();
    const next = await until(
      async () => await survivor.enqueue('slow', null, { id: 'slow:run-2' }).then(() => true),
      15_000,
      250,
    );
    expect(next).toBe(true);
    expect(await until(async () => lines().some((l) => l.startsWith('finished slow:run-2')), 15_000)).toBe(true);
    await survivor.stop();
  });
});
