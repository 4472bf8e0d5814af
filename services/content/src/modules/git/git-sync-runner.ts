import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import pMap from 'p-map';
import { DomainError, newId, runLeasedClaims, type BlobStore, type EntityManager, type SecretBox } from '@quire/kit';
import { gitConflictImporter, gitImporter } from '../../commands/git-importer.ts';
import {
  gitConflictRecorder,
  gitPollQueuer,
  gitRefusalRecorder,
  gitRevisionRecorder,
  gitSyncQueuer,
} from '../../commands/git-connection-writer.ts';
import {
  gitOperationClaimer,
  gitOperationFinisher,
  gitOperationLeaseRenewer,
  gitPageBlobsRecorder,
  gitProgressRecorder,
  gitRedirectsRecorder,
} from '../../commands/git-sync-writer.ts';
import { ChangeRequest } from '../change-requests/change-request.entity.ts';
import { OpenAPISpec } from '../openapi/openapi-spec.entity.ts';
import { gitConnectionRepository, type GitConnectionRow } from './git-connection.repository.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { childrenByParent, reusableContentsOf, type RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import type { ParseSession } from '../parsing/text-parser.ts';
import {
  checkDeadline,
  GitTimeout,
  pushFiles,
  remoteHead,
  withRemoteTree,
  type GitLimits,
  type RemoteSpec,
  type RemoteTree,
} from './git-remote.ts';
import { GitLimitError, redact, type PrivateHosts } from './git-http.ts';
import {
  gitSyncRepository,
  type GitOperationProgress,
  type GitOperationRow,
  type GitPageBlob,
  type GitSyncRow,
} from './git-sync.repository.ts';
import {
  filePathsOf,
  knownPathsOf,
  pagePathsOf,
  repoAttributes,
  repoFilesOf,
  reusablePathsOf,
  type RepoContent,
  type RepoPage,
} from './repo-export.ts';
import { readRepoYielding, type ImportedRepo } from './repo-import.ts';
import { contentTypeOf, planTree } from './tree-plan.ts';

export interface GitSyncDeps {
  em: EntityManager;
  blobs: BlobStore;
  /** Opens the operations' credentials (null: the instance stores no secrets, so operations carry none). */
  box: SecretBox | null;
  limits: GitLimits;
  allowPrivate: boolean;
  allowPublic: boolean;
  /** Git hosts allowed on private addresses (`QUIRE_GIT_PRIVATE_HOSTS`). */
  privateHosts?: PrivateHosts | undefined;
  /** The name and e-mail of the member an export's commit is authored by (org-admin's directory). */
  authorOf?: ((userId: string) => Promise<{ name: string; email: string } | null>) | undefined;
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

/** When each running operation must end (epoch ms), by id: set when it is claimed. */
const deadlines = new Map<string, number>();

function remoteOf(deps: GitSyncDeps, op: GitOperationRow): RemoteSpec {
  const credentials = op.credentials && deps.box ? deps.box.open(op.credentials, aadOf(op.space_id)) : undefined;
  return {
    url: op.url,
    credentials,
    ref: op.ref,
    allowPrivate: deps.allowPrivate,
    allowPublic: deps.allowPublic,
    privateHosts: deps.privateHosts,
    deadline: deadlines.get(op.id),
  };
}

/** Records where a running operation stands (shown by getSpaceGitInfo); a failure to record it stops nothing. */
async function progress(deps: GitSyncDeps, op: GitOperationRow, p: GitOperationProgress): Promise<void> {
  await deps.em
    .fork()
    .transactional((tx) => gitProgressRecorder(tx, { operationId: op.id, progress: p }))
    .catch((err: Error) => deps.log.warn({ operation: op.id, error: err.message }, 'git sync progress not recorded'));
}

/** The ids a read repository's paths get: the same path keeps its id, a file renamed as is (same blob) too. */
function idsFor(files: ReadonlyMap<string, { oid: string }>, sync: GitSyncRow | null) {
  const known = sync?.paths ?? {};
  const claimed = new Set<string>();
  const idOf = (k: GitSyncRow['paths'][string]) => (k.page ?? k.file ?? k.reusable)!;
  for (const p of files.keys())
    for (const id of [known[p]?.page, known[p]?.file, known[p]?.reusable]) if (id) claimed.add(id);
  const renamed = new Map<string, { page?: string; file?: string; reusable?: string }>();
  for (const [path, { oid }] of files) {
    if (known[path]) continue;
    const from = Object.entries(known).find(([old, k]) => !files.has(old) && k.oid === oid && !claimed.has(idOf(k)));
    if (from) renamed.set(path, from[1]), claimed.add(idOf(from[1]));
  }
  return {
    page: (p: string) => known[p]?.page ?? renamed.get(p)?.page ?? newId(),
    file: (p: string) => known[p]?.file ?? renamed.get(p)?.file ?? newId(),
    reusable: (p: string) => known[p]?.reusable ?? renamed.get(p)?.reusable ?? newId(),
  };
}

/** The key of a group or link page in the sync's paths (as `readRepoYielding` asks for its id). */
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
  const reusableIds = new Set((read.reusableContents ?? []).map((r) => r.id));
  const kindOf = (id: string) =>
    pageIds.has(id) ? { page: id } : reusableIds.has(id) ? { reusable: id } : { file: id };
  for (const [id, path] of read.paths) out[`${prefix}${path}`] = { ...kindOf(id), oid: oidOf(`${prefix}${path}`) };
  return out;
}

/** The blob key of each file of a sync's paths (the next import does not read an unchanged file again). */
function withKeys(paths: GitSyncRow['paths'], stored: ReadonlyMap<string, { key: string }>): GitSyncRow['paths'] {
  for (const entry of Object.values(paths)) {
    const key = entry.file ? stored.get(entry.file)?.key : undefined;
    if (key) entry.key = key;
  }
  return paths;
}

/**
 * GitBook's `git: {oid, path}` of each document page (and reusable content: its `.gitbook/includes/` file) of a read
 * or written repository (`paths`: by id, unprefixed).
 */
function pageBlobsOf(
  pages: readonly RepoPage[],
  paths: ReadonlyMap<string, string>,
  oidOf: (path: string) => string | undefined,
  prefix: string,
  reusable: readonly { id: string }[] = [],
): Map<string, GitPageBlob> {
  const out = new Map<string, GitPageBlob>();
  for (const { id } of reusable) {
    const path = paths.get(id);
    const oid = path === undefined ? undefined : oidOf(`${prefix}${path}`);
    if (path !== undefined && oid) out.set(id, { oid, path: `${prefix}${path}` });
  }
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

/** The commit an import read: its id, message and project directory's files (blob ids and sizes). */
type ImportSnapshot = Pick<RemoteTree, 'oid' | 'message' | 'files'>;

/** What an import read of the remote, before it writes: the commit's pages (documents normalised) and files stored. */
interface ImportRead {
  sync: GitSyncRow | null;
  snapshot: ImportSnapshot;
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
  const spec = remoteOf(deps, op);
  // The commit was synced already: nothing changes (asked of the remote's refs, before anything is fetched).
  const synced = op.params.standalone !== true && !op.params.force && sync?.url === op.url ? sync.last_commit : null;
  await progress(deps, op, { phase: 'fetching' });
  if (synced && (await remoteHead(spec, deps.limits)) === synced) return finishUnchanged(deps, op, synced);
  const got = await withRemoteTree(spec, deps.limits, projectDir(op), (tree) => readImport(deps, op, sync, tree, mode));
  if (synced === got.commit) return finishUnchanged(deps, op, got.commit);
  checkDeadline(spec, deps.limits);
  await progress(deps, op, { phase: 'writing' });
  const revision = await deps.em.fork().transactional((tx) => writeImport(tx, op, got, mode));
  return { commit: got.commit, revision };
}

/** Files whose bytes `readRepo` needs (pages, `SUMMARY.md`, `.gitbook.yaml`); other files are read when stored. */
const TEXT_FILE = /\.(md|markdown|ya?ml)$/i;
const UNREAD = new Uint8Array(0);
/** Files read and stored at once by an import. */
const STORE_CONCURRENCY = 4;
/** What the plan keeps of a file's bytes once stored: enough for its image header (type, width, height). */
const HEAD_BYTES = 512 * 1024;
/** What is kept of a file whose type and dimensions this much tells already (most images: their header is first). */
const SHORT_HEAD_BYTES = 16 * 1024;

/**
 * The head of a stored file the plan keeps: the first SHORT_HEAD_BYTES when they give the type and dimensions the
 * whole file gives, else HEAD_BYTES (a JPEG's dimensions may come after its metadata).
 */
function headOf(name: string, bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength <= SHORT_HEAD_BYTES) return bytes;
  const whole = contentTypeOf(name, bytes);
  const short = contentTypeOf(name, bytes.subarray(0, SHORT_HEAD_BYTES));
  const same = short.type === whole.type && short.width === whole.width && short.height === whole.height;
  // A copy: a Buffer's `slice` is a view, which would keep the whole file's memory for the plan.
  return new Uint8Array(bytes.subarray(0, same ? SHORT_HEAD_BYTES : HEAD_BYTES));
}

/**
 * The commit's repository read (outside any transaction): its documents normalised, its files stored as blobs. A
 * file whose blob the last sync stored already, and that the revision planned against still holds, is not read.
 */
async function readImport(
  deps: GitSyncDeps,
  op: GitOperationRow,
  sync: GitSyncRow | null,
  tree: RemoteTree,
  mode: ImportMode,
): Promise<ImportRead> {
  const dir = projectDir(op);
  const prefix = dir ? `${dir}/` : '';
  // The text files are read here (the others as they are stored): `reading` counts them, every 50.
  const texts = [...tree.files.keys()].filter((path) => TEXT_FILE.test(path.slice(prefix.length))).length;
  await progress(deps, op, { phase: 'reading', done: 0, total: texts });
  const bytes = new Map<string, Uint8Array>();
  let textsRead = 0;
  for (const path of tree.files.keys()) {
    const rel = path.slice(prefix.length);
    if (!TEXT_FILE.test(rel)) {
      bytes.set(rel, UNREAD);
      continue;
    }
    bytes.set(rel, await tree.read(path));
    if (++textsRead % 50 === 0 && textsRead < texts)
      await progress(deps, op, { phase: 'reading', done: textsRead, total: texts });
  }
  // The sync's paths are the repository's (with the project directory); groups' and links' keys start with `#`.
  const ids = idsFor(tree.files, sync);
  const read = await readRepoYielding(bytes, {
    page: (p) => ids.page(p.startsWith('#') ? p : `${prefix}${p}`),
    file: (p) => ids.file(`${prefix}${p}`),
    reusable: (p) => ids.reusable(`${prefix}${p}`),
  });
  const normalized = await normalizeAll(deps, op, read);
  const { files, stored } = await storeFiles(deps, op, { sync, tree, read, prefix, mode });
  const snapshot = { oid: tree.oid, message: tree.message, files: tree.files };
  return { sync, snapshot, commit: tree.oid, prefix, read: { ...read, files }, normalized, stored };
}

/** How long an import's inline work runs before the event loop gets a turn. */
const NORMALIZE_SLICE_MS = 10;

/** Each page's markdown normalised (the parsing threads), the operation's deadline checked between pages. */
async function normalizeAll(deps: GitSyncDeps, op: GitOperationRow, read: ImportedRepo): Promise<Map<string, string>> {
  const spec = remoteOf(deps, op);
  const parse = deps.parse();
  const normalized = new Map<string, string>();
  const countPages = (list: readonly RepoPage[]): number =>
    list.reduce((n, p) => n + (p.markdown ? 1 : 0) + countPages(p.children), 0);
  const total = countPages(read.pages) + (read.reusableContents ?? []).filter((rc) => rc.markdown).length;
  // A short page is normalised inline (a thread's round trip costs more), which yields no turn to the event loop: it
  // gets one every NORMALIZE_SLICE_MS.
  let since = performance.now();
  const walk = async (list: readonly RepoPage[]): Promise<void> => {
    for (const p of list) {
      if (p.markdown) {
        checkDeadline(spec, deps.limits);
        if (performance.now() - since >= NORMALIZE_SLICE_MS) {
          await yieldToLoop();
          since = performance.now();
        }
        normalized.set(
          p.id,
          await parse.run({ kind: 'normalize', markdown: p.markdown }, read.paths.get(p.id) ?? p.title),
        );
        if (normalized.size % 50 === 0) await progress(deps, op, { phase: 'parsing', done: normalized.size, total });
      }
      await walk(p.children);
    }
  };
  await walk(read.pages);
  // the reusable contents' markdown as pages' (`.gitbook/includes/`)
  for (const rc of read.reusableContents ?? []) {
    checkDeadline(spec, deps.limits);
    if (rc.markdown)
      normalized.set(
        rc.id,
        await parse.run({ kind: 'normalize', markdown: rc.markdown }, read.paths.get(rc.id) ?? rc.title),
      );
  }
  return normalized;
}

/** The files of the revision an import plans against (a connection's conflict: the revision last synced). */
async function planBaseFiles(deps: GitSyncDeps, op: GitOperationRow, sync: GitSyncRow | null, mode: ImportMode) {
  const em = deps.em.fork();
  const space = await spaceRepository.findById(em, op.space_id);
  if (!space) return new Map<string, { blobKey: string; name: string }>();
  const conflict = mode.connection && sync?.last_revision && sync.last_revision !== space.revisionId;
  const base = conflict ? sync.last_revision! : space.revisionId;
  return (await revisionRepository.treeInSpace(em, space.id, base)).files;
}

/**
 * The repository's files stored as blobs, one at a time (bytes read from the pack, stored, dropped but for their
 * head). A file the last sync stored (same blob id, its blob key recorded) that the plan's base holds as is keeps
 * its blob, unread.
 */
async function storeFiles(
  deps: GitSyncDeps,
  op: GitOperationRow,
  at: { sync: GitSyncRow | null; tree: RemoteTree; read: ImportedRepo; prefix: string; mode: ImportMode },
): Promise<{ files: ImportedRepo['files']; stored: Map<string, { key: string; size: number }> }> {
  const { sync, tree, read, prefix } = at;
  const known = sync?.paths ?? {};
  const base = read.files.length ? await planBaseFiles(deps, op, sync, at.mode) : new Map();
  const stored = new Map<string, { key: string; size: number }>();
  let done = 0;
  // A few at a time: reading one from the pack overlaps storing another (at most STORE_CONCURRENCY files in memory).
  const files = await pMap(
    read.files,
    async (f) => {
      const path = `${prefix}${read.paths.get(f.id)}`;
      const entry = tree.files.get(path)!;
      const k = known[path];
      const old = base.get(f.id);
      let kept = f;
      if (k?.key && k.oid === entry.oid && old?.blobKey === k.key && old.name === f.name) {
        // The plan keeps the base's record of it as is (same blob, same name): its bytes are not needed.
        stored.set(f.id, { key: k.key, size: entry.size });
      } else {
        const bytes = await tree.read(path);
        stored.set(f.id, await deps.blobs.put(bytes, 'application/octet-stream'));
        kept = { ...f, bytes: headOf(f.name, bytes) };
      }
      if (++done % 25 === 0) await progress(deps, op, { phase: 'storing', done, total: read.files.length });
      return kept;
    },
    { concurrency: STORE_CONCURRENCY },
  );
  return { files, stored };
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
    paths: withKeys(
      pathsRecord(read, (p) => snapshot.files.get(p)!.oid, prefix),
      got.stored,
    ),
    blobs: pageBlobsOf(read.pages, read.paths, (p) => snapshot.files.get(p)?.oid, prefix, read.reusableContents),
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
  const plan = planTree(baseTree, w.read.pages, w.read.files, w.normalized, w.stored, now, w.read.reusableContents);
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
  const plan = planTree(head, w.read.pages, w.read.files, w.normalized, w.stored, now, w.read.reusableContents);
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
  const reusable = [...reusableContentsOf(tree).values()];
  const hashes = [...tree.pages.values(), ...reusable].map((p) => p.documentHash).filter((h): h is string => !!h);
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
  const reusableContents = reusable.map((r) => ({
    id: r.id,
    title: r.title,
    markdown: r.documentHash ? (docs.get(r.documentHash) ?? '') : '',
  }));
  return { pages: (children.get(null) ?? []).map((p) => toPage(p.id)), files, reusableContents };
}

/** The source URL of each OpenAPI specification of an organization given by one, by slug (see `RepoContent`). */
async function specUrlsOf(em: EntityManager, organizationId: string): Promise<Map<string, string>> {
  const specs = await em.find(
    OpenAPISpec,
    { organizationId, sourceUrl: { $ne: null } },
    { fields: ['slug', 'sourceUrl'] },
  );
  return new Map(specs.flatMap((s) => (s.sourceUrl ? [[s.slug, s.sourceUrl] as const] : [])));
}

/** What an export wrote, as an import would have read it: every page's, file's and reusable content's path. */
function exportedPaths(
  content: Awaited<ReturnType<typeof contentOf>> & { knownPaths?: ReadonlyMap<string, string> | undefined },
): ImportedRepo {
  const pagePaths = pagePathsOf(content.pages, content.knownPaths);
  const read: ImportedRepo = { ...content, redirects: {}, pageRedirects: {}, paths: new Map() };
  const filePaths = filePathsOf(content.files, content.knownPaths, pagePaths);
  const includePaths = reusablePathsOf(content.reusableContents ?? [], content.knownPaths, [
    ...pagePaths.values(),
    ...filePaths.values(),
  ]);
  for (const [id, path] of [...pagePaths, ...filePaths, ...includePaths]) read.paths.set(id, path);
  return read;
}

async function runExport(deps: GitSyncDeps, op: GitOperationRow): Promise<{ commit: string | null }> {
  const em = deps.em.fork();
  const space = await spaceRepository.findById(em, op.space_id);
  if (!space || space.deletedAt) throw new DomainError('not_found', 'The space was deleted');
  const tree = await revisionRepository.treeInSpace(em, space.id, space.revisionId);
  const sync = await gitSyncRepository.findSync(em, op.space_id);
  const dir = projectDir(op);
  const prefix = dir ? `${dir}/` : '';
  // The space's redirects (as the last import read them) are written back to `.gitbook.yaml`, and its pages and
  // files to the paths the last sync of this repository recorded, so paths, URLs and links do not change.
  const content = {
    ...(await contentOf(em, deps.blobs, tree)),
    pageRedirects: sync?.redirects ?? {},
    knownPaths: sync && sync.url === op.url ? knownPathsOf(sync.paths, prefix) : undefined,
    specUrls: await specUrlsOf(em, space.organizationId),
  };
  const files = repoFilesOf(content);
  const author = (await deps.authorOf?.(op.requested_by)) ?? {
    name: op.requested_by,
    email: `${op.requested_by}@users.quire.invalid`,
  };
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
  const read = exportedPaths(content);
  const oidOf = (p: string) => {
    const bytes = prefixed.get(p);
    return bytes ? blobOid(bytes) : undefined;
  };
  const paths = pathsRecord(read, (p) => oidOf(p)!, prefix);
  const blobs = pageBlobsOf(content.pages, read.paths, oidOf, prefix, content.reusableContents);
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
  // A commit refused before (a limit, a hostile tree) is not fetched again: the sync waits for the branch to move.
  if (head && connection.refused_commit === head)
    throw new GitLimitError('invalid_input', connection.refused_error ?? `Git remote ${op.url}: ${head} was refused`);
  const importing = (mode: ImportMode) => rememberRefusal(deps, connection, head, () => runImport(deps, op, mode));
  const synced = sync && sync.url === op.url && sync.ref === op.ref && sync.last_commit && sync.last_revision;
  if (!synced) {
    const first = op.params.initialSync ?? (head ? 'import' : 'export');
    return first === 'import' ? importing({}) : runExport(deps, op);
  }
  if (head && head !== sync.last_commit) return importing({ connection });
  const space = await spaceRepository.findById(em, op.space_id);
  if (!space || space.deletedAt) throw new DomainError('not_found', 'The space was deleted');
  // The space moved alone (or the branch was deleted): the space's content goes to the remote.
  if (!head || space.revisionId !== sync.last_revision) return runExport(deps, op);
  return finishUnchanged(deps, op, head);
}

/**
 * Runs a connection's import of `head`: when the commit is refused for what it holds (`GitLimitError`), the refusal
 * is recorded on the connection (polls then skip that commit); a commit imported clears an earlier one.
 */
async function rememberRefusal<T>(
  deps: GitSyncDeps,
  connection: GitConnectionRow,
  head: string | null,
  work: () => Promise<T>,
): Promise<T> {
  const record = (commit: string | null, error: string | null) =>
    deps.em.fork().transactional((tx) => gitRefusalRecorder(tx, { connectionId: connection.id, commit, error }));
  try {
    const done = await work();
    if (connection.refused_commit) await record(null, null);
    return done;
  } catch (err) {
    if (head && err instanceof GitLimitError) await record(head, err.message);
    throw err;
  }
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
      return deps.em.fork().transactional((tx) => gitOperationClaimer(tx, { now, leaseUntil: until(now) }));
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
  deadlines.set(op.id, Date.now() + deps.limits.timeoutMs);
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
    // Past its deadline, whatever stopped it (a request cut at the time left), the operation timed out.
    const deadline = deadlines.get(op.id);
    const timedOut = err instanceof GitTimeout || (deadline !== undefined && Date.now() >= deadline);
    const known = err instanceof DomainError && err.reason !== 'internal';
    const message = redact(
      timedOut
        ? new GitTimeout(op.url, deps.limits.timeoutMs).message
        : known
          ? err.message
          : `The ${op.direction} failed: ${(err as Error).message ?? 'unknown error'}`,
      secret,
    );
    deps.log.warn(
      { operation: op.id, space: op.space_id, direction: op.direction, error: message },
      'git sync operation failed',
    );
    const state = timedOut ? 'timeout' : 'failure';
    await deps.em
      .fork()
      .transactional((tx) => gitOperationFinisher(tx, { operationId: op.id, outcome: { state, error: message } }));
  } finally {
    deadlines.delete(op.id);
  }
}
