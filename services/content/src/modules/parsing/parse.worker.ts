// The entry of the parsing threads (see text-parser.ts): parsing user text takes time that grows with its shape,
// which would stop the process's event loop (every request, lease and event) if done in the main thread.
import { enableCompileCache } from 'node:module';
import { workerData } from 'node:worker_threads';
import type { ParseTask, runParseTask } from './parse-tasks.ts';

/** A task, and the flag the thread raises when it starts it (the caller's clock starts then, not while it waits). */
export interface ParseJob {
  task: ParseTask;
  started: Int32Array;
}

/** What a pool's threads load before taking work: the markdown parsers, or (the OpenAPI pool) the validator. */
export interface ParseWorkerData {
  preload: 'text' | 'openapi';
}

/**
 * A thread stopped for a parse past its time is replaced by a new one, which loads the parsers again: Node's
 * compile cache (the OS temporary directory) keeps their compiled (and type-stripped) code across threads and
 * restarts, halving that time. Piscina hands the thread work once this promise gives the handler.
 */
async function load(): Promise<(job: ParseJob) => ReturnType<typeof runParseTask>> {
  enableCompileCache();
  const openapi = (workerData as ParseWorkerData | undefined)?.preload === 'openapi';
  if (openapi) await import('../openapi/openapi-document.ts');
  let run = openapi ? undefined : (await import('./parse-tasks.ts')).runParseTask;
  return async ({ task, started }) => {
    Atomics.store(started, 0, 1);
    Atomics.notify(started, 0);
    if (task.kind === 'openapi') return (await import('./openapi-task.ts')).readOpenAPI(task.source, task.limits);
    run ??= (await import('./parse-tasks.ts')).runParseTask;
    return run(task);
  };
}

export default load();
