import { exec } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { pushFiles, readRemote, type GitLimits, type RemoteSpec } from './git-remote.ts';
import { privateHostsOf, redact, splitRemote } from './git-http.ts';
import { runGit, useGitServer } from './git-http-server.testing.ts';

const limits: GitLimits = {
  maxFetchBytes: 5_000_000,
  maxInflatedBytes: 10_000_000,
  maxObjects: 1_000,
  maxFileBytes: 100_000,
  maxFiles: 100,
  maxProjectBytes: 1_000_000,
  maxTreeEntries: 50,
  maxPathBytes: 200,
  maxDepth: 5,
  timeoutMs: 10_000,
};
const auth = { user: 'writer', password: 's3cret-pass' };
const enc = new TextEncoder();
const server = useGitServer(auth);
const spec = (name: string, over: Partial<RemoteSpec> = {}): RemoteSpec => ({
  url: server.urlOf(name),
  credentials: `${auth.user}:${auth.password}`,
  ref: 'refs/heads/main',
  allowPrivate: true,
  allowPublic: false,
  ...over,
});
const author = { name: 'Ada', email: 'ada@example.com' };
const runShell = (command: string, cwd: string) =>
  new Promise<void>((resolve, reject) => exec(command, { cwd }, (err) => (err ? reject(err) : resolve())));

/** A repository pushed with the git CLI (through the server, with the credentials). */
async function pushWithCli(name: string, build: (dir: string) => Promise<void>): Promise<void> {
  await server.createRepo(name);
  const dir = await mkdtemp(join(server.work, 'w-'));
  await runGit(['init', '--initial-branch=main', dir]);
  await build(dir);
  await runGit(['add', '-A'], { cwd: dir });
  await runGit(['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-m', 'fixture'], { cwd: dir });
  await runGit(['push', server.urlOf(name, auth), 'main'], { cwd: dir });
}

describe('Git remotes over HTTP (git http-backend on loopback)', () => {
  it('pushes a commit the git CLI clones, only when something changed, and reads back an edit', async () => {
    await server.createRepo('docs');
    const files = new Map([
      ['README.md', enc.encode('# Hi\n')],
      ['a/b.md', enc.encode('# B\n')],
    ]);
    const first = await pushFiles(
      spec('docs'),
      { files, message: 'Export', author, expectedHead: null, force: false },
      limits,
    );
    expect(first.created).toBe(true);
    const again = await pushFiles(
      spec('docs'),
      { files, message: 'Export', author, expectedHead: first.oid, force: false },
      limits,
    );
    expect(again).toEqual({ oid: first.oid, created: false });

    const clone = join(server.work, 'clone');
    await runGit(['clone', server.urlOf('docs', auth), clone]);
    expect(await readFile(join(clone, 'a/b.md'), 'utf8')).toBe('# B\n');
    expect(await runGit(['log', '--format=%an <%ae>|%s'], { cwd: clone })).toBe('Ada <ada@example.com>|Export\n');
    await writeFile(join(clone, 'a/b.md'), '# B edited\n');
    await runGit(['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-am', 'edit'], { cwd: clone });
    await runGit(['push'], { cwd: clone });

    const read = await readRemote(spec('docs'), limits);
    expect(new TextDecoder().decode(read.files.get('a/b.md')!.bytes)).toBe('# B edited\n');
    expect(read.message).toBe('edit\n');
    // The remote moved on: exporting over it without force is refused, with force it goes on top.
    await expect(
      pushFiles(spec('docs'), { files, message: 'X', author, expectedHead: first.oid, force: false }, limits),
    ).rejects.toThrow(/commits not imported/);
    const forced = await pushFiles(
      spec('docs'),
      { files, message: 'X', author, expectedHead: first.oid, force: true },
      limits,
    );
    expect(forced.created).toBe(true);
  });

  it('refuses symlinks, huge files, too many files, wrong credentials and private addresses when not allowed', async () => {
    await pushWithCli('links', async (dir) => {
      await writeFile(join(dir, 'x.md'), 'x');
      await symlink('/etc/passwd', join(dir, 'passwd.md'));
    });
    await expect(readRemote(spec('links'), limits)).rejects.toThrow(/passwd.md is a symbolic link/);
    await pushWithCli('huge', async (dir) => writeFile(join(dir, 'big.md'), randomBytes(200_000)));
    // The pack declares an object over the limit: refused as it streams in, before anything is inflated.
    await expect(readRemote(spec('huge'), limits)).rejects.toThrow(
      /a Git object of the commit is 200000 bytes inflated, more than the 100000 allowed/,
    );
    await expect(readRemote(spec('huge'), { ...limits, maxFetchBytes: 2_000 })).rejects.toThrow(
      /larger than 2000 bytes/,
    );
    await pushWithCli('many', async (dir) => {
      for (let i = 0; i < 5; i++) await writeFile(join(dir, `${i}.md`), `${i}`);
    });
    await expect(readRemote(spec('many'), { ...limits, maxFiles: 3 })).rejects.toThrow(
      /the project directory has more than 3 files/,
    );
    await expect(readRemote(spec('many', { credentials: 'writer:wrong' }), limits)).rejects.toThrow(
      /refused the credentials/,
    );
    await expect(readRemote(spec('many', { allowPrivate: false, allowPublic: true }), limits)).rejects.toThrow(
      /loopback or private address/,
    );
  });

  it('refuses a tree holding a `..` entry (isomorphic-git refuses to read it; our own check is behind)', async () => {
    await server.createRepo('dotdot');
    const dir = await mkdtemp(join(server.work, 'dd-'));
    await git.init({ fs, dir, defaultBranch: 'main' });
    const blob = await git.writeBlob({ fs, dir, blob: enc.encode('owned') });
    const inner = await git.writeTree({ fs, dir, tree: [{ mode: '100644', path: '..', oid: blob, type: 'blob' }] });
    const tree = await git.writeTree({ fs, dir, tree: [{ mode: '040000', path: 'docs', oid: inner, type: 'tree' }] });
    const who = { name: 'M', email: 'm@e', timestamp: 0, timezoneOffset: 0 };
    const commit = await git.writeCommit({
      fs,
      dir,
      commit: { tree, parent: [], author: who, committer: who, message: 'evil\n' },
    });
    await git.writeRef({ fs, dir, ref: 'refs/heads/main', value: commit, force: true });
    await runGit(['push', server.urlOf('dotdot', auth), 'main'], { cwd: dir });
    await expect(readRemote(spec('dotdot'), limits)).rejects.toThrow(/unsafe/);
  });

  it('refuses a decompression bomb from its pack header: the process does not grow, the event loop keeps answering', async () => {
    // A 400 MB blob of zeros: ~400 KB compressed, far under the fetch's byte limit.
    await server.createRepo('bomb');
    const dir = await mkdtemp(join(server.work, 'bomb-'));
    await runGit(['init', '--initial-branch=main', dir]);
    await runShell('head -c 400000000 /dev/zero | git -c core.compression=1 hash-object -w --stdin > blob.oid', dir);
    const blob = (await readFile(join(dir, 'blob.oid'), 'utf8')).trim();
    const readme = (await runGit(['hash-object', '-w', '--stdin'], { cwd: dir, input: '# Docs\n' })).trim();
    const tree = (
      await runGit(['mktree'], { cwd: dir, input: `100644 blob ${readme}\tREADME.md\n100644 blob ${blob}\tbig.bin\n` })
    ).trim();
    const commit = (
      await runGit(['-c', 'user.name=M', '-c', 'user.email=m@e', 'commit-tree', tree, '-m', 'bomb'], { cwd: dir })
    ).trim();
    await runGit(['update-ref', 'refs/heads/main', commit], { cwd: dir });
    await runGit(['-c', 'pack.compression=1', 'push', server.urlOf('bomb', auth), 'main'], { cwd: dir });

    const big = { ...limits, maxFetchBytes: 100 * 1024 * 1024, maxFileBytes: 25 * 1024 * 1024 };
    const before = process.memoryUsage().rss;
    let peak = before;
    let ticks = 0;
    const sampler = setInterval(() => {
      ticks++;
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      await expect(readRemote(spec('bomb'), big)).rejects.toThrow(
        /a Git object of the commit is 400000000 bytes inflated, more than the 26214400 allowed/,
      );
    } finally {
      clearInterval(sampler);
    }
    // Refused from the header: nothing near 400 MB was ever allocated, and timers kept firing meanwhile.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    expect(ticks).toBeGreaterThan(0);
  }, 240_000);

  it('counts file limits on the project directory only, and refuses hostile trees before reading a file', async () => {
    await pushWithCli('mono', async (dir) => {
      await mkdir(join(dir, 'docs/guide'), { recursive: true });
      await mkdir(join(dir, 'other'), { recursive: true });
      await writeFile(join(dir, 'docs/README.md'), '# Docs\n');
      await writeFile(join(dir, 'docs/guide/a.md'), '# A\n');
      for (let i = 0; i < 12; i++) await writeFile(join(dir, `other/${i}.bin`), randomBytes(90_000));
    });
    // The whole commit is 1 MB, beyond the project limit; `docs` alone is a few bytes.
    const small = { ...limits, maxProjectBytes: 500_000 };
    const docs = await readRemote(spec('mono'), small, 'docs');
    expect([...docs.files.keys()].sort()).toEqual(['docs/README.md', 'docs/guide/a.md']);
    await expect(readRemote(spec('mono'), small)).rejects.toThrow(/add up to more than 500000 bytes/);
    await expect(readRemote(spec('mono'), { ...limits, maxDepth: 0 }, 'docs')).rejects.toThrow(
      /more than 0 folders deep/,
    );
    await expect(readRemote(spec('mono'), { ...limits, maxTreeEntries: 5 })).rejects.toThrow(
      /the folder other\/ has more than 5 entries/,
    );
    await expect(readRemote(spec('mono'), { ...limits, maxPathBytes: 10 }, 'docs')).rejects.toThrow(
      /a path is longer than 10 bytes/,
    );
    await expect(readRemote(spec('mono'), { ...limits, maxObjects: 5 })).rejects.toThrow(
      /holds \d+ Git objects, more than 5/,
    );
    await expect(readRemote(spec('mono'), { ...limits, maxInflatedBytes: 500_000 })).rejects.toThrow(
      /add up to more than 500000 bytes inflated/,
    );
  }, 120_000);

  it("reads the ref asked for when the remote's HEAD names a branch that does not exist", async () => {
    const bare = await server.createRepo('headless');
    await runGit(['symbolic-ref', 'HEAD', 'refs/heads/master'], { cwd: bare });
    const dir = await mkdtemp(join(server.work, 'hl-'));
    await runGit(['init', '--initial-branch=docs', dir]);
    await writeFile(join(dir, 'README.md'), '# On docs\n');
    await runGit(['add', '-A'], { cwd: dir });
    await runGit(['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-m', 'docs'], { cwd: dir });
    await runGit(['push', server.urlOf('headless', auth), 'docs'], { cwd: dir });
    const read = await readRemote(spec('headless', { ref: 'refs/heads/docs' }), limits);
    expect(new TextDecoder().decode(read.files.get('README.md')!.bytes)).toBe('# On docs\n');
  });

  it('reaches a private Git host an instance admin allows by name or range, and no other', async () => {
    const only = (entries: string[]) => ({
      allowPrivate: false,
      allowPublic: false,
      privateHosts: privateHostsOf(entries),
    });
    await pushWithCli('intranet', async (dir) => writeFile(join(dir, 'README.md'), '# Intranet\n'));
    expect((await readRemote(spec('intranet', only(['127.0.0.0/8'])), limits)).files.has('README.md')).toBe(true);
    expect((await readRemote(spec('intranet', only(['127.0.0.1'])), limits)).files.has('README.md')).toBe(true);
    await expect(readRemote(spec('intranet', only(['10.0.0.0/8', 'git.other.test'])), limits)).rejects.toThrow(
      /QUIRE_GIT_PRIVATE_HOSTS/,
    );
  });

  it('stops an operation past its deadline, as a timeout', async () => {
    await pushWithCli('late', async (dir) => writeFile(join(dir, 'README.md'), '# Late\n'));
    await expect(readRemote(spec('late', { deadline: Date.now() - 1 }), limits)).rejects.toThrow(
      /the operation took longer than 10 s and was stopped/,
    );
    await expect(readRemote(spec('late', { deadline: Date.now() + 60_000 }), limits)).resolves.toMatchObject({
      message: 'fixture\n',
    });
  });

  it('keeps credentials out of URLs and messages', () => {
    const { url, credentials } = splitRemote('https://bob:t%40ken-123@git.example.com/r.git');
    expect(url).toBe('https://git.example.com/r.git');
    expect(credentials).toBe('bob:t@ken-123');
    // A malformed escape in the credentials is the caller's error (400), not a crash.
    expect(() => splitRemote('https://bob:%zz@git.example.com/r.git')).toThrow(/malformed credentials/);
    expect(redact('failed https://bob:t%40ken-123@git.example.com token t@ken-123', credentials)).not.toMatch(
      /t@ken|t%40ken/,
    );
  });
});
