import { DomainError, invalid } from '@quire/kit';
import { isOutOfMemory } from '@quire/kit/threads';
import { contentThreads, EVERYDAY_THREAD_MB, parseLanes } from '../threads/content-threads.ts';
import type { ParseJob } from './parse.worker.ts';
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

/** Texts of this many characters and more (and tasks of unknown size) go to the thread sized for them. */
export const LARGE_TEXT_CHARS = 64 * 1024;

/** The parsing lanes of the content service's worker pool (threads/content-threads.ts): everyday texts, large ones, OpenAPI specifications. */
type LaneKind = keyof typeof parseLanes;

/** Runs a job on the lane of the kind (a task waits in the lane's queue when every thread is busy; aborted while it runs, its thread is stopped and replaced). */
function runOn(kind: LaneKind, s: ParseSettings, job: ParseJob, signal: AbortSignal): Promise<unknown> {
  return contentThreads.run('parse', job, parseLanes[kind](s), { signal });
}

/** The lane a task starts on: texts under LARGE_TEXT_CHARS on the everyday threads (a document's JSON too). */
function firstLane(task: ParseTask): LaneKind {
  if (task.kind === 'openapi') return 'openapi';
  if (task.kind === 'jsonDocument') return 'text';
  return sizeOf(task) < LARGE_TEXT_CHARS ? 'text' : 'large';
}

/** Creates the threads now (they load their parsers while the service starts), not at the first parse. */
export function warmParsingThreads(settings: ParseSettings = DEFAULT_PARSE_SETTINGS): void {
  contentThreads.warm(parseLanes.text(settings));
}

/** Resolves when the thread raises the job's `started` flag. */
function whenStarted(started: Int32Array): Promise<unknown> {
  const wait = Atomics.waitAsync(started, 0, 0);
  return wait.async ? wait.value : Promise.resolve();
}

class ParseTimeout extends Error {}

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
    const first = firstLane(task);
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
