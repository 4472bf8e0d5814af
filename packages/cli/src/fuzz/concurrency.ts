import fc from 'fast-check';
import type { Platform } from '../e2e/harness.ts';
import { Contract, type Violation } from './contract.ts';
import { readOperations, type Operation } from './document.ts';
import { RawClient, type Outcome } from './http.ts';
import { baselineArbitrary, type FuzzRequest, type FuzzTargets } from './requests.ts';
import { seedPlatform } from './seed.ts';

/**
 * Concurrent writes to one resource, generated from `/v1/openapi.json` like the contract fuzz (same seeding,
 * same valid requests, same contract check): for every write operation (POST, PUT, PATCH, DELETE), `copies`
 * identical calls at once, then the same mixed with a DELETE of the resource the path names. Every answer
 * keeps the contract (documented statuses only, never a 5xx); identical PUTs all answer alike (idempotent);
 * the resource reads back in a documented status, and still exists after identical writes that all succeeded.
 * A DELETE, and each mixed run, acts on a fresh instance of the resource when the document has a way to create one.
 */
export type Scenario = 'identical' | 'with-delete' | 'read-back';

export interface ConcurrencyFinding {
  operation: string;
  scenario: Scenario;
  request: FuzzRequest;
  outcome: Outcome;
  violation: Violation;
}

export interface ConcurrencyReport {
  operations: number;
  requests: number;
  elapsedMs: number;
  /** Statuses per operation and scenario (`PUT /v1/… identical` → `200×8`). */
  statuses: Map<string, Map<string, number>>;
  /** Milliseconds each operation's runs took. */
  timings: Map<string, number>;
  findings: ConcurrencyFinding[];
}

export interface ConcurrencyOptions {
  /** Calls at once per run (default 8). */
  copies?: number;
  /** fast-check seed of the generated bodies. */
  seed?: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Bodies tried before a run, for one the service accepts. */
const PROBES = 3;
const statusOf = (o: Outcome) => ('response' in o ? String(o.response.status) : o.failure.code);
const ok = (o: Outcome) => 'response' in o && o.response.status < 300;

/** The template of the resource an operation acts on: its path up to and including its last path parameter. */
function resourceTemplate(op: Operation): { template: string; param: string } | undefined {
  const last = op.pathParams.at(-1);
  if (!last) return undefined;
  const at = op.template.indexOf(`{${last.name}}`);
  return { template: op.template.slice(0, at + last.name.length + 2), param: last.name };
}

/** The operation creating a resource of each path parameter: a write whose template plus `/{param}` is another one's. */
function creatorsOf(ops: Operation[]): Map<string, Operation> {
  const creators = new Map<string, Operation>();
  for (const op of ops) {
    if ((op.method !== 'POST' && op.method !== 'PUT') || !op.success.has(201)) continue;
    for (const other of ops) {
      const m = other.template.startsWith(`${op.template}/{`)
        ? /^\{(\w+)\}/.exec(other.template.slice(op.template.length + 1))
        : null;
      if (m && !creators.has(m[1]!)) creators.set(m[1]!, op);
    }
  }
  return creators;
}

/** The id a creation answered, as the path names it (`specSlug` → `slug`; a token's `info.id`). */
function createdId(param: string, body: Record<string, any>): string | undefined {
  if (param.endsWith('Slug')) return body.slug;
  return body.id ?? body.info?.id;
}

export class ConcurrencyRunner {
  readonly #ops: Operation[];
  readonly #contract: Contract;
  readonly #creators: Map<string, Operation>;
  readonly #clients: RawClient[];
  readonly #targets: FuzzTargets;
  readonly #seed: number;
  readonly report: ConcurrencyReport;

  constructor(
    url: string,
    document: Record<string, unknown>,
    targets: FuzzTargets,
    { copies = 8, seed = 1 }: ConcurrencyOptions,
  ) {
    this.#ops = readOperations(document);
    this.#contract = new Contract();
    this.#creators = creatorsOf(this.#ops);
    this.#clients = Array.from({ length: copies }, () => new RawClient(url));
    this.#targets = targets;
    this.#seed = seed;
    this.report = { operations: 0, requests: 0, elapsedMs: 0, statuses: new Map(), timings: new Map(), findings: [] };
  }

  /** A valid request (the owner's token, these ids) to `op`, as the fuzz baseline builds it from `seed`. */
  #request(op: Operation, ids: Record<string, string[]>, seed = this.#seed): FuzzRequest {
    const targets = { ...this.#targets, ids: { ...this.#targets.ids, ...ids } };
    return fc.sample(baselineArbitrary([op], targets), { seed, numRuns: 1 })[0]![0]!;
  }

  /**
   * The seed of a body the operation accepts on these ids: a body valid by the schema may still be refused by
   * the service (a random parent id, a title of spaces only), and a run of refusals races nothing. Tries a
   * few seeds, one request each, alone; the first answered 2xx wins (the last tried otherwise).
   */
  async #acceptedSeed(op: Operation, ids: Record<string, string[]>, tries = PROBES): Promise<number> {
    let seed = this.#seed;
    for (let k = 0; k < tries; k++) {
      seed = this.#seed + k;
      const out = await this.#clients[0]!.send(this.#request(op, ids, seed));
      this.report.requests++;
      if (ok(out)) return seed;
    }
    return seed;
  }

  /** A new resource for `param` made through its creating operation (undefined when there is none or it failed). */
  async create(param: string, ids: Record<string, string[]> = {}): Promise<string | undefined> {
    const creator = this.#creators.get(param);
    if (!creator) return undefined;
    for (let k = 0; k < PROBES; k++) {
      const out = await this.#clients[0]!.send(this.#request(creator, ids, this.#seed + k));
      if ('response' in out && out.response.status < 300) return createdId(param, JSON.parse(out.response.text));
    }
    return undefined;
  }

  /** More kinds of ids for the generated requests (sites, change requests, comments…), made through the API. */
  async seedMore(): Promise<void> {
    for (let round = 0; round < 3; round++) {
      for (const param of this.#creators.keys()) {
        if (this.#targets.ids[param]?.length) continue;
        const id = await this.create(param);
        if (id) this.#targets.ids[param] = [id];
      }
    }
  }

  /** Every write operation, the ones deleting a resource last (they remove what later runs would use). */
  async runAll(only?: (op: Operation) => boolean): Promise<ConcurrencyReport> {
    const started = performance.now();
    const writes = this.#ops.filter((op) => WRITES.has(op.method) && (!only || only(op)));
    const ordered = [
      ...writes.filter((op) => op.method !== 'DELETE'),
      ...writes.filter((op) => op.method === 'DELETE'),
    ];
    for (const op of ordered) {
      const t0 = performance.now();
      await this.runOne(op);
      this.report.timings.set(op.key, performance.now() - t0);
    }
    this.report.elapsedMs += performance.now() - started;
    return this.report;
  }

  async runOne(op: Operation): Promise<void> {
    this.report.operations++;
    const resource = resourceTemplate(op);
    // A DELETE acts on a fresh resource when one can be made (the seeded ones serve the runs after it).
    const fresh = resource && op.method === 'DELETE' ? await this.create(resource.param) : undefined;
    const ids = fresh && resource ? { [resource.param]: [fresh] } : {};
    // A DELETE has no body to choose, and probing it would remove what the run is about.
    const seed = op.body && op.method !== 'DELETE' ? await this.#acceptedSeed(op, ids) : this.#seed;
    const request = this.#request(op, ids, seed);
    const answers = await this.#burst(
      op,
      'identical',
      Array.from({ length: this.#clients.length }, () => request),
    );
    if (op.method === 'PUT' && new Set(answers.map(statusOf)).size > 1) {
      const seen = answers.map(statusOf).join(', ');
      this.#finding(op, 'identical', request, answers[0]!, {
        rule: 'undocumented-status',
        message: `identical PUTs answered differently: ${seen}`,
        signature: 'not idempotent',
      });
    }
    const expectPresent = op.method !== 'DELETE' && answers.every(ok) && !(op.method === 'POST' && op.success.has(201));
    await this.#readBack(op, ids, expectPresent);
    const deleter = resource && this.#ops.find((o) => o.method === 'DELETE' && o.template === resource.template);
    if (!resource || !deleter || op === deleter) return;
    const target = await this.create(resource.param);
    if (!target) return;
    const targetIds = { [resource.param]: [target] };
    const mixed = Array.from({ length: this.#clients.length }, () => this.#request(op, targetIds, seed));
    mixed[Math.floor(mixed.length / 2)] = this.#request(deleter, targetIds);
    await this.#burst(op, 'with-delete', mixed, deleter);
    await this.#readBack(op, targetIds, false);
  }

  /** The requests at once, one connection each; every answer checked against its operation's contract. */
  async #burst(op: Operation, scenario: Scenario, requests: FuzzRequest[], deleter?: Operation): Promise<Outcome[]> {
    const outcomes = await Promise.all(requests.map((r, i) => this.#clients[i]!.send(r)));
    outcomes.forEach((outcome, i) => {
      const which = deleter && requests[i]!.operation === deleter.key ? deleter : op;
      this.#count(`${op.key} ${scenario}${which === op ? '' : ` (${deleter!.method})`}`, statusOf(outcome));
      for (const violation of this.#contract.check(which, requests[i]!, outcome))
        this.#finding(op, scenario, requests[i]!, outcome, violation);
    });
    this.report.requests += requests.length;
    return outcomes;
  }

  /** GET of the resource the operation wrote (when the document has one): a documented answer, 2xx when `present`. */
  async #readBack(op: Operation, ids: Record<string, string[]>, present: boolean): Promise<void> {
    const resource = resourceTemplate(op);
    const get = resource && this.#ops.find((o) => o.method === 'GET' && o.template === resource.template);
    if (!get) return;
    const request = this.#request(get, ids);
    const outcome = await this.#clients[0]!.send(request);
    this.report.requests++;
    this.#count(`${op.key} read-back`, statusOf(outcome));
    for (const violation of this.#contract.check(get, request, outcome))
      this.#finding(op, 'read-back', request, outcome, violation);
    if (present && !ok(outcome)) {
      this.#finding(op, 'read-back', request, outcome, {
        rule: 'undocumented-status',
        message: `read back ${statusOf(outcome)} after identical writes that all succeeded`,
        signature: 'lost write',
      });
    }
  }

  #count(key: string, status: string): void {
    const m = this.report.statuses.get(key) ?? new Map<string, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    this.report.statuses.set(key, m);
  }

  #finding(op: Operation, scenario: Scenario, request: FuzzRequest, outcome: Outcome, violation: Violation): void {
    this.report.findings.push({ operation: op.key, scenario, request, outcome, violation });
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
  }
}

/** Seeds a running platform, reads its document and runs every write operation concurrently. */
export async function concurrencyPlatform(
  p: Platform,
  opts: ConcurrencyOptions = {},
  only?: (op: Operation) => boolean,
): Promise<ConcurrencyReport> {
  const client = new RawClient(p.url);
  let runner: ConcurrencyRunner | undefined;
  try {
    const targets = await seedPlatform(p, client);
    const out = await client.send({ method: 'GET', path: '/v1/openapi.json', headers: {}, body: undefined });
    if (!('response' in out) || out.response.status !== 200)
      throw new Error(`GET /v1/openapi.json failed: ${JSON.stringify(out)}`);
    runner = new ConcurrencyRunner(p.url, JSON.parse(out.response.text), targets, opts);
    await runner.seedMore();
    return await runner.runAll(only);
  } finally {
    await runner?.close();
    await client.close();
  }
}

/** Findings one per line: operation, scenario, rule, what was wrong, and the request. */
export function formatConcurrencyFindings(r: ConcurrencyReport, max = 30): string {
  if (!r.findings.length) return 'no violations';
  const lines = r.findings.slice(0, max).map((f) => {
    const body = 'response' in f.outcome ? f.outcome.response.text.slice(0, 200) : '';
    return `${f.operation} [${f.scenario}] ${f.violation.rule}: ${f.violation.message}\n    ${f.request.method} ${f.request.path} ${f.request.body?.slice(0, 200) ?? ''}\n    → ${body}`;
  });
  return [`${r.findings.length} violations`, ...lines].join('\n');
}

/** Statuses per operation and scenario. */
export function formatConcurrencySummary(r: ConcurrencyReport): string {
  const rows = [...r.statuses].map(([key, m]) => `  ${key}: ${[...m].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  const slowest = [...r.timings]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, ms]) => `${k} ${Math.round(ms)} ms`);
  return [
    `concurrency: ${r.operations} operations, ${r.requests} requests in ${(r.elapsedMs / 1000).toFixed(1)} s; slowest: ${slowest.join(', ')}`,
    ...rows,
  ].join('\n');
}
