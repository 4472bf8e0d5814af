import { Piscina } from 'piscina';
import { DomainError, invalid } from '@quire/kit';
import type { ParseJob, ParseWorkerData } from './parse.worker.ts';
import {
  isStackOverflow,
  runParseTask,
  sizeOf,
  type ParseResults,
  type ParseTask,
  type TaskOf,
} from './parse-tasks.ts';

export interface ParseSettings {
  /** Parsing threads of the process. */
  threads: number;
  /** Heap limit of a parsing thread, in MiB (a parse past it is a 413). */
  memoryMb: number;
  /** How long the parses of one request may take together, in ms (a 400 past it). */
  timeoutMs: number;
  /** Texts shorter than this many characters are parsed inline: a thread's round trip would cost more. */
  inlineBelow: number;
}

/** Defaults (the content service reads `QUIRE_PARSE_*`, see env.ts and docs/limits.md). */
export const DEFAULT_PARSE_SETTINGS: ParseSettings = {
  threads: 2,
  memoryMb: 256,
  timeoutMs: 1_500,
  inlineBelow: 1_024,
};

/** The heap of the markdown threads that take everyday texts, in MiB (at most the settings' `memoryMb`). */
export const EVERYDAY_THREAD_MB = 64;
/** An everyday thread beyond the first ends after this long without a task, giving its heap (~60–80 MB) back. */
const EXTRA_THREAD_IDLE_MS = 15_000;
/** Texts of this many characters and more (and tasks of unknown size) go to the thread sized for them. */
export const LARGE_TEXT_CHARS = 64 * 1024;

/** The pools of parsing threads: everyday texts, large ones, OpenAPI specifications. */
type PoolKind = 'text' | 'large' | 'openapi';

/**
 * The process's parsing threads (piscina), shared by every caller with the same settings. V8 lets a thread's heap grow
 * to about half its limit before it collects, and a thread keeps that heap: so the threads that take everyday texts
 * (kept warm: a thread loads its parsers once) have a small heap, and a text that needs more (a large one, or one that
 * ran out of the small heap) runs on a thread with the whole `memoryMb`, started for it and stopped a few seconds after
 * its last task, giving its heap back; so is the OpenAPI thread. A thread needs ~40 MB of heap for its parsers alone:
 * one that cannot load them makes piscina stop starting threads (so the limit is at least 64 MB). A task waits in
 * piscina's queue when every thread is busy; a task aborted while it runs has its thread stopped (piscina terminates
 * it and starts another).
 */
interface PoolEntry {
  pool: Piscina<ParseJob, unknown>;
  running: number;
  idle?: NodeJS.Timeout;
}
const pools = new Map<string, PoolEntry>();

/** How long a large-text or OpenAPI thread outlives its last task. */
const ON_DEMAND_IDLE_MS = 5_000;

const keyOf = (kind: PoolKind, s: ParseSettings) => `${kind}/${s.threads}/${s.memoryMb}`;

/** The pool of the kind, created (with its threads) when there is none. */
function poolOf(kind: PoolKind, s: ParseSettings): PoolEntry {
  const key = keyOf(kind, s);
  let entry = pools.get(key);
  if (!entry) {
    entry = { pool: createPool(kind, s), running: 0 };
    pools.set(key, entry);
  }
  return entry;
}

/** Stops an on-demand pool (large texts, OpenAPI) once it has been idle for ON_DEMAND_IDLE_MS, giving back its heap. */
function retireWhenIdle(key: string, entry: PoolEntry): void {
  entry.idle = setTimeout(() => {
    if (entry.running > 0 || pools.get(key) !== entry) return;
    pools.delete(key);
    void entry.pool.destroy();
  }, ON_DEMAND_IDLE_MS).unref();
}

/** Runs a job on the pool of the kind. */
async function runOn(kind: PoolKind, s: ParseSettings, job: ParseJob, signal: AbortSignal): Promise<unknown> {
  const entry = poolOf(kind, s);
  clearTimeout(entry.idle);
  entry.running++;
  try {
    return await entry.pool.run(job, { signal });
  } finally {
    if (--entry.running === 0 && kind !== 'text') retireWhenIdle(keyOf(kind, s), entry);
  }
}

function createPool(kind: PoolKind, s: ParseSettings): Piscina<ParseJob, unknown> {
  const everyday = kind === 'text';
  const memoryMb = everyday ? Math.min(EVERYDAY_THREAD_MB, s.memoryMb) : s.memoryMb;
  const threads = everyday ? s.threads : 1;
  // OpenAPI specifications (a background job) have a thread of their own: the validator and the kit it fetches with
  // stay out of the markdown threads, which restart faster for it.
  const data: ParseWorkerData = { preload: kind === 'openapi' ? 'openapi' : 'text' };
  const pool = new Piscina<ParseJob, unknown>({
    filename: new URL('./parse.worker.ts', import.meta.url).href,
    workerData: data,
    // One thread stays while the pool lives; the other everyday ones start when parses queue, end after 15 s idle.
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: EXTRA_THREAD_IDLE_MS,
    concurrentTasksPerWorker: 1,
    resourceLimits: {
      maxOldGenerationSizeMb: memoryMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, memoryMb >> 3)),
      stackSizeMb: 4,
    },
  });
  // A thread can fail while it holds no task: one whose task was given up (past its time budget) runs on until it is
  // stopped, and may reach its memory limit first. piscina emits that on the pool (an uncaught exception without a
  // listener); the task's caller was already answered, and piscina replaces the thread.
  pool.on('error', (err: unknown) => {
    if (!isOutOfMemory(err)) process.emitWarning(`parsing thread failed outside a task: ${String(err)}`);
  });
  return pool;
}

/** The pool a task starts on: texts under LARGE_TEXT_CHARS on the everyday threads (a document's JSON too). */
function firstPool(task: ParseTask): PoolKind {
  if (task.kind === 'openapi') return 'openapi';
  if (task.kind === 'jsonDocument') return 'text';
  return sizeOf(task) < LARGE_TEXT_CHARS ? 'text' : 'large';
}

/** Creates the threads now (they load their parsers while the service starts), not at the first parse. */
export function warmParsingThreads(settings: ParseSettings = DEFAULT_PARSE_SETTINGS): void {
  poolOf('text', settings);
}

/** Resolves when the thread raises the job's `started` flag. */
function whenStarted(started: Int32Array): Promise<unknown> {
  const wait = Atomics.waitAsync(started, 0, 0);
  return wait.async ? wait.value : Promise.resolve();
}

class ParseTimeout extends Error {}

const isOutOfMemory = (err: unknown) => (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * The parses of one request (a content write, an import, a read): they share one time budget, spent while any
 * of them runs on a thread (not while they wait for one), and the first failure stops the others. Each failure names the field
 * of the text: past the time budget or the stack, a 400; past the memory limit, a 413. Never a 500 for a text.
 */
export class ParseSession {
  readonly #settings: ParseSettings;
  readonly #budgetMs: number;
  readonly #stop = new AbortController();
  /** The session's stopwatch: it runs while at least one of its parses runs on a thread. */
  #running = 0;
  #spentMs = 0;
  #since = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The session's first failure: every parse of the session answers it from then on. */
  #failed: { error: unknown } | undefined;

  constructor(settings: ParseSettings, budgetMs = settings.timeoutMs) {
    this.#settings = settings;
    this.#budgetMs = budgetMs;
  }

  #began(): void {
    if (this.#running++ > 0) return;
    this.#since = Date.now();
    this.#timer = setTimeout(() => this.#stop.abort(new ParseTimeout()), Math.max(0, this.#budgetMs - this.#spentMs));
  }

  #ended(): void {
    if (--this.#running > 0) return;
    this.#spentMs += Date.now() - this.#since;
    clearTimeout(this.#timer);
  }

  /** Runs a task: inline when its text is small, else on a parsing thread. `field` names the text in errors. */
  async run<K extends ParseTask['kind']>(task: TaskOf<K>, field: string): Promise<ParseResults[K]> {
    try {
      this.#stop.signal.throwIfAborted();
      if (sizeOf(task) < this.#settings.inlineBelow) return (await runParseTask(task)) as ParseResults[K];
      return (await this.#onThread(task)) as ParseResults[K];
    } catch (err) {
      this.#failed ??= { error: this.#failure(err, field) };
      if (!this.#stop.signal.aborted) this.#stop.abort(this.#failed.error);
      throw this.#failed.error;
    }
  }

  async #onThread(task: ParseTask): Promise<unknown> {
    const started = new Int32Array(new SharedArrayBuffer(4));
    const job = { state: 'waiting' as 'waiting' | 'running' | 'done' };
    void whenStarted(started).then(() => {
      if (job.state !== 'waiting') return;
      job.state = 'running';
      this.#began();
    });
    const first = firstPool(task);
    try {
      return await runOn(first, this.#settings, { task, started }, this.#stop.signal);
    } catch (err) {
      // Out of an everyday thread's small heap: the text runs again on a thread with the whole limit.
      if (first !== 'text' || !isOutOfMemory(err) || EVERYDAY_THREAD_MB >= this.#settings.memoryMb) throw err;
      return await runOn('large', this.#settings, { task, started }, this.#stop.signal);
    } finally {
      if (job.state === 'running') this.#ended();
      job.state = 'done';
    }
  }

  #failure(err: unknown, field: string): unknown {
    if (this.#stop.signal.reason instanceof ParseTimeout) {
      return invalid(
        `Invalid request: ${field}: too complex to read within ${seconds(this.#budgetMs)} (deeply nested, or long runs of brackets, tags or table cells); simplify it or split it into several pages`,
      );
    }
    if (isStackOverflow(err)) return invalid(`Invalid request: ${field}: nested too deeply to read`);
    if (isOutOfMemory(err))
      return new DomainError(
        'payload_too_large',
        `Too large: ${field}: reading it needs more than ${this.#settings.memoryMb} MB; split it into several pages`,
      );
    return err;
  }
}

/** The parsing of the process with these settings: `session()` for each request. */
export interface TextParser {
  settings: ParseSettings;
  session(budgetMs?: number): ParseSession;
}

export function textParser(settings: ParseSettings = DEFAULT_PARSE_SETTINGS): TextParser {
  return { settings, session: (budgetMs) => new ParseSession(settings, budgetMs) };
}

/** The settings of the content service's configuration. */
export function parseSettingsOf(config: {
  QUIRE_PARSE_THREADS: number;
  QUIRE_PARSE_MEMORY_MB: number;
  QUIRE_PARSE_TIMEOUT_MS: number;
  QUIRE_PARSE_INLINE_BELOW: number;
}): ParseSettings {
  return {
    threads: config.QUIRE_PARSE_THREADS,
    memoryMb: config.QUIRE_PARSE_MEMORY_MB,
    timeoutMs: config.QUIRE_PARSE_TIMEOUT_MS,
    inlineBelow: config.QUIRE_PARSE_INLINE_BELOW,
  };
}
