import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { DomainError } from '@quire/kit';
import { gitRefused, guardedGitHttp, type GitHttpOptions } from './git-http.ts';

export interface GitLimits {
  /** Most bytes read from the remote. */
  maxRepoBytes: number;
  /** Most files (blobs) in the tree read. */
  maxFiles: number;
  /** Largest file. */
  maxFileBytes: number;
  timeoutMs: number;
}

export interface RemoteSpec {
  /** The remote's URL without credentials (what errors show). */
  url: string;
  credentials?: string | undefined;
  /** `refs/heads/main`. */
  ref: string;
  allowPrivate: boolean;
  allowPublic: boolean;
}

export interface RepoSnapshot {
  /** The commit read (null: the ref does not exist yet). */
  oid: string | null;
  message: string | null;
  /** Each file's path → its bytes and blob id. */
  files: Map<string, { bytes: Uint8Array; oid: string }>;
}

const httpOf = (spec: RemoteSpec, limits: GitLimits) => {
  const opts: GitHttpOptions = {
    allowPrivate: spec.allowPrivate,
    allowPublic: spec.allowPublic,
    maxBytes: limits.maxRepoBytes,
    timeoutMs: limits.timeoutMs,
    credentials: spec.credentials,
  };
  return guardedGitHttp(spec.url, opts);
};

const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');

/** Runs `work` in a scratch Git directory removed afterwards. */
async function inScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'quire-git-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The remote's head commit of `ref` (null when the branch does not exist). */
export async function remoteHead(spec: RemoteSpec, limits: GitLimits): Promise<string | null> {
  const refs = await git.listServerRefs({ http: httpOf(spec, limits), url: spec.url, prefix: spec.ref });
  return refs.find((r) => r.ref === spec.ref)?.oid ?? null;
}

/** Fetches `ref` shallowly into `dir` (nothing checked out); its commit, or null when the branch does not exist. */
async function fetchInto(dir: string, spec: RemoteSpec, limits: GitLimits): Promise<string | null> {
  await git.init({ fs, dir, defaultBranch: branchOf(spec.ref) });
  await git.addRemote({ fs, dir, remote: 'origin', url: spec.url });
  const head = await remoteHead(spec, limits);
  if (!head) return null;
  await git.fetch({
    fs,
    http: httpOf(spec, limits),
    dir,
    remote: 'origin',
    ref: branchOf(spec.ref),
    singleBranch: true,
    depth: 1,
    tags: false,
  });
  return head;
}

function checkEntry(entry: TreeEntry, path: string, url: string): void {
  if (!entry.path || entry.path === '.' || entry.path === '..' || /[/\\\0]/.test(entry.path))
    throw gitRefused(url, `the tree holds an unsafe path (${JSON.stringify(path)})`);
  if (entry.mode === '120000') throw gitRefused(url, `${path} is a symbolic link, which is refused`);
  if (entry.type === 'commit') throw gitRefused(url, `${path} is a submodule, which is not supported`);
}

/** Every file of a commit's tree, checked against the limits (paths, symlinks, count, size). */
async function readFiles(
  dir: string,
  commit: string,
  spec: RemoteSpec,
  limits: GitLimits,
): Promise<RepoSnapshot['files']> {
  const files: RepoSnapshot['files'] = new Map();
  const walk = async (treeOid: string, prefix: string) => {
    const { tree } = await git.readTree({ fs, dir, oid: treeOid });
    for (const entry of tree) {
      const path = `${prefix}${entry.path}`;
      checkEntry(entry, path, spec.url);
      if (entry.type === 'tree') {
        await walk(entry.oid, `${path}/`);
        continue;
      }
      if (files.size >= limits.maxFiles)
        throw gitRefused(spec.url, `the repository has more than ${limits.maxFiles} files`);
      const { blob } = await git.readBlob({ fs, dir, oid: entry.oid });
      if (blob.byteLength > limits.maxFileBytes)
        throw gitRefused(spec.url, `${path} is larger than ${limits.maxFileBytes} bytes`);
      files.set(path, { bytes: blob, oid: entry.oid });
    }
  };
  const { commit: c } = await git.readCommit({ fs, dir, oid: commit });
  await walk(c.tree, '');
  return files;
}

/** The files of `ref`'s head commit on the remote (a shallow fetch; nothing written outside a scratch directory). */
export async function readRemote(spec: RemoteSpec, limits: GitLimits): Promise<RepoSnapshot> {
  return inScratch(async (dir) => {
    const oid = await fetchInto(dir, spec, limits);
    if (!oid) throw new DomainError('not_found', `Git remote ${spec.url}: no branch ${spec.ref}`);
    const { commit } = await git.readCommit({ fs, dir, oid });
    return { oid, message: commit.message, files: await readFiles(dir, oid, spec, limits) };
  });
}

export interface PushSpec {
  files: ReadonlyMap<string, Uint8Array>;
  message: string;
  author: { name: string; email: string };
  /** The commit the last sync saw on the remote: a head elsewhere means the remote diverged. */
  expectedHead: string | null;
  force: boolean;
  now?: Date;
}

async function writeTreeOf(dir: string, files: ReadonlyMap<string, Uint8Array>): Promise<string> {
  const root: Map<string, unknown> = new Map();
  for (const [path, bytes] of files) {
    const parts = path.split('/');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.has(part)) node.set(part, new Map());
      node = node.get(part) as Map<string, unknown>;
    }
    node.set(parts.at(-1)!, bytes);
  }
  const write = async (node: Map<string, unknown>): Promise<string> => {
    const tree: TreeEntry[] = [];
    for (const [name, value] of node) {
      if (value instanceof Map)
        tree.push({ mode: '040000', path: name, type: 'tree', oid: await write(value as Map<string, unknown>) });
      else
        tree.push({
          mode: '100644',
          path: name,
          type: 'blob',
          oid: await git.writeBlob({ fs, dir, blob: value as Uint8Array }),
        });
    }
    return git.writeTree({ fs, dir, tree });
  };
  return write(root);
}

/**
 * Writes `files` as one commit on `ref` (parent: the remote's head) and pushes it; nothing when the tree is the
 * head's already. A head other than `expectedHead` (commits not imported yet) is refused unless `force`.
 * Returns the commit now at the ref and whether one was made.
 */
export async function pushFiles(
  remote: RemoteSpec,
  push: PushSpec,
  limits: GitLimits,
): Promise<{ oid: string; created: boolean }> {
  return inScratch(async (dir) => {
    const head = await fetchInto(dir, remote, limits);
    if (head && push.expectedHead && head !== push.expectedHead && !push.force) {
      throw new DomainError(
        'conflict',
        `Git remote ${remote.url}: ${remote.ref} has commits not imported into the space (at ${head.slice(0, 12)}); import them first, or export with force`,
      );
    }
    const tree = await writeTreeOf(dir, push.files);
    if (head && (await git.readCommit({ fs, dir, oid: head })).commit.tree === tree)
      return { oid: head, created: false };
    const when = { timestamp: Math.floor((push.now ?? new Date()).getTime() / 1000), timezoneOffset: 0 };
    const person = { ...push.author, ...when };
    const oid = await git.writeCommit({
      fs,
      dir,
      commit: {
        tree,
        parent: head ? [head] : [],
        author: person,
        committer: person,
        message: push.message.endsWith('\n') ? push.message : `${push.message}\n`,
      },
    });
    await git.writeRef({ fs, dir, ref: remote.ref, value: oid, force: true });
    const res = await git.push({
      fs,
      http: httpOf(remote, limits),
      dir,
      url: remote.url,
      ref: remote.ref,
      remoteRef: remote.ref,
      force: push.force,
    });
    if (!res.ok)
      throw new DomainError('conflict', `Git remote ${remote.url}: the push was refused (${res.error ?? 'rejected'})`);
    return { oid, created: true };
  });
}
