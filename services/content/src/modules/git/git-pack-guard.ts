import { setImmediate as yieldToLoop } from 'node:timers/promises';
import pako, { type Inflate } from 'pako';

/** What one fetch may bring, counted from the pack's object headers before anything keeps an inflated object. */
export interface PackLimits {
  /** Largest object, inflated (a delta: the object it rebuilds). */
  maxObjectBytes: number;
  /** Every object of the fetch, inflated, added up. */
  maxInflatedBytes: number;
  /** Most objects in the pack. */
  maxObjects: number;
}

type Refuse = (why: string) => Error;

/** An object of the pack as its header gives it: where it starts, its type, size, where its data starts, its base. */
export interface PackObjectHead {
  start: number;
  type: number;
  /** The size the header declares (a delta: the delta's own). */
  size: number;
  /** Where its compressed data starts. */
  dataStart: number;
  /** An offset delta's base: its offset in the pack. */
  baseOffset?: number;
  /** A reference delta's base: its object id. */
  baseOid?: string;
}

/**
 * What a fetch does with the pack the guard reads (see git-pack-store.ts): the pack's bytes as they arrive, each
 * object's header, its inflated data (in slices) and its end. With a tap, the guard passes on to isomorphic-git the
 * response without its pack data: the pack is never held whole in memory.
 */
export interface PackTap {
  pack(bytes: Uint8Array): void;
  object(head: PackObjectHead): void;
  data(out: Uint8Array): void;
  end(): void;
}

const OFS_DELTA = 6;
const REF_DELTA = 7;
/** Input fed to the inflater at once: a slice of zeros inflates to at most ~1,000 times its size. */
const SLICE = 16 * 1024;
/** Inflated bytes after which the event loop gets a turn. */
const YIELD_EVERY = 4 * 1024 * 1024;

/** A varint of a pack object header or a delta header (7 bits a byte, least significant first), or null: incomplete. */
function varint(bytes: Uint8Array, at: number, firstBits = 7): { value: number; next: number } | null {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    if (i >= bytes.length) return null;
    const b = bytes[i++]!;
    const bits = i - 1 === at ? firstBits : 7;
    value += (b & ((1 << bits) - 1)) * 2 ** shift;
    shift += bits;
    if (!(b & 0x80)) return { value, next: i };
    if (shift > 56) return { value: Number.MAX_SAFE_INTEGER, next: i };
  }
}

/** An object's header at the start of `bytes`: type, declared size, header length; null when incomplete. */
function objectHeader(
  bytes: Uint8Array,
): { type: number; size: number; length: number; back?: number; baseOid?: string } | null {
  if (!bytes.length) return null;
  const type = (bytes[0]! >> 4) & 7;
  const size = varint(bytes, 0, 4);
  if (!size) return null;
  let next = size.next;
  if (type === OFS_DELTA) {
    // Git's offset encoding: big-endian 7-bit groups, each but the last adding one.
    let back = 0;
    for (let first = true; ; first = false) {
      if (next >= bytes.length) return null;
      const b = bytes[next++]!;
      back = first ? b & 0x7f : (back + 1) * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
      if (back > Number.MAX_SAFE_INTEGER / 256) return { type, size: size.value, length: next, back: Infinity };
    }
    return { type, size: size.value, length: next, back };
  }
  if (type === REF_DELTA) {
    if (next + 20 > bytes.length) return null;
    const baseOid = Buffer.from(bytes.subarray(next, next + 20)).toString('hex');
    return { type, size: size.value, length: next + 20, baseOid };
  }
  return { type, size: size.value, length: next };
}

/** What reads a fetch's `git-upload-pack` response on its way to isomorphic-git (a `PackGuard`, or a `PackThread`). */
export interface PackWatcher {
  watch(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array>;
}

/**
 * Reads a `git-upload-pack` response as it streams in (side-band pkt-lines, or a bare pack) and refuses it — by
 * throwing from the stream, before isomorphic-git has the whole pack to index — when the pack declares more
 * objects than allowed, an object larger than allowed (a delta: the object it rebuilds, read from the delta's own
 * header), or more inflated bytes in all. Each object's compressed data is inflated as it arrives, in small slices
 * whose output is counted and dropped, so an object that inflates beyond what its header declares is refused too;
 * memory stays at one slice. Records each object's inflated size by its offset in the pack (`sizes`).
 */
export class PackGuard implements PackWatcher {
  /** Each object's inflated size (a delta: its result's) by its offset in the pack. */
  readonly sizes = new Map<number, number>();
  private pkt: Uint8Array = new Uint8Array(0);
  private rawPack = false;
  private phase: 'header' | 'object' | 'data' | 'trailer' = 'header';
  private pending: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private left = 0;
  private total = 0;
  private sinceYield = 0;
  private current: { start: number; type: number; size: number; out: number; head: number[] } | null = null;
  private inflater: Inflate | null = null;

  private readonly limits: PackLimits;
  private readonly refuse: Refuse;
  private readonly tap: PackTap | undefined;

  constructor(limits: PackLimits, refuse: Refuse, tap?: PackTap) {
    this.limits = limits;
    this.refuse = refuse;
    this.tap = tap;
  }

  /**
   * The response's chunks, each passed on once read (the last one only when the whole pack passed); with a tap, the
   * response's lines but its pack data (which goes to the tap).
   */
  async *watch(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      const kept = await this.take(chunk);
      if (!this.tap) yield chunk;
      else if (kept.length) yield kept.length === 1 ? kept[0]! : Buffer.concat(kept);
    }
    this.close();
  }

  /** The response ended: refused when its pack did not. */
  close(): void {
    if (this.phase !== 'header' && this.phase !== 'trailer') throw this.refuse('the pack ended early');
  }

  /**
   * Reads a chunk of the response. Demultiplexes pkt-lines: band 1 is pack data; other lines (ACK/NAK, shallow,
   * progress, flushes) are left alone, and returned (what a tapped fetch passes on).
   */
  async take(chunk: Uint8Array): Promise<Uint8Array[]> {
    const kept: Uint8Array[] = [];
    if (this.rawPack) {
      await this.readPack(chunk);
      return kept;
    }
    this.pkt = concat(this.pkt, chunk);
    while (this.pkt.length >= 4) {
      const head = String.fromCharCode(...this.pkt.subarray(0, 4));
      if (head === 'PACK') {
        // No side-band: the pack follows the acknowledgements as is.
        this.rawPack = true;
        const rest = this.pkt;
        this.pkt = new Uint8Array(0);
        await this.readPack(rest);
        return kept;
      }
      if (!/^[0-9a-f]{4}$/i.test(head)) throw this.refuse('the server sent a malformed response');
      const length = Number.parseInt(head, 16);
      if (length < 4) {
        if (this.tap) kept.push(this.pkt.slice(0, 4));
        this.pkt = this.pkt.subarray(4);
        continue;
      }
      if (this.pkt.length < length) return kept;
      const line = this.pkt.subarray(4, length);
      if (line[0] === 1) await this.readPack(line.subarray(1));
      else if (this.tap) kept.push(this.pkt.slice(0, length));
      this.pkt = this.pkt.subarray(length);
    }
    return kept;
  }

  private async readPack(bytes: Uint8Array): Promise<void> {
    this.tap?.pack(bytes);
    for (let i = 0; i < bytes.length; i += SLICE) {
      this.feed(bytes.subarray(i, i + SLICE));
      if (this.sinceYield >= YIELD_EVERY) {
        this.sinceYield = 0;
        await yieldToLoop();
      }
    }
  }

  private feed(input: Uint8Array): void {
    let bytes = this.pending.length ? concat(this.pending, input) : input;
    this.pending = new Uint8Array(0);
    while (bytes.length) {
      if (this.phase === 'trailer') return;
      if (this.phase === 'header') {
        if (bytes.length < 12) return void (this.pending = bytes.slice());
        this.readPackHeader(bytes.subarray(0, 12));
        bytes = bytes.subarray(12);
        this.offset = 12;
      } else if (this.phase === 'object') {
        const head = objectHeader(bytes);
        if (!head) return void (this.pending = bytes.slice());
        this.startObject(head);
        bytes = bytes.subarray(head.length);
        this.offset += head.length;
      } else {
        const used = this.inflate(bytes);
        bytes = bytes.subarray(used);
        this.offset += used;
      }
    }
  }

  private readPackHeader(h: Uint8Array): void {
    if (String.fromCharCode(...h.subarray(0, 4)) !== 'PACK') throw this.refuse('the server sent no pack');
    const view = new DataView(h.buffer, h.byteOffset, 12);
    this.left = view.getUint32(8);
    if (this.left > this.limits.maxObjects)
      throw this.refuse(`the commit holds ${this.left} Git objects, more than ${this.limits.maxObjects}`);
    this.phase = this.left ? 'object' : 'trailer';
  }

  private startObject(head: { type: number; size: number; length: number; back?: number; baseOid?: string }): void {
    const delta = head.type === OFS_DELTA || head.type === REF_DELTA;
    if (head.type === 0 || head.type === 5 || head.type > REF_DELTA) throw this.refuse('the pack is corrupt');
    if (head.back !== undefined && (head.back <= 0 || head.back > this.offset))
      throw this.refuse('the pack is corrupt');
    this.checkObject(head.size);
    this.tap?.object({
      start: this.offset,
      type: head.type,
      size: head.size,
      dataStart: this.offset + head.length,
      ...(head.back !== undefined ? { baseOffset: this.offset - head.back } : {}),
      ...(head.baseOid !== undefined ? { baseOid: head.baseOid } : {}),
    });
    if (!delta) this.count(head.size);
    this.current = { start: this.offset, type: head.type, size: head.size, out: 0, head: [] };
    if (!delta) this.sizes.set(this.offset, head.size);
    const inflater = new pako.Inflate({ chunkSize: 64 * 1024 });
    inflater.onData = (out) => this.inflated(out);
    inflater.onEnd = () => {};
    this.inflater = inflater;
    this.phase = 'data';
  }

  private checkObject(size: number): void {
    if (size > this.limits.maxObjectBytes)
      throw this.refuse(
        `a Git object of the commit is ${size} bytes inflated, more than the ${this.limits.maxObjectBytes} allowed`,
      );
  }

  private count(size: number): void {
    this.total += size;
    if (this.total > this.limits.maxInflatedBytes)
      throw this.refuse(`the commit's Git objects add up to more than ${this.limits.maxInflatedBytes} bytes inflated`);
  }

  /** Output of the current object's inflater: counted, a delta's header read, dropped. */
  private inflated(out: Uint8Array): void {
    const o = this.current!;
    o.out += out.length;
    this.sinceYield += out.length;
    this.tap?.data(out);
    if (o.out > o.size) throw this.refuse('a Git object inflates beyond the size its header declares');
    if ((o.type === OFS_DELTA || o.type === REF_DELTA) && o.head.length < 20) {
      const before = o.head.length;
      o.head.push(...out.subarray(0, 20 - before));
      const base = varint(Uint8Array.from(o.head), 0);
      const result = base && varint(Uint8Array.from(o.head), base.next);
      if (result && !this.sizes.has(o.start)) {
        this.checkObject(result.value);
        this.count(result.value);
        this.sizes.set(o.start, result.value);
      }
    }
  }

  /** Feeds the current object's compressed data; how many bytes belonged to it. */
  private inflate(bytes: Uint8Array): number {
    const inflater = this.inflater!;
    inflater.push(bytes, false);
    if (inflater.err) throw this.refuse('the pack is corrupt');
    if (!inflater.ended) return bytes.length;
    const o = this.current!;
    if (o.out !== o.size) throw this.refuse('a Git object inflates to another size than its header declares');
    if ((o.type === OFS_DELTA || o.type === REF_DELTA) && !this.sizes.has(o.start))
      throw this.refuse('the pack holds a malformed delta');
    this.tap?.end();
    this.inflater = null;
    this.current = null;
    this.left--;
    this.phase = this.left ? 'object' : 'trailer';
    return bytes.length - inflater.strm.avail_in;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Each object's offset in a pack, by object id, from its version-2 `.idx` file. */
export function packOffsets(idx: Uint8Array): Map<string, number> {
  const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
  if (view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) throw new Error('not a version 2 pack index');
  const n = view.getUint32(8 + 255 * 4);
  const names = 8 + 256 * 4;
  const offsets = names + n * 20 + n * 4;
  const large = offsets + n * 4;
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const oid = Buffer.from(idx.buffer, idx.byteOffset + names + i * 20, 20).toString('hex');
    const small = view.getUint32(offsets + i * 4);
    out.set(oid, small & 0x80000000 ? Number(view.getBigUint64(large + (small & 0x7fffffff) * 8)) : small);
  }
  return out;
}
