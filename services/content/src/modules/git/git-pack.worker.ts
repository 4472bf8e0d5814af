// The entry of the Git pack threads (see git-pack-thread.ts): a fetch's pack is checked, inflated, hashed and written
// to disk here, not in the process's main thread, whose event loop (every request, lease and event) it would stop.
// It loads no more than the pack guard and the pack store (no kit, no database).
import type { MessagePort } from 'node:worker_threads';
import { PackGuard, type PackLimits } from './git-pack-guard.ts';
import { PackWriter, type PackIndex } from './git-pack-store.ts';

/** A fetch's pack to read: its response's chunks come on `port`, the pack is written to `path`. */
export interface PackJob {
  port: MessagePort;
  path: string;
  limits: PackLimits;
}

/** What the caller sends: the response's chunks, then its end. */
export type PackRequest = { chunk: Uint8Array } | { end: true };

/** What the thread answers each request: the response's lines but its pack; at the end, the pack's index. */
export type PackReply = { kept: Uint8Array[] } | { index: PackIndex } | { refused: string } | { failed: string };

class Refusal extends Error {}

export default async function readPack({ port, path, limits }: PackJob): Promise<void> {
  const writer = new PackWriter(path);
  const guard = new PackGuard(limits, (why) => new Refusal(why), writer);
  const reply = (r: PackReply) => port.postMessage(r);
  try {
    await new Promise<void>((resolve) => {
      let queue = Promise.resolve();
      // The caller closes the port when it gives up (a failed request, a timeout): the thread stops too.
      port.on('close', resolve);
      port.on('message', (m: PackRequest) => {
        queue = queue.then(async () => {
          try {
            if ('chunk' in m) return reply({ kept: await guard.take(m.chunk) });
            guard.close();
            // A delta that cannot be rebuilt (no base, out of bounds) is the pack's fault, as a refusal.
            const index = await writer.finish().catch((err: Error) => {
              throw new Refusal(`the pack is corrupt (${err.message})`);
            });
            reply({ index });
          } catch (err) {
            reply(err instanceof Refusal ? { refused: err.message } : { failed: (err as Error).message });
          }
          resolve();
        });
      });
    });
  } finally {
    writer.abort();
    port.close();
  }
}
