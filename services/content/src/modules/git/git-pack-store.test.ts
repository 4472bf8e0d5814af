import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, runGit } from './git-http-server.testing.ts';
import { PackGuard } from './git-pack-guard.ts';
import { applyDelta, PackReader, PackWriter, type PackIndex } from './git-pack-store.ts';

const LIMITS = { maxObjectBytes: 64 * 1024 * 1024, maxInflatedBytes: 256 * 1024 * 1024, maxObjects: 10_000 };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'quire-pack-store-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A repository whose pages differ by a line (so `git pack-objects` writes most of them as deltas), and a binary. */
async function repoWithDeltas(): Promise<string> {
  const dir = join(work, 'repo');
  await runGit(['init', '--initial-branch=main', dir]);
  const text = Array.from({ length: 200 }, (_, i) => `Line ${i} of the guide, which every page repeats.`).join('\n');
  for (let i = 0; i < 40; i++)
    await writeFile(join(dir, `page-${i}.md`), `# Page ${i}\n\n${text}\n\nPage ${i} ends.\n`);
  await writeFile(join(dir, 'image.bin'), randomBytes(300_000));
  await commitAll(dir, 'pages');
  // A second commit rewriting the pages: the pack of both holds delta chains (new against old, or the reverse).
  for (let i = 0; i < 40; i += 3) await writeFile(join(dir, `page-${i}.md`), `# Page ${i}, edited\n\n${text}\n`);
  await commitAll(dir, 'edit');
  return dir;
}

/** `git verify-pack -v`: each object's id, type, size and offset. */
async function verifyPack(pack: string): Promise<Map<string, { type: string; size: number; offset: number }>> {
  const out = await runGit(['verify-pack', '-v', pack.replace(/\.pack$/, '.idx')]);
  const objects = new Map<string, { type: string; size: number; offset: number }>();
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]{40}) (\w+)\s+(\d+) \d+ (\d+)/.exec(line);
    if (m) objects.set(m[1]!, { type: m[2]!, size: Number(m[3]), offset: Number(m[4]) });
  }
  return objects;
}

describe('the pack store (an import reads its pack from disk)', () => {
  it('indexes a pack as the guard reads it, deltas included, as git verify-pack does, and reads each object back', async () => {
    const dir = await repoWithDeltas();
    const sha = (
      await runGit(['pack-objects', '--all', '--window=50', join(work, 'p')], { cwd: dir, input: '' })
    ).trim();
    const pack = join(work, `p-${sha}.pack`);
    const bytes = await readFile(pack);
    const expected = await verifyPack(pack);
    const deltas = (await runGit(['verify-pack', '-v', pack.replace(/\.pack$/, '.idx')])).match(
      /^[0-9a-f]{40} \w+\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/gm,
    );
    expect(deltas?.length ?? 0).toBeGreaterThan(10);

    // The guard reads the pack (a bare pack, as a server without side-band sends it) in uneven chunks.
    const written = join(work, 'written.pack');
    const writer = new PackWriter(written);
    const guard = new PackGuard(LIMITS, (why) => new Error(why), writer);
    for (let at = 0; at < bytes.length; at += 7_777) await guard.take(bytes.subarray(at, at + 7_777));
    guard.close();
    const index: PackIndex = await writer.finish();
    expect(await readFile(written)).toEqual(bytes);

    expect([...index.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [oid, o] of index) expect(o.start, oid).toBe(expected.get(oid)!.offset);
    const reader = await PackReader.open(written, index);
    try {
      for (const [oid, { type }] of expected) {
        const got = await reader.read(oid);
        expect(got.type).toBe(type);
        const cat = await runGit(['cat-file', '-s', oid], { cwd: dir });
        expect(got.bytes.byteLength, oid).toBe(Number(cat.trim()));
        expect(index.get(oid)!.size).toBe(got.bytes.byteLength);
        if (type === 'blob') expect(Buffer.from(got.bytes).toString('latin1')).toBe(await catBlob(dir, oid));
      }
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('refuses a delta that reads past its base', () => {
    const base = new Uint8Array([1, 2, 3]);
    // base size 3, result size 4, copy 4 bytes from offset 0
    expect(() => applyDelta(new Uint8Array([3, 4, 0x90, 4]), base)).toThrow(/out of bounds/);
    expect(applyDelta(new Uint8Array([3, 5, 0x90, 3, 2, 9, 9]), base)).toEqual(new Uint8Array([1, 2, 3, 9, 9]));
  });
});

async function catBlob(cwd: string, oid: string): Promise<string> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', 'blob', oid], { cwd });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', () => resolve(Buffer.concat(out).toString('latin1')));
  });
}
