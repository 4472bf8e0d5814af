import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import type { Pending } from '../metrics.ts';
import {
  checkJobs,
  DEFAULT_MAX_ATTEMPTS,
  errorText,
  JOB_DEDUPE_WINDOW_MS,
  scheduledRunId,
  untilNextPeriod,
  type DeadLetter,
  type JobDefinition,
  type JobMessage,
  type JobRunner,
} from './job.ts';
import { deadLetterOf, deadLettered, parsePayload, retryAfter, runAttempt } from './run-attempt.ts';

interface Lane {
  def: JobDefinition<any>;
  queue: JobMessage[];
  running: Promise<void> | undefined;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Standalone mode: one process, no broker. Schedules are timers; each job has its own in-memory queue
 * worked one run at a time, with the same retry, backoff and dead-letter rules as the JetStream runner.
 * Runs queued when the process stops are lost; scheduled jobs catch up at the next start.
 */
export class TimerJobRunner implements JobRunner {
  readonly kind = 'timer';
  readonly #lanes = new Map<string, Lane>();
  readonly #log: Logger;
  readonly #seen = new Map<string, number>();
  readonly #dead: DeadLetter[] = [];
  readonly #onDeadLetter: ((d: DeadLetter) => void) | undefined;
  #stopped = true;
  readonly #sleeps = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  constructor(jobs: readonly JobDefinition<any>[], log: Logger, opts: { onDeadLetter?: (d: DeadLetter) => void } = {}) {
    for (const [name, def] of checkJobs(jobs))
      this.#lanes.set(name, { def, queue: [], running: undefined, timer: undefined });
    this.#log = log;
    this.#onDeadLetter = opts.onDeadLetter;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    for (const lane of this.#lanes.values()) if (lane.def.everyMs) this.#schedule(lane, true);
  }

  async enqueue(job: string, payload: unknown = null, opts: { id?: string } = {}): Promise<string> {
    const lane = this.#lanes.get(job);
    if (!lane) throw new Error(`unknown job ${job}`);
    const id = opts.id ?? `${job}:${newId(16)}`;
    const now = Date.now();
    for (const [seenId, at] of this.#seen) if (now - at > JOB_DEDUPE_WINDOW_MS) this.#seen.delete(seenId);
    if (this.#seen.has(id)) return id;
    this.#seen.set(id, now);
    lane.queue.push({ id, job, payload, enqueuedAt: new Date(now).toISOString() });
    this.#work(lane);
    return id;
  }

  /** Runs that exhausted their attempts, oldest first (also logged at error level). */
  async pending(): Promise<Pending[]> {
    return [...this.#lanes.values()].map((lane) => ({
      name: lane.def.name,
      pending: lane.queue.length + (lane.running ? 1 : 0),
    }));
  }

  deadLetters(): readonly DeadLetter[] {
    return this.#dead;
  }

  /** Resolves once every queue is empty and nothing runs (tests). */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...this.#lanes.values()].map((l) => l.running).filter((r): r is Promise<void> => r !== undefined);
      if (!busy.length) return;
      await Promise.all(busy);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    for (const lane of this.#lanes.values()) if (lane.timer) clearTimeout(lane.timer);
    for (const s of this.#sleeps) {
      clearTimeout(s.timer);
      s.resolve();
    }
    await this.idle();
  }

  #schedule(lane: Lane, now: boolean): void {
    if (this.#stopped) return;
    const every = lane.def.everyMs!;
    if (now) void this.enqueue(lane.def.name, null, { id: scheduledRunId(lane.def) });
    lane.timer = setTimeout(() => {
      void this.enqueue(lane.def.name, null, { id: scheduledRunId(lane.def) });
      this.#schedule(lane, false);
    }, untilNextPeriod(every));
    lane.timer.unref();
  }

  #work(lane: Lane): void {
    if (lane.running || this.#stopped) return;
    lane.running = (async () => {
      while (!this.#stopped && lane.queue.length) {
        const msg = lane.queue.shift()!;
        await this.#runWithRetries(lane.def, msg);
      }
    })().finally(() => {
      lane.running = undefined;
      if (lane.queue.length && !this.#stopped) this.#work(lane);
    });
  }

  async #runWithRetries(def: JobDefinition<any>, msg: JobMessage): Promise<void> {
    const max = def.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const payload = parsePayload(def, msg);
    if (!payload.ok) return this.#deadLetter(def, msg, 0, payload.error);
    for (let attempt = 1; ; attempt++) {
      try {
        await runAttempt(def, msg, payload.payload, attempt);
        return;
      } catch (err) {
        if (attempt >= max) return this.#deadLetter(def, msg, attempt, errorText(err));
        await this.#sleep(retryAfter(this.#log, def, msg, attempt, err));
        if (this.#stopped) return;
      }
    }
  }

  #deadLetter(def: JobDefinition<any>, msg: JobMessage, attempts: number, error: string): void {
    const dead = deadLetterOf(def, msg, attempts, error);
    this.#dead.push(dead);
    if (this.#dead.length > 1_000) this.#dead.shift();
    deadLettered(this.#log, dead);
    this.#onDeadLetter?.(dead);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (this.#sleeps.delete(entry), resolve()), ms), resolve };
      this.#sleeps.add(entry);
    });
  }
}
