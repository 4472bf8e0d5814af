import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { threadTask, workerPool, type ThreadLane } from './worker-pool.ts';

const pool = workerPool({
  echo: threadTask<{ text: string }, { text: string; threadId: number; preloaded: boolean }>(
    new URL('./fixtures/echo.task.ts', import.meta.url),
  ),
  spin: threadTask<{ forever: true }, never>(new URL('./fixtures/spin.task.ts', import.meta.url)),
  port: threadTask<{ port: MessagePort }, number>(new URL('./fixtures/port.task.ts', import.meta.url)),
});

const lane: ThreadLane = { name: 'test', threads: 1, threadIdleMs: 5_000, memoryMb: 64 };
const preloading: ThreadLane = {
  ...lane,
  name: 'preloading',
  preload: [new URL('./fixtures/preload.ts', import.meta.url)],
};

afterAll(() => pool.close());

describe('the worker pool', () => {
  it('runs each task with the module its name is given in the dispatch table, off the main thread', async () => {
    const r = await pool.run('echo', { text: 'hi' }, lane);
    expect(r).toEqual({ text: 'HI', threadId: expect.any(Number), preloaded: false });
    expect(r.threadId).toBeGreaterThan(0);
  });

  it("loads a lane's preloads before its threads take work, and keeps lanes apart", async () => {
    expect((await pool.run('echo', { text: 'a' }, preloading)).preloaded).toBe(true);
    expect((await pool.run('echo', { text: 'b' }, lane)).preloaded).toBe(false);
  });

  it('rejects a task no entry of the table names', async () => {
    await expect(pool.run('nothing' as 'echo', { text: 'x' }, lane)).rejects.toThrow(/no task named nothing/);
  });

  it('stops the thread of a task its caller gives up, and the lane runs on with a new one', async () => {
    const before = (await pool.run('echo', { text: 'x' }, lane)).threadId;
    await expect(pool.run('spin', { forever: true }, lane, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const after = await pool.run('echo', { text: 'still here' }, lane);
    expect(after.text).toBe('STILL HERE');
    expect(after.threadId).not.toBe(before);
  });

  it('moves a message port to a task, which streams over it', async () => {
    const { port1, port2 } = new MessageChannel();
    const task = pool.run('port', { port: port2 }, lane, { transferList: [port2] });
    const answers: number[] = [];
    await new Promise<void>((resolve) => {
      port1.on('message', (n: number) => {
        answers.push(n);
        if (answers.length === 3) resolve();
      });
      for (const n of [1, 2, 3]) port1.postMessage(n);
    });
    port1.postMessage('end');
    expect(await task).toBe(3);
    expect(answers).toEqual([2, 4, 6]);
    port1.close();
  });

  it('rejects a task past its lane’s memory limit with ERR_WORKER_OUT_OF_MEMORY', async () => {
    const grow = workerPool({ grow: threadTask<number, never>(new URL('./fixtures/grow.task.ts', import.meta.url)) });
    try {
      await expect(grow.run('grow', 1, { ...lane, name: 'small', memoryMb: 32 })).rejects.toMatchObject({
        code: 'ERR_WORKER_OUT_OF_MEMORY',
      });
    } finally {
      await grow.close();
    }
  });
});
