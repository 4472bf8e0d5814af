import fc from 'fast-check';
import type { Platform } from '../e2e/harness.ts';
import { Contract, type Violation } from './contract.ts';
import { readOperations } from './document.ts';
import { RawClient, type Outcome } from './http.ts';
import type { Operation } from './document.ts';
import { baselineArbitrary, requestArbitrary, type FuzzRequest, type FuzzTargets } from './requests.ts';
import { seedPlatform } from './seed.ts';

export interface FuzzOptions {
  /** fast-check seed: the same seed and budget send the same requests. */
  seed: number;
  /** How many requests to send. */
  budget: number;
  /** Requests in flight at once, each on its own connection (default 1: one after the other, reproducible). */
  concurrency?: number;
}

export interface Finding {
  /** Position of the request in the run (0-based). */
  index: number;
  request: FuzzRequest;
  outcome: Outcome;
  violation: Violation;
}

export interface FuzzReport extends FuzzOptions {
  sent: number;
  elapsedMs: number;
  /** Requests per operation key, by status (or socket error code). */
  statuses: Map<string, Map<string, number>>;
  findings: Finding[];
}

/** Requests are generated in chunks, each from its own seed derived from the run's, to bound memory on long runs. */
const CHUNK = 500;
const chunkSeed = (seed: number, chunk: number) => (chunk === 0 ? seed : Math.imul(seed ^ chunk, 0x9e3779b1) ^ chunk);

/**
 * The run's requests: first a valid one to every operation with the owner's token and one without a token
 * (so each operation's success and its 401 are checked on every run), then random ones.
 */
function* generate(
  operations: Operation[],
  targets: FuzzTargets,
  { seed, budget }: FuzzOptions,
): Generator<FuzzRequest> {
  const baseline = fc.sample(baselineArbitrary(operations, targets), { seed, numRuns: 1 })[0]!;
  yield* baseline.slice(0, budget);
  const random = requestArbitrary(operations, targets);
  for (let chunk = 0, left = budget - baseline.length; left > 0; chunk++, left -= CHUNK) {
    yield* fc.sample(random, { seed: chunkSeed(seed, chunk), numRuns: Math.min(CHUNK, left) });
  }
}

/**
 * Sends `budget` generated requests to every operation of `document`, `concurrency` at a time (one by default),
 * and checks each answer. With more than one in flight the requests are the same, their interleaving is not.
 */
export async function fuzz(
  url: string,
  document: Record<string, unknown>,
  targets: FuzzTargets,
  opts: FuzzOptions,
): Promise<FuzzReport> {
  const operations = readOperations(document);
  const byKey = new Map(operations.map((op) => [op.key, op]));
  const contract = new Contract();
  const clients = Array.from({ length: Math.max(1, opts.concurrency ?? 1) }, () => new RawClient(url));
  const report: FuzzReport = {
    ...opts,
    sent: 0,
    elapsedMs: 0,
    statuses: new Map(operations.map((op) => [op.key, new Map()])),
    findings: [],
  };
  const requests = generate(operations, targets, opts);
  let next = 0;
  const worker = async (client: RawClient) => {
    for (let item = requests.next(); !item.done; item = requests.next()) {
      const request = item.value;
      const index = next++;
      const outcome = await client.send(request, request.oversized);
      report.sent++;
      const statuses = report.statuses.get(request.operation)!;
      const seen = 'response' in outcome ? String(outcome.response.status) : outcome.failure.code;
      statuses.set(seen, (statuses.get(seen) ?? 0) + 1);
      for (const violation of contract.check(byKey.get(request.operation)!, request, outcome))
        report.findings.push({ index, request, outcome, violation });
    }
  };
  const started = performance.now();
  try {
    await Promise.all(clients.map(worker));
    report.findings.sort((a, b) => a.index - b.index);
  } finally {
    report.elapsedMs = performance.now() - started;
    await Promise.all(clients.map((c) => c.close()));
  }
  return report;
}

/** Seeds a running platform, reads its `/v1/openapi.json` and fuzzes it. */
export async function fuzzPlatform(p: Platform, opts: FuzzOptions): Promise<FuzzReport> {
  const client = new RawClient(p.url);
  try {
    const targets = await seedPlatform(p, client);
    const out = await client.send({ method: 'GET', path: '/v1/openapi.json', headers: {}, body: undefined });
    if (!('response' in out) || out.response.status !== 200)
      throw new Error(`GET /v1/openapi.json failed: ${JSON.stringify(out)}`);
    return await fuzz(p.url, JSON.parse(out.response.text), targets, opts);
  } finally {
    await client.close();
  }
}
