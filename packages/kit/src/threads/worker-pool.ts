import type { Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * A task of a pool's dispatch table: the module whose default export runs it (a function of the task's input, or a
 * promise of one), typed by what it takes and gives. Build one with `threadTask<Input, Output>(url)`.
 */
export interface ThreadTaskDef<I, O> {
  module: URL;
  /** Types only: never set. */
  readonly types?: (input: I) => O;
}

export function threadTask<I, O>(module: URL): ThreadTaskDef<I, O> {
  return { module };
}

export type ThreadTaskTable = Record<string, ThreadTaskDef<any, any>>;
type InputOf<D> = D extends ThreadTaskDef<infer I, unknown> ? I : never;
type OutputOf<D> = D extends ThreadTaskDef<never, infer O> ? O : never;

/**
 * A lane of threads of the pool: how many, how much memory each has, what they load before they take work and how
 * long they outlive their last task. Tasks of any name run on any lane; the caller picks the lane a task needs.
 */
export interface ThreadLane {
  /** Names the lane (warnings, the key of its threads with its sizing). */
  name: string;
  /** Tasks of the lane that run at once (more wait in its queue). */
  threads: number;
  /** Threads started with the lane and kept while it lives (0: none until a task comes). */
  minThreads?: number;
  /** A thread beyond `minThreads` ends after this long without a task, giving its heap back. */
  threadIdleMs: number;
  /** On demand: the lane (every thread of it) stops this long after its last task, started again by the next one. */
  retireAfterMs?: number;
  /** Heap limit of a thread, in MiB (a task past it rejects with `ERR_WORKER_OUT_OF_MEMORY`). */
  memoryMb: number;
  youngMb?: number;
  stackMb?: number;
  /** Modules a thread loads before it takes work (a task's own module is loaded by its first task). */
  preload?: URL[];
}

/** What a thread of the pool is given (pool.worker.ts). */
export interface PoolWorkerData {
  tasks: Record<string, string>;
  preload: string[];
}

/** What a thread is asked to run. */
export interface ThreadTask {
  task: string;
  input: unknown;
}

export interface RunOptions {
  /** Aborting it rejects the task; one that runs has its thread stopped (and replaced). */
  signal?: AbortSignal;
  /** What the input moves to the thread rather than copies (a `MessagePort`, buffers). */
  transferList?: Transferable[];
}

interface LaneThreads {
  pool: Piscina<ThreadTask, unknown>;
  running: number;
  idle?: NodeJS.Timeout;
}

export const isOutOfMemory = (err: unknown) => (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

/**
 * The one worker pool of a process (piscina underneath): one dispatch table of named tasks, the lanes of threads
 * they run on created when first asked for and shared by every caller asking for the same lane with the same sizing.
 * A task waits in its lane's queue when every thread is busy.
 */
export class WorkerPool<T extends ThreadTaskTable> {
  readonly #data: Omit<PoolWorkerData, 'preload'>;
  readonly #lanes = new Map<string, LaneThreads>();

  constructor(tasks: T) {
    this.#data = { tasks: Object.fromEntries(Object.entries(tasks).map(([name, t]) => [name, t.module.href])) };
  }

  /** Runs the task of that name on a thread of the lane, started when the lane has none free and may start one. */
  async run<K extends keyof T & string>(
    task: K,
    input: InputOf<T[K]>,
    lane: ThreadLane,
    options: RunOptions = {},
  ): Promise<OutputOf<T[K]>> {
    const key = keyOf(lane);
    const threads = this.#threadsOf(key, lane);
    clearTimeout(threads.idle);
    threads.running++;
    try {
      const job: ThreadTask = { task, input };
      return (await threads.pool.run(job, {
        signal: options.signal,
        transferList: options.transferList as never,
      })) as OutputOf<T[K]>;
    } finally {
      if (--threads.running === 0 && lane.retireAfterMs !== undefined) this.#retireWhenIdle(key, threads, lane);
    }
  }

  /** Starts the lane's `minThreads` now (they load their preloads while the process starts), not at its first task. */
  warm(lane: ThreadLane): void {
    this.#threadsOf(keyOf(lane), lane);
  }

  /** Stops every lane (their running tasks reject). */
  async close(): Promise<void> {
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    await Promise.all(lanes.map((l) => l.pool.destroy()));
  }

  #threadsOf(key: string, lane: ThreadLane): LaneThreads {
    let threads = this.#lanes.get(key);
    if (!threads) {
      threads = { pool: this.#start(lane), running: 0 };
      this.#lanes.set(key, threads);
    }
    return threads;
  }

  #retireWhenIdle(key: string, threads: LaneThreads, lane: ThreadLane): void {
    threads.idle = setTimeout(() => {
      if (threads.running > 0 || this.#lanes.get(key) !== threads) return;
      this.#lanes.delete(key);
      void threads.pool.destroy();
    }, lane.retireAfterMs).unref();
  }

  #start(lane: ThreadLane): Piscina<ThreadTask, unknown> {
    const workerData: PoolWorkerData = { ...this.#data, preload: (lane.preload ?? []).map((u) => u.href) };
    const pool = new Piscina<ThreadTask, unknown>({
      filename: new URL('./pool.worker.ts', import.meta.url).href,
      workerData,
      minThreads: lane.minThreads ?? 0,
      maxThreads: lane.threads,
      idleTimeout: lane.threadIdleMs,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: lane.memoryMb,
        ...(lane.youngMb === undefined ? {} : { maxYoungGenerationSizeMb: lane.youngMb }),
        ...(lane.stackMb === undefined ? {} : { stackSizeMb: lane.stackMb }),
      },
    });
    // A thread can fail while it holds no task: one whose task was given up (aborted) runs on until it is stopped,
    // and may reach its memory limit first. piscina emits that on the pool (an uncaught exception without a
    // listener); the task's caller was already answered, and piscina replaces the thread.
    pool.on('error', (err: unknown) => {
      if (!isOutOfMemory(err))
        process.emitWarning(`a thread of the ${lane.name} lane failed outside a task: ${String(err)}`);
    });
    return pool;
  }
}

/** A lane's threads are shared by the callers asking for the same name and sizing. */
function keyOf(lane: ThreadLane): string {
  const { name, threads, minThreads, threadIdleMs, retireAfterMs, memoryMb, youngMb, stackMb } = lane;
  return JSON.stringify([name, threads, minThreads, threadIdleMs, retireAfterMs, memoryMb, youngMb, stackMb]);
}

/** The process's worker pool for this dispatch table (one per table: create it once, at module level). */
export function workerPool<T extends ThreadTaskTable>(tasks: T): WorkerPool<T> {
  return new WorkerPool(tasks);
}
