import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflate as inflateCb } from 'node:zlib';
import type { PackObjectHead, PackTap } from './git-pack-guard.ts';

const inflate = promisify(inflateCb);

const TYPES = ['', 'commit', 'tree', 'blob', 'tag'] as const;
const OFS_DELTA = 6;
const REF_DELTA = 7;
/** Resolved objects kept while deltas are resolved (a delta's base is often another delta's). */
const RESOLVED_CACHE_BYTES = 32 * 1024 * 1024;
/** Deepest delta chain followed (Git writes at most 50). */
const MAX_DELTA_DEPTH = 64;

/** Where an object lies in a pack file written by `PackWriter`: what `PackReader` needs to read it. */
export interface PackedObject {
  /** Its first byte (its header). */
  start: number;
  /** Its compressed data: from `dataStart` to `end`. */
  dataStart: number;
  end: number;
  /** The pack type (1–4; 6, 7: a delta). */
  type: number;
  /** Its inflated size (a delta: the object it rebuilds). */
  size: number;
  baseOffset?: number;
  baseOid?: string;
}

/** A pack's objects by id (plain data: it crosses from the fetching thread to the caller). */
export type PackIndex = Map<string, PackedObject>;

/** Git's id of an object: SHA-1 of `<type> <size>\0<content>`. */
const oidOf = (type: string, content: Uint8Array) =>
  createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest('hex');

/** A varint of a delta's header (7 bits a byte, least significant first). */
function deltaVarint(delta: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (;;) {
    if (i >= delta.length) throw new Error('a delta is truncated');
    const b = delta[i++]!;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, i];
  }
}

/** Git's delta applied to its base: copy (from the base) and insert instructions (Documentation/gitformat-pack). */
export function applyDelta(delta: Uint8Array, base: Uint8Array): Uint8Array {
  const [baseSize, a] = deltaVarint(delta, 0);
  if (baseSize !== base.byteLength) throw new Error('a delta does not fit its base');
  const [size, start] = deltaVarint(delta, a);
  const out = new Uint8Array(size);
  let o = 0;
  let i = start;
  while (i < delta.length) {
    const op = delta[i++]!;
    if (op & 0x80) {
      let offset = 0;
      let length = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[i++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) length += delta[i++]! * 2 ** (8 * bit);
      if (length === 0) length = 0x10000;
      if (offset + length > base.byteLength || o + length > size) throw new Error('a delta copies out of bounds');
      out.set(base.subarray(offset, offset + length), o);
      o += length;
    } else if (op) {
      if (i + op > delta.length || o + op > size) throw new Error('a delta inserts out of bounds');
      out.set(delta.subarray(i, i + op), o);
      o += op;
      i += op;
    } else throw new Error('a delta holds a reserved instruction');
  }
  if (o !== size) throw new Error('a delta gives another size than it declares');
  return out;
}

/** Reads objects of a pack file on disk: each object's bytes read at its offset and inflated (zlib's thread pool). */
export class PackReader {
  private readonly byOffset = new Map<number, PackedObject>();
  private readonly cache = new Map<number, { type: number; bytes: Uint8Array }>();
  private cached = 0;
  private readonly index: ReadonlyMap<string, PackedObject>;
  private readonly file: FileHandle;

  private constructor(file: FileHandle, index: ReadonlyMap<string, PackedObject>, objects: Iterable<PackedObject>) {
    this.file = file;
    this.index = index;
    for (const o of objects) this.byOffset.set(o.start, o);
  }

  static async open(path: string, index: ReadonlyMap<string, PackedObject>, objects?: Iterable<PackedObject>) {
    return new PackReader(await open(path, 'r'), index, objects ?? index.values());
  }

  close(): Promise<void> {
    return this.file.close();
  }

  /** An object's type name and content. */
  async read(oid: string): Promise<{ type: string; bytes: Uint8Array }> {
    const o = this.index.get(oid);
    if (!o) throw new Error(`the pack holds no object ${oid}`);
    const { type, bytes } = await this.resolve(o, 0);
    return { type: TYPES[type]!, bytes };
  }

  /** An object's compressed data, inflated (a delta: the delta itself). */
  private async raw(o: PackedObject): Promise<Uint8Array> {
    const buf = Buffer.allocUnsafe(o.end - o.dataStart);
    const { bytesRead } = await this.file.read(buf, 0, buf.byteLength, o.dataStart);
    if (bytesRead !== buf.byteLength) throw new Error('the pack file is truncated');
    return inflate(buf);
  }

  async resolve(o: PackedObject, depth: number): Promise<{ type: number; bytes: Uint8Array }> {
    const hit = this.cache.get(o.start);
    if (hit) return hit;
    if (depth > MAX_DELTA_DEPTH) throw new Error('a delta chain is too deep');
    const data = await this.raw(o);
    if (o.type !== OFS_DELTA && o.type !== REF_DELTA) return { type: o.type, bytes: data };
    const base =
      o.baseOffset !== undefined ? this.byOffset.get(o.baseOffset) : o.baseOid ? this.index.get(o.baseOid) : undefined;
    if (!base) throw new Error('a delta has no base in the pack');
    const from = await this.resolve(base, depth + 1);
    // A base is kept a while: the objects rebuilt from one base usually follow each other.
    if (!this.cache.has(base.start) && from.bytes.byteLength <= RESOLVED_CACHE_BYTES / 4) {
      this.cache.set(base.start, from);
      this.cached += from.bytes.byteLength;
      for (const [at, v] of this.cache) {
        if (this.cached <= RESOLVED_CACHE_BYTES) break;
        this.cache.delete(at);
        this.cached -= v.bytes.byteLength;
      }
    }
    return { type: from.type, bytes: applyDelta(data, from.bytes) };
  }
}

/**
 * Writes the pack a fetch receives to a file as it streams in (a `PackTap` of the fetch's pack guard) and indexes
 * it: an object's id is hashed from the guard's inflated output as it passes, a delta's once the pack is whole (its
 * base read back from the file). Memory holds the index and, while deltas are resolved, a bounded cache of bases.
 */
export class PackWriter implements PackTap {
  readonly path: string;
  private fd: number | null;
  private size = 0;
  private readonly objects: PackedObject[] = [];
  private readonly ids = new Map<number, string>();
  private current: { head: PackObjectHead; hash: Hash | null } | null = null;

  constructor(path: string) {
    this.path = path;
    this.fd = openSync(path, 'w');
  }

  pack(bytes: Uint8Array): void {
    if (this.fd === null) return;
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(this.fd, bytes, at);
    this.size += bytes.byteLength;
  }

  object(head: PackObjectHead): void {
    const name = TYPES[head.type];
    const hash = name ? createHash('sha1').update(`${name} ${head.size}\0`) : null;
    this.current = { head, hash };
  }

  data(out: Uint8Array): void {
    this.current?.hash?.update(out);
  }

  end(): void {
    const c = this.current!;
    this.current = null;
    const { start, dataStart, type, size, baseOffset, baseOid } = c.head;
    this.objects.push({
      start,
      dataStart,
      end: 0,
      type,
      size,
      ...(baseOffset !== undefined ? { baseOffset } : {}),
      ...(baseOid !== undefined ? { baseOid } : {}),
    });
    if (c.hash) this.ids.set(start, c.hash.digest('hex'));
  }

  /** Closes the file (nothing more is written). */
  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Closes the file and returns the pack's objects by id, its deltas resolved (read back from the file). */
  async finish(): Promise<PackIndex> {
    this.abort();
    const index: PackIndex = new Map();
    if (!this.objects.length) return index;
    // An object's compressed data ends where the next object starts (the last: before the 20-byte trailer).
    this.objects.forEach((o, i) => (o.end = this.objects[i + 1]?.start ?? this.size - 20));
    for (const o of this.objects) {
      const id = this.ids.get(o.start);
      if (id) index.set(id, o);
    }
    const deltas = this.objects.filter((o) => !this.ids.has(o.start));
    if (!deltas.length) return index;
    const reader = await PackReader.open(this.path, index, this.objects);
    try {
      // A reference delta's base may be a delta resolved later: passes until none is left or none moved.
      let left = deltas;
      while (left.length) {
        const next: PackedObject[] = [];
        for (const o of left) {
          if (o.baseOid && !index.has(o.baseOid)) {
            next.push(o);
            continue;
          }
          const { type, bytes } = await reader.resolve(o, 0);
          o.size = bytes.byteLength;
          index.set(oidOf(TYPES[type]!, bytes), o);
        }
        if (next.length === left.length) throw new Error('a delta of the pack has no base in it');
        left = next;
      }
    } finally {
      await reader.close();
    }
    return index;
  }
}
