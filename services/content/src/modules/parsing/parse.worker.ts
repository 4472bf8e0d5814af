// The `parse` task of the content service's worker pool (threads/content-threads.ts, driven by text-parser.ts):
// parsing user text takes time that grows with its shape, which would stop the process's event loop (every request,
// lease and event) if done in the main thread. The lane's threads preload the markdown parsers or the OpenAPI reader.
import type { ParseResults, ParseTask } from './parse-tasks.ts';

/** A task, and the flag the thread raises when it starts it (the caller's clock starts then, not while it waits). */
export interface ParseJob {
  task: ParseTask;
  started: Int32Array;
}

export default async function parse({ task, started }: ParseJob): Promise<ParseResults[ParseTask['kind']]> {
  Atomics.store(started, 0, 1);
  Atomics.notify(started, 0);
  if (task.kind === 'openapi') return (await import('./openapi-task.ts')).readOpenAPI(task.source, task.limits);
  return (await import('./parse-tasks.ts')).runParseTask(task);
}
