import { createHash } from 'node:crypto';
import { DomainError, newId, runLeasedClaims, type BlobStore, type EntityManager, type SecretBox } from '@quire/kit';
import { gitConflictImporter, gitImporter } from '../../commands/git-importer.ts';
import {
  gitConflictRecorder,
  gitPollQueuer,
  gitRevisionRecorder,
  gitSyncQueuer,
} from '../../commands/git-connection-writer.ts';
import {
  gitOperationFinisher,
  gitOperationLeaseRenewer,
  gitPageBlobsRecorder,
  gitRedirectsRecorder,
} from '../../commands/git-sync-writer.ts';
import { ChangeRequest } from '../change-requests/change-request.entity.ts';
import { gitConnectionRepository, type GitConnectionRow } from './git-connection.repository.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { childrenByParent, type RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import type { ParseSession } from '../parsing/text-parser.ts';
import { pushFiles, readRemote, remoteHead, type GitLimits, type RemoteSpec, type RepoSnapshot } from './git-remote.ts';
import { redact } from './git-http.ts';
import { gitSyncRepository, type GitOperationRow, type GitPageBlob, type GitSyncRow } from './git-sync.repository.ts';
import {
  filePathsOf,
  pagePathsOf,
  repoAttributes,
  repoFilesOf,
  type RepoContent,
  type RepoPage,
} from './repo-export.ts';
import { readRepo, type ImportedRepo } from './repo-import.ts';
import { planTree } from './tree-plan.ts';

export interface GitSyncDeps {
  em: EntityManager;
  blobs: BlobStore;
  /** Opens the operations' credentials (null: the instance stores no secrets, so operations carry none). */
  box: SecretBox | null;
  limits: GitLimits;
  allowPrivate: boolean;
  allowPublic: boolean;
  parse: () => ParseSession;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  leaseMs?: number;
}

/** The job whose runs work the operations waiting. */
export const GIT_SYNC_JOB = 'content-git-sync';

/** How long a claim lasts: an operation whose process stopped is claimed again after this. */
export const GIT_LEASE_MS = 120_000;

/** Git's id of a blob (what a repository path held). */
export const blobOid = (bytes: Uint8Array) =>
  createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');

const aadOf = (spaceId: string) => `git:${spaceId}`;
const projectDir = (op: GitOperationRow) => (op.params.repoProjectDirectory ?? '').replace(/^\/+|\/+$/g, '');

function remoteOf(deps: GitSyncDeps, op: GitOperationRow): RemoteSpec {
  const credentials = op.credentials && deps.box ? deps.box.open(op.credentials, aadOf(op.space_id)) : undefined;
  return { url: op.url, credentials, ref: op.ref, allowPrivate: deps.allowPrivate, allowPublic: deps.allowPublic };
}

/** The ids a read repository's paths get: the same path keeps its id, a file renamed as is (same blob) too. */
function idsFor(files: ReadonlyMap<string, { oid: string }>, sync: GitSyncRow | null) {
  const known = sync?.paths ?? {};
  const claimed = new Set<string>();
  for (const p of files.keys()) for (const id of [known[p]?.page, known[p]?.file]) if (id) claimed.add(id);
  const renamed = new Map<string, { page?: string; file?: string }>();
  for (const [path, { oid }] of files) {
    if (known[path]) continue;
    const from = Object.entries(known).find(
      ([old, k]) => !files.has(old) && k.oid === oid && !claimed.has((k.page ?? k.file)!),
    );
    if (from) renamed.set(path, from[1]), claimed.add((from[1].page ?? from[1].file)!);
  }
  return {
    page: (p: string) => known[p]?.page ?? renamed.get(p)?.page ?? newId(),
    file: (p: string) => known[p]?.file ?? renamed.get(p)?.file ?? newId(),
  };
}

/** The key of a group or link page in the sync's paths (as `readRepo` asks for its id). */
const pseudoPath = (p: RepoPage) => `#${p.kind}:${p.title}:${p.href ?? ''}`;

function pathsRecord(read: ImportedRepo, oidOf: (path: string) => string, prefix: string): GitSyncRow['paths'] {
  const out: GitSyncRow['paths'] = {};
  const pageIds = new Set<string>();
  const walk = (list: readonly RepoPage[]) =>
    list.forEach((p) => {
      pageIds.add(p.id);
      // Groups and links have no file: their key is what SUMMARY.md says of them.
      if (p.kind !== 'document') out[pseudoPath(p)] = { page: p.id, oid: '' };
      walk(p.children);
    });
  walk(read.pages);
  for (const [id, path] of read.paths)
    out[`${prefix}${path}`] = { ...(pageIds.has(id) ? { page: id } : { file: id }), oid: oidOf(`${prefix}${path}`) };
  return out;
}

/** GitBook's `git: {oid, path}` of each document page of a read or written repository (`paths`: by id, unprefixed). */
function pageBlobsOf(
  pages: readonly RepoPage[],
  paths: ReadonlyMap<string, string>,
  oidOf: (path: string) => string | undefined,
  prefix: string,
): Map<string, GitPageBlob> {
  const out = new Map<string, GitPageBlob>();
  const walk = (list: readonly RepoPage[]) =>
    list.forEach((p) => {
      const path = p.kind === 'document' ? paths.get(p.id) : undefined;
      const oid = path === undefined ? undefined : oidOf(`${prefix}${path}`);
      if (path !== undefined && oid) out.set(p.id, { oid, path: `${prefix}${path}` });
      walk(p.children);
    });
  walk(pages);
  return out;
}

const syncRow = (
  op: GitOperationRow,
  sync: GitSyncRow | null,
  commit: string,
  paths: GitSyncRow['paths'],
  revision: string | null,
  redirects: GitSyncRow['redirects'] = sync?.redirects ?? {},
): Omit<GitSyncRow, 'created_at' | 'updated_at'> => ({
  space_id: op.space_id,
  id: sync?.id ?? newId(),
  url: op.url,
  ref: op.ref,
  tree_url: op.params.repoTreeURL ?? null,
  project_directory: projectDir(op),
  credentials: op.credentials,
  last_commit: commit,
  last_revision: revision,
  paths,
  redirects,
});

/** Ends an operation that had nothing to do (the commit it saw, if any). */
async function finishUnchanged(deps: GitSyncDeps, op: GitOperationRow, commit: string | null) {
  await deps.em
    .fork()
    .transactional((tx) => gitOperationFinisher(tx, { operationId: op.id, outcome: { state: 'success', commit } }));
  return { commit, revision: null };
}

/** GitBook's commit URL: `repoCommitURL` (a prefix) and the commit id; else the repository's URL. */
const commitUrlOf = (op: GitOperationRow, oid: string) =>
  op.params.repoCommitURL
    ? `${op.params.repoCommitURL}${op.params.repoCommitURL.endsWith('/') ? '' : '/'}${oid}`
    : op.url;

interface ImportMode {
  /** A connection's sync: when the space moved too since the last sync, the remote's side comes as a change request. */
  connection?: GitConnectionRow;
}

/** What an import read of the remote, before it writes: the commit's pages (documents normalised) and files stored. */
interface ImportRead {
  sync: GitSyncRow | null;
  snapshot: RepoSnapshot;
  commit: string;
  prefix: string;
  read: ImportedRepo;
  normalized: Map<string, string>;
  stored: Map<string, { key: string; size: number }>;
}

async function runImport(
  deps: GitSyncDeps,
  op: GitOperationRow,
  mode: ImportMode = {},
): Promise<{ commit: string | null; revision: string | null }> {
  const sync = await gitSyncRepository.findSync(deps.em.fork(), op.space_id);
  const snapshot = await readRemote(remoteOf(deps, op), deps.limits);
  const commit = snapshot.oid!;
  // The commit was synced already: nothing changes.
  if (op.params.standalone !== true && !op.params.force && sync?.last_commit === commit && sync.url === op.url)
    return finishUnchanged(deps, op, commit);
  const got = await readImport(deps, op, sync, snapshot);
  const revision = await deps.em.fork().transactional((tx) => writeImport(tx, op, got, mode));
  return { commit, revision };
}

/** The commit's repository read (outside any transaction): its documents normalised, its files stored as blobs. */
async function readImport(
  deps: GitSyncDeps,
  op: GitOperationRow,
  sync: GitSyncRow | null,
  snapshot: RepoSnapshot,
): Promise<ImportRead> {
  const dir = projectDir(op);
  const prefix = dir ? `${dir}/` : '';
  const files = new Map<string, { bytes: Uint8Array; oid: string }>();
  for (const [path, f] of snapshot.files) if (path.startsWith(prefix)) files.set(path.slice(prefix.length), f);
  const read = readRepo(new Map([...files].map(([p, f]) => [p, f.bytes])), idsFor(files, sync));
  const parse = deps.parse();
  const normalized = new Map<string, string>();
  const walk = async (list: readonly RepoPage[]): Promise<void> => {
    for (const p of list) {
      if (p.markdown)
        normalized.set(
          p.id,
          await parse.run({ kind: 'normalize', markdown: p.markdown }, read.paths.get(p.id) ?? p.title),
        );
      await walk(p.children);
    }
  };
  await walk(read.pages);
  const stored = new Map<string, { key: string; size: number }>();
  for (const f of read.files) stored.set(f.id, await deps.blobs.put(f.bytes, 'application/octet-stream'));
  return { sync, snapshot, commit: snapshot.oid!, prefix, read, normalized, stored };
}

/** What an import writes with, in its transaction. */
interface ImportWrite extends ImportRead {
  op: GitOperationRow;
  space: ISpace;
  now: Date;
  paths: GitSyncRow['paths'];
  blobs: Map<string, GitPageBlob>;
  git: { spaceId: string; oid: string; message: string; ref: string };
  gitUrl: string;
}

/**
 * The import's writes, in one transaction: into main (or a standalone revision), or — a connection's sync when
 * both sides changed since the last sync — as a change request from the revision last synced. Returns the revision
 * written, or null.
 */
async function writeImport(
  tx: EntityManager,
  op: GitOperationRow,
  got: ImportRead,
  mode: ImportMode,
): Promise<string | null> {
  const space = await spaceRepository.findById(tx, op.space_id);
  if (!space || space.deletedAt) throw new DomainError('not_found', 'The space was deleted');
  const { snapshot, commit, prefix, read, sync } = got;
  const w: ImportWrite = {
    ...got,
    op,
    space,
    now: new Date(),
    paths: pathsRecord(read, (p) => snapshot.files.get(p)!.oid, prefix),
    blobs: pageBlobsOf(read.pages, read.paths, (p) => snapshot.files.get(p)?.oid, prefix),
    git: { spaceId: space.id, oid: commit, message: (snapshot.message ?? '').slice(0, 10_000), ref: op.ref },
    gitUrl: commitUrlOf(op, commit),
  };
  // `.gitbook.yaml`'s redirects go to the sites publishing the space (not for a revision only).
  if (op.params.standalone !== true)
    gitRedirectsRecorder(tx, { space, commit, redirects: read.pageRedirects, previous: sync?.redirects ?? {} });
  const base =
    mode.connection && sync?.last_revision && sync.last_revision !== space.revisionId ? sync.last_revision : null;
  return base && mode.connection ? importBesideChanges(tx, w, base, mode.connection) : importIntoSpace(tx, w);
}

/** Both sides changed since the last sync: the remote's side as a change request from the revision last synced. */
async function importBesideChanges(
  tx: EntityManager,
  w: ImportWrite,
  base: string,
  connection: GitConnectionRow,
): Promise<string | null> {
  const { space, op, now } = w;
  const baseTree = await revisionRepository.treeInSpace(tx, space.id, base);
  const plan = planTree(baseTree, w.read.pages, w.read.files, w.normalized, w.stored, now);
  let remoteRevision = base;
  let written: string | null = null;
  if (plan.changed) {
    const subject = `Changes from Git at ${w.commit.slice(0, 12)}`;
    const got = await gitConflictImporter(tx, { space, base: baseTree, plan, userId: op.requested_by, subject, now });
    remoteRevision = got.remoteRevision;
    written = got.merged ?? got.remoteRevision;
    await gitRevisionRecorder(tx, { ...w.git, revisionId: got.remoteRevision, url: w.gitUrl, now });
    if (!got.merged) await gitConflictRecorder(tx, { connectionId: connection.id, changeRequestId: got.changeRequest });
  } else {
    // The remote changed nothing the space holds: the space's own changes go to the remote next.
    await gitSyncQueuer(tx, { connection, trigger: 'merge', now });
  }
  // The revision holding the remote's content as it is: its pages are the repository's files.
  await gitPageBlobsRecorder(tx, { spaceId: space.id, revisionId: remoteRevision, blobs: w.blobs });
  await gitOperationFinisher(tx, {
    operationId: op.id,
    outcome: { state: 'success', commit: w.commit, revision: written },
    sync: syncRow(op, w.sync, w.commit, w.paths, remoteRevision, w.read.pageRedirects),
    now,
  });
  return written;
}

/** The commit's content into the space's main (or, `standalone`, as a revision of its own). */
async function importIntoSpace(tx: EntityManager, w: ImportWrite): Promise<string | null> {
  const { space, op, now } = w;
  const standalone = op.params.standalone === true;
  const head = await revisionRepository.treeInSpace(tx, space.id, space.revisionId);
  const plan = planTree(head, w.read.pages, w.read.files, w.normalized, w.stored, now);
  const subject = `Import of ${op.url} at ${w.commit.slice(0, 12)}`;
  const written = await gitImporter(tx, { space, head, plan, userId: op.requested_by, standalone, subject, now });
  if (written) await gitRevisionRecorder(tx, { ...w.git, revisionId: written, url: w.gitUrl, now });
  // The pages of the revision holding the commit's content (the live one when nothing changed) are its files.
  const holding = written ?? (standalone ? null : space.revisionId);
  if (holding) await gitPageBlobsRecorder(tx, { spaceId: space.id, revisionId: holding, blobs: w.blobs });
  const redirects = w.read.pageRedirects;
  await gitOperationFinisher(tx, {
    operationId: op.id,
    outcome: { state: 'success', commit: w.commit, revision: written },
    sync: standalone ? undefined : syncRow(op, w.sync, w.commit, w.paths, written ?? space.revisionId, redirects),
    now,
  });
  return written;
}

/** A revision's content in the repository format's terms (documents and file bytes read). */
async function contentOf(em: EntityManager, blobs: BlobStore, tree: RevisionTree): Promise<RepoContent> {
  const hashes = [...tree.pages.values()].map((p) => p.documentHash).filter((h): h is string => !!h);
  const docs = await documentRepository.getMany(em, hashes);
  const children = childrenByParent(tree.pages);
  const toPage = (id: string): RepoPage => {
    const p = tree.pages.get(id)!;
    return {
      id,
      kind: p.kind === 'group' || p.kind === 'link' ? p.kind : 'document',
      ...repoAttributes(p),
      href: p.href,
      markdown: p.documentHash ? (docs.get(p.documentHash) ?? '') : '',
      children: (children.get(id) ?? []).map((c) => toPage(c.id)),
    };
  };
  const files = [];
  for (const f of tree.files.values()) {
    const blob = await blobs.get(f.blobKey);
    if (blob) files.push({ id: f.id, name: f.name, bytes: new Uint8Array(blob.bytes) });
  }
  return { pages: (children.get(null) ?? []).map((p) => toPage(p.id)), files };
}

async function runExport(deps: GitSyncDeps, op: GitOperationRow): Promise<{ commit: string | null }> {
  const em = deps.em.fork();
  const space = await spaceRepository.findById(em, op.space_id);
  if (!space || space.deletedAt) throw new DomainError('not_found', 'The space was deleted');
  const tree = await revisionRepository.treeInSpace(em, space.id, space.revisionId);
  const sync = await gitSyncRepository.findSync(em, op.space_id);
  // The space's redirects (as the last import read them) are written back to `.gitbook.yaml`.
  const content = { ...(await contentOf(em, deps.blobs, tree)), pageRedirects: sync?.redirects ?? {} };
  const files = repoFilesOf(content);
  const dir = projectDir(op);
  const prefix = dir ? `${dir}/` : '';
  const author = { name: op.requested_by, email: `${op.requested_by}@users.quire.invalid` };
  const message =
    op.params.commitMessage ??
    (op.params.trigger ? `Quire: content at revision ${space.revisionId}` : 'Export from Quire');
  const expectedHead = sync && sync.url === op.url && sync.ref === op.ref ? sync.last_commit : null;
  const prefixed = new Map([...files].map(([p, b]) => [`${prefix}${p}`, b]));
  const pushed = await pushFiles(
    remoteOf(deps, op),
    {
      files: prefixed,
      message,
      author,
      expectedHead,
      force: op.params.force === true,
    },
    deps.limits,
  );
  const pagePaths = pagePathsOf(content.pages);
  const read: ImportedRepo = { ...content, redirects: {}, pageRedirects: {}, paths: new Map() };
  for (const [id, path] of [...pagePaths, ...filePathsOf(content.files)]) read.paths.set(id, path);
  const oidOf = (p: string) => {
    const bytes = prefixed.get(p);
    return bytes ? blobOid(bytes) : undefined;
  };
  const paths = pathsRecord(read, (p) => oidOf(p)!, prefix);
  const blobs = pageBlobsOf(content.pages, pagePaths, oidOf, prefix);
  await deps.em.fork().transactional(async (tx) => {
    // The revision exported is the branch's content now: its pages are the files just written.
    if (!op.params.standalone)
      await gitPageBlobsRecorder(tx, { spaceId: space.id, revisionId: space.revisionId, blobs });
    await gitOperationFinisher(tx, {
      operationId: op.id,
      outcome: { state: 'success', commit: pushed.oid },
      sync: op.params.standalone ? undefined : syncRow(op, sync, pushed.oid, paths, space.revisionId),
    });
  });
  return { commit: pushed.oid };
}

/**
 * A connection's sync (`…/git/connection`): reconciles both sides. The first sync imports or exports
 * (`initialSync`); then new commits on the remote import (as a change request when the space changed too), and
 * a space that moved alone exports. While the change request of a conflict is open, the sync waits for it.
 */
async function runConnected(deps: GitSyncDeps, op: GitOperationRow): Promise<{ commit: string | null }> {
  const em = deps.em.fork();
  const connection = await gitConnectionRepository.findBySpace(em, op.space_id);
  // Disconnected (or connected elsewhere) since it was queued: nothing to do.
  if (!connection || connection.url !== op.url || connection.ref !== op.ref) return finishUnchanged(deps, op, null);
  if (connection.conflict_change_request) {
    const cr = await em.findOne(ChangeRequest, { id: connection.conflict_change_request });
    if (cr && (cr.status === 'open' || cr.status === 'draft')) return finishUnchanged(deps, op, null);
    await deps.em
      .fork()
      .transactional((tx) => gitConflictRecorder(tx, { connectionId: connection.id, changeRequestId: null }));
  }
  const sync = await gitSyncRepository.findSync(em, op.space_id);
  const head = await remoteHead(remoteOf(deps, op), deps.limits);
  const synced = sync && sync.url === op.url && sync.ref === op.ref && sync.last_commit && sync.last_revision;
  if (!synced) {
    const first = op.params.initialSync ?? (head ? 'import' : 'export');
    return first === 'import' ? runImport(deps, op) : runExport(deps, op);
  }
  if (head && head !== sync.last_commit) return runImport(deps, op, { connection });
  const space = await spaceRepository.findById(em, op.space_id);
  if (!space || space.deletedAt) throw new DomainError('not_found', 'The space was deleted');
  // The space moved alone (or the branch was deleted): the space's content goes to the remote.
  if (!head || space.revisionId !== sync.last_revision) return runExport(deps, op);
  return finishUnchanged(deps, op, head);
}

/** Queues the syncs of the connections due a poll. */
export async function queueDuePolls(deps: Pick<GitSyncDeps, 'em'>, now = new Date()): Promise<number> {
  return deps.em.fork().transactional((tx) => gitPollQueuer(tx, { now }));
}

/**
 * Runs the Git operations waiting, one claim after another (a space's operations one at a time, in the order
 * they were asked): the remote is read or written outside any transaction, then the outcome in one. A failure
 * the user can fix (a refused remote, a limit, a diverged branch, an invalid repository) ends the operation as
 * `failure` with its message, credentials taken out; any other error too, with a generic message, logged.
 */
export async function runWaitingGitOperations(deps: GitSyncDeps, max = 5): Promise<string[]> {
  await queueDuePolls(deps).catch((err: Error) => deps.log.warn({ error: err.message }, 'git sync polls not queued'));
  const leaseMs = deps.leaseMs ?? GIT_LEASE_MS;
  const until = (now = new Date()) => new Date(now.getTime() + leaseMs);
  const done = await runLeasedClaims({
    name: GIT_SYNC_JOB,
    log: deps.log,
    leaseMs,
    max,
    claim: () => {
      const now = new Date();
      return deps.em.fork().transactional((tx) => gitSyncRepository.claimNext(tx, now, until(now)));
    },
    renew: (op) =>
      deps.em.fork().transactional((tx) => gitOperationLeaseRenewer(tx, { operationId: op.id, until: until() })),
    describe: (op) => ({ operation: op.id, space: op.space_id }),
    work: (op) => runClaimedGitOperation(deps, op),
  });
  return done.map((op) => op.id);
}

/** Runs one claimed operation to its outcome: `failure` with a message the user can read when anything fails. */
async function runClaimedGitOperation(deps: GitSyncDeps, op: GitOperationRow): Promise<void> {
  let secret: string | undefined;
  try {
    secret = remoteOf(deps, op).credentials;
    const applied = op.params.timestamp
      ? await gitConnectionRepository.latestAppliedTimestamp(deps.em.fork(), op.space_id)
      : null;
    const result =
      // GitBook's `timestamp`: an operation triggered before one already applied is stale.
      applied && op.params.timestamp && new Date(op.params.timestamp) < new Date(applied)
        ? await finishUnchanged(deps, op, null)
        : op.params.trigger
          ? await runConnected(deps, op)
          : op.direction === 'import'
            ? await runImport(deps, op)
            : await runExport(deps, op);
    deps.log.info(
      { operation: op.id, space: op.space_id, direction: op.direction, commit: result.commit },
      'git sync operation done',
    );
  } catch (err) {
    const known = err instanceof DomainError && err.reason !== 'internal';
    const message = redact(
      known ? err.message : `The ${op.direction} failed: ${(err as Error).message ?? 'unknown error'}`,
      secret,
    );
    deps.log.warn(
      { operation: op.id, space: op.space_id, direction: op.direction, error: message },
      'git sync operation failed',
    );
    await deps.em
      .fork()
      .transactional((tx) =>
        gitOperationFinisher(tx, { operationId: op.id, outcome: { state: 'failure', error: message } }),
      );
  }
}
