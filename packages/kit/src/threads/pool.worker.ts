// The entry of every thread of a worker pool (worker-pool.ts): it loads what its lane preloads, then runs each task
// with the handler the dispatch table names, the module's default export, imported the first time a task of that name
// comes. It imports nothing else (no kit, no database): a thread holds only the modules of the tasks it runs.
import { enableCompileCache } from 'node:module';
import { workerData } from 'node:worker_threads';
import type { PoolWorkerData, ThreadTask } from './worker-pool.ts';

type Handler = (input: unknown) => unknown;

/**
 * A thread stopped (a task past its time, out of memory) is replaced by a new one, which loads its modules again:
 * Node's compile cache (the OS temporary directory) keeps their compiled (and type-stripped) code across threads and
 * restarts. Piscina hands the thread work once this promise gives the handler, so the preloads are loaded first.
 */
async function load(): Promise<(job: ThreadTask) => Promise<unknown>> {
  enableCompileCache();
  const { tasks, preload } = workerData as PoolWorkerData;
  const handlers = new Map<string, Promise<Handler>>();
  const handlerOf = (name: string): Promise<Handler> => {
    let handler = handlers.get(name);
    if (!handler) {
      const href = tasks[name];
      if (!href) throw new Error(`no task named ${name} in this pool's dispatch table`);
      // A module's default export is its handler, or a promise of it (a module that loads more before it takes work).
      handler = import(href).then((m: { default: Handler | Promise<Handler> }) => m.default);
      handlers.set(name, handler);
    }
    return handler;
  };
  for (const href of preload) await import(href);
  return async ({ task, input }) => (await handlerOf(task))(input);
}

export default load();
