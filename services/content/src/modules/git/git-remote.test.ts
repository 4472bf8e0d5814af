import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { pushFiles, readRemote, type GitLimits, type RemoteSpec } from './git-remote.ts';
import { redact, splitRemote } from './git-http.ts';
import { runGit, useGitServer } from './git-http-server.testing.ts';

const limits: GitLimits = { maxRepoBytes: 5_000_000, maxFiles: 100, maxFileBytes: 100_000, timeoutMs: 10_000 };
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
    await expect(readRemote(spec('huge'), limits)).rejects.toThrow(/big.md is larger than 100000 bytes/);
    await expect(readRemote(spec('huge'), { ...limits, maxRepoBytes: 2_000 })).rejects.toThrow(
      /larger than 2000 bytes/,
    );
    await pushWithCli('many', async (dir) => {
      for (let i = 0; i < 5; i++) await writeFile(join(dir, `${i}.md`), `${i}`);
    });
    await expect(readRemote(spec('many'), { ...limits, maxFiles: 3 })).rejects.toThrow(/more than 3 files/);
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
