import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PackGuard, type PackLimits } from './git-pack-guard.ts';

const BLOB = 3;
const OFS_DELTA = 6;
const limits: PackLimits = { maxObjectBytes: 1_000_000, maxInflatedBytes: 3_000_000, maxObjects: 10 };

/** A pack object header: type, then the size, 4 bits then 7 bits a byte. */
function header(type: number, size: number): Buffer {
  const out = [(type << 4) | (size & 15)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out[out.length - 1]! |= 0x80;
    out.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(out);
}

/** A delta header's varint (7 bits a byte, least significant first). */
function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 128 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.from(out);
}

const blob = (data: Buffer, declared = data.length) => Buffer.concat([header(BLOB, declared), deflateSync(data)]);

/** An offset delta `distance` bytes after its base, rebuilding `resultSize` bytes (one copy of the base's 5 bytes). */
function ofsDelta(distance: number, baseSize: number, resultSize: number): Buffer {
  const delta = Buffer.concat([varint(baseSize), varint(resultSize), Buffer.from([0x90, baseSize])]);
  return Buffer.concat([header(OFS_DELTA, delta.length), Buffer.from([distance]), deflateSync(delta)]);
}

function pack(objects: Buffer[], count = objects.length): Buffer {
  const head = Buffer.alloc(12);
  head.write('PACK');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(count, 8);
  return Buffer.concat([head, ...objects, Buffer.alloc(20)]);
}

/** An upload-pack response: NAK, then the pack in side-band 1 pkt-lines of at most `size` bytes. */
function response(p: Buffer, size = 1000): Buffer {
  const line = (payload: Buffer) =>
    Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
  const parts = [line(Buffer.from('NAK\n'))];
  for (let i = 0; i < p.length; i += size) parts.push(line(Buffer.concat([Buffer.from([1]), p.subarray(i, i + size)])));
  parts.push(Buffer.from('0000'));
  return Buffer.concat(parts);
}

/** Runs a response through a guard in chunks of `chunk` bytes; the guard, or the refusal's message. */
async function guarded(body: Buffer, chunk = 7, over: Partial<PackLimits> = {}) {
  const guard = new PackGuard({ ...limits, ...over }, (why) => new Error(why));
  async function* chunks() {
    for (let i = 0; i < body.length; i += chunk) yield body.subarray(i, i + chunk);
  }
  let passed = 0;
  try {
    for await (const c of guard.watch(chunks())) passed += c.length;
  } catch (err) {
    return { refused: (err as Error).message, passed, guard };
  }
  return { refused: null, passed, guard };
}

describe('PackGuard', () => {
  it('passes a pack within the limits, chunk by chunk, and records each object’s inflated size by offset', async () => {
    const a = blob(Buffer.from('hello'));
    // The delta comes right after `world!`: its base is `hello`, two objects back.
    const distance = a.length + blob(Buffer.from('world!')).length;
    const fixed = response(pack([a, blob(Buffer.from('world!')), ofsDelta(distance, 5, 5)]));
    for (const chunk of [1, 7, 4096]) {
      const { refused, passed, guard } = await guarded(fixed, chunk);
      expect(refused).toBeNull();
      expect(passed).toBe(fixed.length);
      expect([...guard.sizes]).toEqual([
        [12, 5],
        [12 + a.length, 6],
        [12 + distance, 5],
      ]);
    }
  });

  it('refuses an object whose header declares more than the limit, before reading its data', async () => {
    const bomb = Buffer.concat([header(BLOB, 400_000_000), Buffer.from([0x78, 0x01])]);
    const { refused, passed } = await guarded(response(pack([bomb])), 4096);
    expect(refused).toBe('a Git object of the commit is 400000000 bytes inflated, more than the 1000000 allowed');
    expect(passed).toBe(0);
  });

  it('refuses an object that inflates beyond what its header declares', async () => {
    const liar = blob(Buffer.alloc(5_000_000), 10);
    expect((await guarded(response(pack([liar])), 65_536)).refused).toBe(
      'a Git object inflates beyond the size its header declares',
    );
  });

  it('refuses a small delta that would rebuild an object over the limit', async () => {
    const base = blob(Buffer.from('hello'));
    const { refused } = await guarded(response(pack([base, ofsDelta(base.length, 5, 400_000_000)])));
    expect(refused).toBe('a Git object of the commit is 400000000 bytes inflated, more than the 1000000 allowed');
  });

  it('refuses too many objects and too many inflated bytes in all', async () => {
    expect((await guarded(response(pack([], 11)))).refused).toBe('the commit holds 11 Git objects, more than 10');
    const zeros = blob(Buffer.alloc(900_000));
    expect((await guarded(response(pack([zeros, zeros, zeros, zeros])), 65_536)).refused).toBe(
      "the commit's Git objects add up to more than 3000000 bytes inflated",
    );
  });

  it('refuses a pack cut short', async () => {
    const p = pack([blob(Buffer.from('hello')), blob(Buffer.from('world'))]);
    expect((await guarded(response(p.subarray(0, 20)))).refused).toBe('the pack ended early');
  });
});
