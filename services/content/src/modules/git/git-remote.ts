import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { DomainError } from '@quire/kit';
import { gitLimit, guardedGitHttp, packGuardFor, type GitHttpOptions, type PrivateHosts } from './git-http.ts';
import type { PackWatcher } from './git-pack-guard.ts';
import { PackReader, type PackIndex } from './git-pack-store.ts';
import { PackThread } from './git-pack-thread.ts';

export interface GitLimits {
  /** Most bytes read from the remote (compressed, as sent), all responses of an operation added up. */
  maxFetchBytes: number;
  /** Most bytes the fetched commit's Git objects inflate to, added up (from the pack's object headers). */
  maxInflatedBytes: number;
  /** Most Git objects in the fetched commit. */
  maxObjects: number;
  /** Largest file of the project directory; also the largest Git object of the fetched commit, inflated. */
  maxFileBytes: number;
  /** Most files (blobs) in the project directory. */
  maxFiles: number;
  /** The project directory's files, added up. */
  maxProjectBytes: number;
  /** Most entries of one folder (a tree object). */
  maxTreeEntries: number;
  /** Longest path in the project directory, in bytes. */
  maxPathBytes: number;
  /** Most folders deep in the project directory. */
  maxDepth: number;
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
  /** Git hosts allowed on private addresses (`QUIRE_GIT_PRIVATE_HOSTS`). */
  privateHosts?: PrivateHosts | undefined;
  /** When the operation must have ended (epoch ms): past it, the work stops with a timeout. */
  deadline?: number | undefined;
}

/** A file of the project directory: its blob id and inflated size (known before it is read). */
export interface RepoEntry {
  oid: string;
  size: number;
}

/** A commit's project directory, open while the callback of `withRemoteTree` runs. */
export interface RemoteTree {
  oid: string;
  message: string;
  /** Each file of the project directory by its repository path (the project directory included). */
  files: Map<string, RepoEntry>;
  /** A file's bytes, read from the fetched pack. */
  read(path: string): Promise<Uint8Array>;
}

export interface RepoSnapshot {
  /** The commit read (null: the ref does not exist yet). */
  oid: string | null;
  message: string | null;
  /** Each file's path → its bytes and blob id. */
  files: Map<string, { bytes: Uint8Array; oid: string }>;
}

/**
 * The operation's time is up: it stops (the operation ends as `timeout`). Not a `GitLimitError`: a busy machine or a
 * slow server may take less time next time, so a connection tries the commit again at its next poll.
 */
export class GitTimeout extends DomainError {
  constructor(url: string, ms: number) {
    super(
      'invalid_input',
      `Git remote ${url}: the operation took longer than ${Math.round(ms / 1000)} s and was stopped`,
    );
  }
}

export function checkDeadline(spec: RemoteSpec, limits: GitLimits): void {
  if (spec.deadline !== undefined && Date.now() > spec.deadline) throw new GitTimeout(spec.url, limits.timeoutMs);
}

const httpOf = (spec: RemoteSpec, limits: GitLimits, pack?: PackWatcher) => {
  const opts: GitHttpOptions = {
    allowPrivate: spec.allowPrivate,
    allowPublic: spec.allowPublic,
    privateHosts: spec.privateHosts,
    maxBytes: limits.maxFetchBytes,
    timeoutMs: Math.max(1, Math.min(limits.timeoutMs, (spec.deadline ?? Number.POSITIVE_INFINITY) - Date.now())),
    credentials: spec.credentials,
    pack,
    ref: spec.ref,
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

/** A fetched commit's objects (isomorphic-git's cache), for a push: the pack read by isomorphic-git, in memory. */
interface Fetched {
  head: string | null;
  cache: object;
}

const packLimitsOf = (limits: GitLimits) => ({
  maxObjectBytes: limits.maxFileBytes,
  maxInflatedBytes: limits.maxInflatedBytes,
  maxObjects: limits.maxObjects,
});

/** A new repository in `dir` with the remote as `origin`: the remote's head commit (null: no such branch). */
async function initWithRemote(dir: string, spec: RemoteSpec, limits: GitLimits): Promise<string | null> {
  await git.init({ fs, dir, defaultBranch: branchOf(spec.ref) });
  await git.addRemote({ fs, dir, remote: 'origin', url: spec.url });
  return remoteHead(spec, limits);
}

/** What isomorphic-git's fetch of one commit of `spec.ref` from `origin` into `dir` is given (no tags, depth 1). */
const shallowFetchOf = (dir: string, spec: RemoteSpec) => ({
  fs,
  dir,
  remote: 'origin',
  ref: branchOf(spec.ref),
  remoteRef: spec.ref,
  singleBranch: true,
  depth: 1,
  tags: false,
});

/**
 * Fetches `ref` shallowly into `dir` (nothing checked out), its pack checked by a pack guard as it streams in
 * (object count, each object's and all objects' inflated size) before isomorphic-git indexes it.
 */
async function fetchInto(dir: string, spec: RemoteSpec, limits: GitLimits): Promise<Fetched> {
  checkDeadline(spec, limits);
  const cache = {};
  const head = await initWithRemote(dir, spec, limits);
  if (!head) return { head: null, cache };
  const guard = packGuardFor(spec.url, packLimitsOf(limits));
  await git.fetch({
    cache,
    http: httpOf(spec, limits, guard),
    ...shallowFetchOf(dir, spec),
  });
  checkDeadline(spec, limits);
  return { head, cache };
}

/** A commit fetched for an import: its objects in a pack on disk, read one at a time. */
interface FetchedPack {
  head: string;
  reader: PackReader;
  index: PackIndex;
  /** A commit or tree, parsed by isomorphic-git (written as a loose object first). */
  readCommit(oid: string): Promise<{ tree: string; message: string }>;
  readTree(oid: string): Promise<TreeEntry[]>;
}

/**
 * Fetches `ref` shallowly into `dir` for an import: isomorphic-git negotiates and records the refs, while the pack
 * goes to a pack thread (git-pack-thread.ts) that checks it as it streams in (the pack guard's limits), writes it to
 * disk and indexes it; this thread's event loop only passes the response's chunks on. Objects are then read from the
 * file one at a time (inflated in zlib's thread pool): the pack is never held whole in memory.
 */
async function fetchPacked(dir: string, spec: RemoteSpec, limits: GitLimits): Promise<FetchedPack | null> {
  checkDeadline(spec, limits);
  const head = await initWithRemote(dir, spec, limits);
  if (!head) return null;
  const path = join(dir, 'fetched.pack');
  const thread = new PackThread(path, packLimitsOf(limits), (why) => gitLimit(spec.url, why));
  let index: PackIndex;
  try {
    await git.fetch({
      http: httpOf(spec, limits, thread),
      ...shallowFetchOf(dir, spec),
    });
    index = thread.index();
  } finally {
    await thread.close();
  }
  checkDeadline(spec, limits);
  const reader = await PackReader.open(path, index);
  const cache = {};
  const loose = async (oid: string, type: 'commit' | 'tree') => {
    const got = await reader.read(oid).catch(() => null);
    if (!got || got.type !== type) throw gitLimit(spec.url, `the pack lacks the ${type} ${oid}`);
    await git.writeObject({ fs, dir, type, object: got.bytes, format: 'content', oid });
  };
  return {
    head,
    reader,
    index,
    readCommit: async (oid) => {
      await loose(oid, 'commit');
      const { commit } = await git.readCommit({ fs, dir, oid, cache });
      return { tree: commit.tree, message: commit.message };
    },
    readTree: async (oid) => {
      await loose(oid, 'tree');
      return (await git.readTree({ fs, dir, oid, cache })).tree;
    },
  };
}

function checkEntry(entry: TreeEntry, path: string, url: string): void {
  if (!entry.path || entry.path === '.' || entry.path === '..' || /[/\\\0]/.test(entry.path))
    throw gitLimit(url, `the tree holds an unsafe path (${JSON.stringify(path)})`);
  if (entry.mode === '120000') throw gitLimit(url, `${path} is a symbolic link, which is refused`);
  if (entry.type === 'commit') throw gitLimit(url, `${path} is a submodule, which is not supported`);
}

/** The tree of the project directory `projectDir` in a commit (null when the commit has no such folder). */
async function projectTree(fetched: FetchedPack, commit: string, projectDir: string): Promise<string | null> {
  let { tree } = await fetched.readCommit(commit);
  for (const part of projectDir.split('/').filter(Boolean)) {
    const entries = await fetched.readTree(tree);
    const next = entries.find((e) => e.path === part && e.type === 'tree');
    if (!next) return null;
    tree = next.oid;
  }
  return tree;
}

/**
 * The files of the project directory, checked against the limits before any is read: paths (safe, not too long
 * nor too deep), symlinks, submodules, entries per folder, file count, each file's size and all files' sizes
 * (the sizes the pack declared).
 */
async function listFiles(
  fetched: FetchedPack,
  commit: string,
  spec: RemoteSpec,
  limits: GitLimits,
  projectDir: string,
): Promise<Map<string, RepoEntry>> {
  const files = new Map<string, RepoEntry>();
  const root = await projectTree(fetched, commit, projectDir);
  if (!root) return files;
  let total = 0;
  const walk = async (treeOid: string, prefix: string, depth: number) => {
    if (depth > limits.maxDepth) throw gitLimit(spec.url, `${prefix} is more than ${limits.maxDepth} folders deep`);
    const tree = await fetched.readTree(treeOid);
    if (tree.length > limits.maxTreeEntries)
      throw gitLimit(spec.url, `the folder ${prefix || '/'} has more than ${limits.maxTreeEntries} entries`);
    for (const entry of tree) {
      const path = `${prefix}${entry.path}`;
      checkEntry(entry, path, spec.url);
      if (Buffer.byteLength(path) > limits.maxPathBytes)
        throw gitLimit(spec.url, `a path is longer than ${limits.maxPathBytes} bytes (${path.slice(0, 80)}…)`);
      if (entry.type === 'tree') {
        await walk(entry.oid, `${path}/`, depth + 1);
        continue;
      }
      if (files.size >= limits.maxFiles)
        throw gitLimit(spec.url, `the project directory has more than ${limits.maxFiles} files`);
      const size = fetched.index.get(entry.oid)?.size;
      if (size === undefined) throw gitLimit(spec.url, `the pack lacks ${path}`);
      if (size > limits.maxFileBytes) throw gitLimit(spec.url, `${path} is larger than ${limits.maxFileBytes} bytes`);
      total += size;
      if (total > limits.maxProjectBytes)
        throw gitLimit(spec.url, `the project directory's files add up to more than ${limits.maxProjectBytes} bytes`);
      files.set(path, { oid: entry.oid, size });
    }
  };
  const prefix = projectDir.replace(/^\/+|\/+$/g, '');
  await walk(root, prefix ? `${prefix}/` : '', 0);
  return files;
}

/**
 * Fetches `ref`'s head commit (shallow; nothing written outside a scratch directory) and runs `work` with its
 * project directory listed and checked; files are read on demand, from the pack, while `work` runs.
 */
export async function withRemoteTree<T>(
  spec: RemoteSpec,
  limits: GitLimits,
  projectDir: string,
  work: (tree: RemoteTree) => Promise<T>,
): Promise<T> {
  return inScratch(async (dir) => {
    const fetched = await fetchPacked(dir, spec, limits);
    if (!fetched) throw new DomainError('not_found', `Git remote ${spec.url}: no branch ${spec.ref}`);
    try {
      const oid = fetched.head;
      const { message } = await fetched.readCommit(oid);
      const files = await listFiles(fetched, oid, spec, limits, projectDir);
      checkDeadline(spec, limits);
      const read = async (path: string) => {
        const entry = files.get(path);
        if (!entry) throw new Error(`${path} is not a file of the project directory`);
        checkDeadline(spec, limits);
        const got = await fetched.reader.read(entry.oid).catch((err: Error) => {
          throw gitLimit(spec.url, `${path} cannot be read from the pack (${err.message})`);
        });
        if (got.type !== 'blob') throw gitLimit(spec.url, `${path} is not a file in the pack`);
        return got.bytes;
      };
      return await work({ oid, message, files, read });
    } finally {
      await fetched.reader.close();
    }
  });
}

/** Every file of `ref`'s head commit on the remote, read (a shallow fetch). */
export async function readRemote(spec: RemoteSpec, limits: GitLimits, projectDir = ''): Promise<RepoSnapshot> {
  return withRemoteTree(spec, limits, projectDir, async (tree) => {
    const files: RepoSnapshot['files'] = new Map();
    for (const [path, { oid }] of tree.files) files.set(path, { bytes: await tree.read(path), oid });
    return { oid: tree.oid, message: tree.message, files };
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
    const { head, cache } = await fetchInto(dir, remote, limits);
    if (head && push.expectedHead && head !== push.expectedHead && !push.force) {
      throw new DomainError(
        'conflict',
        `Git remote ${remote.url}: ${remote.ref} has commits not imported into the space (at ${head.slice(0, 12)}); import them first, or export with force`,
      );
    }
    const tree = await writeTreeOf(dir, push.files);
    if (head && (await git.readCommit({ fs, dir, oid: head, cache })).commit.tree === tree)
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
      cache,
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
