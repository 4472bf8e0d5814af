import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { contentThreads, PACK_LANE } from '../threads/content-threads.ts';
import type { PackLimits, PackWatcher } from './git-pack-guard.ts';
import type { PackIndex } from './git-pack-store.ts';
import type { PackReply, PackRequest } from './git-pack.worker.ts';

/*
 * The threads a fetch's pack is read in (git-pack.worker.ts): the `pack` task of the content service's worker pool, on
 * its `pack` lane (threads/content-threads.ts), started on demand and stopped a few seconds after its last pack, giving
 * its memory back. Each fetch holds a thread while its response streams in; its chunks cross by a message port.
 */

/** The response's bytes sent to the thread at once, and the batches sent ahead of its answers. */
const BATCH_BYTES = 256 * 1024;
const IN_FLIGHT = 4;

/**
 * A fetch's pack read in a pack thread: `watch` passes the upload-pack response's chunks to the thread (in batches, a
 * few ahead: the response is read no faster than the thread takes it) and yields the response's lines but its pack data, which
 * the thread checks (`PackGuard`), writes to `path` and indexes (`PackWriter`). `index` gives the pack's objects once
 * the response ended. A refusal of the guard is thrown from the stream, as `refuse(why)`.
 */
export class PackThread implements PackWatcher {
  readonly #port: MessagePort;
  readonly #task: Promise<void>;
  readonly #refuse: (why: string) => Error;
  /** The answers awaited, in the order of the requests (the thread answers in order). */
  readonly #pending: ((r: PackReply) => void)[] = [];
  #index: PackIndex | null = null;
  #closed = false;

  constructor(path: string, limits: PackLimits, refuse: (why: string) => Error) {
    this.#refuse = refuse;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    port1.on('message', (r: PackReply) => this.#pending.shift()?.(r));
    port1.on('close', () => this.#fail('the pack thread stopped'));
    this.#task = contentThreads.run('pack', { port: port2, path, limits }, PACK_LANE, { transferList: [port2] });
    // The task's failure (a thread that could not start or ran out of memory) answers whatever waits.
    this.#task.catch((err: Error) => this.#fail(err.message));
  }

  #fail(why: string): void {
    for (const answer of this.#pending.splice(0)) answer({ failed: why });
  }

  #ask(request: PackRequest, transfer: ArrayBuffer[] = []): Promise<PackReply> {
    if (this.#closed) return Promise.resolve({ failed: 'the pack thread stopped' });
    return new Promise((resolve) => {
      this.#pending.push(resolve);
      this.#port.postMessage(request, transfer);
    });
  }

  #answer(r: PackReply): PackReply {
    if ('refused' in r) throw this.#refuse(r.refused);
    if ('failed' in r) throw new Error(`the fetched pack could not be read: ${r.failed}`);
    return r;
  }

  /**
   * The response's chunks go to the thread in batches of BATCH_BYTES (copied once into a buffer of their own, which
   * is moved, not copied, to the thread), at most IN_FLIGHT batches ahead of the thread's answers: the socket is read
   * while the thread works, and memory holds at most IN_FLIGHT batches.
   */
  async *watch(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const waiting: Promise<PackReply>[] = [];
    let batch: Uint8Array[] = [];
    let size = 0;
    const send = () => {
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const b of batch) bytes.set(b, (at += b.byteLength) - b.byteLength);
      waiting.push(this.#ask({ chunk: bytes }, [bytes.buffer as ArrayBuffer]));
      batch = [];
      size = 0;
    };
    const kept = async () => {
      const r = this.#answer(await waiting.shift()!);
      const lines = 'kept' in r ? r.kept : [];
      return lines.length ? Buffer.concat(lines) : null;
    };
    for await (const chunk of body) {
      batch.push(chunk);
      size += chunk.byteLength;
      if (size < BATCH_BYTES) continue;
      send();
      while (waiting.length >= IN_FLIGHT) {
        const lines = await kept();
        if (lines) yield lines;
      }
    }
    if (size) send();
    while (waiting.length) {
      const lines = await kept();
      if (lines) yield lines;
    }
    const r = this.#answer(await this.#ask({ end: true }));
    if ('index' in r) this.#index = r.index;
  }

  /** The pack's objects by id (after the response ended). */
  index(): PackIndex {
    if (!this.#index) throw new Error('the fetch brought no pack');
    return this.#index;
  }

  /** Ends the thread's work (it stops reading; what it wrote stays for the caller to remove). */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#port.close();
    }
    await this.#task.catch(() => {});
  }
}
