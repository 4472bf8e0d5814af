/** Which process answers a call (the gateway routes it to the owning service). */
export type Target = 'content' | 'sites' | 'integrations' | 'org-admin';
export type Status = number | 'unreachable' | 'timeout';

export interface Sample {
  kind: 'write' | 'read';
  target: Target;
  status: Status;
  ms: number;
  /** For a 503: whether it said when to retry. */
  retryAfter: boolean;
  /** When it was answered (ms since the epoch). */
  at: number;
  /** The phase (fault) it was answered in. */
  phase: string;
}

/** A call gives up after this long: an answer later than that is a hang. */
export const CALL_TIMEOUT_MS = 10_000;

/**
 * Writers creating spaces through the gateway as fast as they are answered, and one reader asking an
 * operation of each service in turn; every answer is kept with the phase (the fault) it happened in.
 * A write answered 201 is acknowledged: the space must exist afterwards, whatever happened.
 */
export class Load {
  phase = 'warm-up';
  readonly samples: Sample[] = [];
  /** Acknowledged writes: space id → title. */
  readonly acked = new Map<string, string>();
  readonly #base: string;
  readonly #token: string;
  readonly #org: string;
  #running = false;
  #loops: Promise<void>[] = [];
  #seq = 0;

  constructor(base: string, token: string, org: string) {
    this.#base = base;
    this.#token = token;
    this.#org = org;
  }

  start(writers: number): void {
    this.#running = true;
    for (let w = 0; w < writers; w++) this.#loops.push(this.#writer(w));
    this.#loops.push(this.#reader());
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
    this.#loops = [];
  }

  async #writer(w: number): Promise<void> {
    while (this.#running) {
      const title = `w${w}-${++this.#seq}`;
      const { sample, body } = await this.#call('write', 'content', 'POST', `/orgs/${this.#org}/spaces`, { title });
      if (sample.status === 201 && typeof body?.id === 'string') this.acked.set(body.id, title);
      // Retried at once, as an impatient client does (not after Retry-After): the outage is answered under pressure.
      if (sample.status === 503 || typeof sample.status !== 'number') await pause(50);
    }
  }

  async #reader(): Promise<void> {
    const probes: [Target, () => string][] = [
      ['content', () => `/spaces/${[...this.acked.keys()].at(-1) ?? 'none'}`],
      ['sites', () => `/orgs/${this.#org}/sites`],
      ['integrations', () => '/integrations'],
      ['org-admin', () => `/orgs/${this.#org}`],
    ];
    for (let i = 0; this.#running; i++) {
      const [target, path] = probes[i % probes.length]!;
      if (target === 'content' && this.acked.size === 0) continue;
      const { sample } = await this.#call('read', target, 'GET', path());
      if (typeof sample.status !== 'number') await pause(50);
      await pause(20);
    }
  }

  async #call(
    kind: Sample['kind'],
    target: Target,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ sample: Sample; body: any }> {
    const started = performance.now();
    let status: Status;
    let retryAfter = false;
    let json: any;
    try {
      const res = await fetch(`${this.#base}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${this.#token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      status = res.status;
      retryAfter = res.headers.has('retry-after');
      json = await res.json().catch(() => undefined);
    } catch (err) {
      status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable';
    }
    // The phase the call was answered in: a call cut by a fault is the fault's, even if it started before.
    const sample: Sample = {
      kind,
      target,
      status,
      ms: performance.now() - started,
      retryAfter,
      at: Date.now(),
      phase: this.phase,
    };
    this.samples.push(sample);
    return { sample, body: json };
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
