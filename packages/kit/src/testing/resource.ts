import { afterAll, beforeAll } from 'vitest';

/**
 * Something a test file (or `describe` block) works with: made by `start` in `beforeAll`, ended by `stop` (if any) in
 * `afterAll`. The returned handle is usable inside tests and later hooks: its members are filled once started.
 */
export function useResource<T extends object>(start: () => Promise<T>, stop?: (started: T) => Promise<unknown>): T {
  const handle = {} as T;
  let started = false;
  beforeAll(async () => {
    Object.assign(handle, await start());
    started = true;
  });
  if (stop)
    afterAll(async () => {
      if (started) await stop(handle);
    });
  return handle;
}
