import { appendFileSync } from 'node:fs';
import { createLogger, NatsJobRunner } from '@quire/kit';
import { slowJob } from './jobs-outage.fixture.ts';

/**
 * A worker process for jobs-outage.test.ts: takes runs of the slow job and never finishes one (it is
 * killed with -9 while working, as a service replica can be). Args: NATS url, stream, prefix, marks file.
 */
const [url, stream, prefix, marks] = process.argv.slice(2) as [string, string, string, string];
const runner = await NatsJobRunner.connect({ url, stream, prefix, log: createLogger('worker', 'silent') }, [
  slowJob((run) => {
    appendFileSync(marks, `started ${run.id} ${run.attempt} worker\n`);
    return new Promise(() => {});
  }),
]);
await runner.start();
appendFileSync(marks, 'ready\n');
