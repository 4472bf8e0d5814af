// npm run fuzz -- [--budget N] [--seed S] [--examples K] [--transport in-process|http] [--concurrency C]
// Starts the whole platform on a fresh test database (PostgreSQL on 127.0.0.1:5432, as the tests), fuzzes
// every operation of its /v1/openapi.json with N requests from seed S, prints the requests and statuses per
// operation and every violation of the contract, and exits 1 when there is one. `--transport http` runs the
// services behind HTTP as in a distributed deployment (default: in process, as `npm start`). `--concurrency C`
// keeps C requests in flight (default 1: one after the other).
import { parseArgs } from 'node:util';
import { startPlatform } from '../e2e/harness.ts';
import { fuzzPlatform } from './fuzz.ts';
import { formatFindings, formatSummary } from './report.ts';

const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '2500' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    examples: { type: 'string', default: 'Infinity' },
    transport: { type: 'string', default: 'in-process' },
    concurrency: { type: 'string', default: '1' },
  },
});
const integer = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isFinite(n) && text !== 'Infinity') throw new Error(`--${name} must be a number, not ${text}`);
  return n;
};
const budget = integer('budget', values.budget);
const seed = integer('seed', values.seed) | 0;
const concurrency = integer('concurrency', values.concurrency);

const transport = values.transport;
if (transport !== 'in-process' && transport !== 'http')
  throw new Error(`--transport must be in-process or http, not ${transport}`);
const p = await startPlatform({ transport, env: { QUIRE_OUTBOUND_FETCH: '0' } });
try {
  console.log(`fuzzing ${p.url} (${transport} transport): ${budget} requests, seed ${seed}, ${concurrency} in flight`);
  const report = await fuzzPlatform(p, { seed, budget, concurrency });
  console.log(formatSummary(report));
  console.log(`\n${formatFindings(report, integer('examples', values.examples))}`);
  process.exitCode = report.findings.length ? 1 : 0;
} finally {
  await p.stop();
}
