import { parseArgs } from 'node:util';
import { runSuite, stopRunsInProgress } from './suite.ts';

/** `npm run faults [-- --short] [--runs N] [--writers N]`: the fault suite, N runs in a row; exit 1 on any problem. */
const { values } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    writers: { type: 'string', default: '8' },
  },
});
const log = (line: string) => console.log(line);
// Interrupted: stop the processes, PostgreSQL and NATS the run started, then exit as a signal would.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => {
    log(`== ${signal}: stopping the run's processes`);
    void stopRunsInProgress().finally(() => process.exit(code));
  });
let failed = 0;
for (let run = 1; run <= Number(values.runs); run++) {
  log(`== fault suite run ${run}/${values.runs} (${values.short ? 'short' : 'full'}, ${values.writers} writers)`);
  const started = Date.now();
  const report = await runSuite({ short: values.short, writers: Number(values.writers), log });
  log(
    `   ${report.calls} calls, ${report.acknowledged} writes acknowledged, ${report.lost} lost, ${report.eventsMissing} events missing, ${Math.round((Date.now() - started) / 1000)} s`,
  );
  if (report.ok) log('   ok');
  else {
    failed++;
    for (const p of report.problems) log(`   PROBLEM ${p}`);
  }
}
process.exit(failed ? 1 : 0);
