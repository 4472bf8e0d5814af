import { LRUCache } from 'lru-cache';
import { sql, sqlRun, type EntityManager } from '@quire/kit';
import type { GitConnectionRow } from './git-connection.repository.ts';

/** A space's Git Sync (see migration 0011). */
export interface GitSyncRow {
  space_id: string;
  id: string;
  url: string;
  ref: string;
  tree_url: string | null;
  project_directory: string;
  credentials: string | null;
  last_commit: string | null;
  /** The space's revision whose content is `last_commit`'s (the merge base when both sides change). */
  last_revision: string | null;
  /**
   * Repository path → `{ page | file | reusable, oid, key? }`: what each path held at the last sync (a file: its blob
   * key too; `reusable`: a reusable content's `.gitbook/includes/` file).
   */
  paths: Record<string, { page?: string; file?: string; reusable?: string; oid: string; key?: string }>;
  /** `.gitbook.yaml`'s redirects as the last import read them: source path → page id (see migration 0016). */
  redirects: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export type GitDirection = 'import' | 'export';
export type GitOperationState = 'pending' | 'running' | 'success' | 'failure' | 'timeout';

/** The options of an operation as the API received them (credentials apart, sealed). */
export interface GitOperationParams {
  commitMessage?: string | undefined;
  force?: boolean | undefined;
  standalone?: boolean | undefined;
  repoTreeURL?: string | undefined;
  repoCommitURL?: string | undefined;
  repoProjectDirectory?: string | undefined;
  /** GitBook's `timestamp` (ISO): an operation triggered before the latest one applied is stale, skipped. */
  timestamp?: string | undefined;
  /** Set on the operations of a connection (`…/git/connection`): what queued it. They reconcile both sides. */
  trigger?: 'connect' | 'poll' | 'hook' | 'merge' | undefined;
  /** A connection's first sync: which side wins (default: import when the branch has commits, else export). */
  initialSync?: 'import' | 'export' | undefined;
}

export interface GitOperationRow {
  id: string;
  space_id: string;
  direction: GitDirection;
  url: string;
  ref: string;
  credentials: string | null;
  params: GitOperationParams;
  requested_by: string;
  state: GitOperationState;
  attempts: number;
  error: string | null;
  commit_oid: string | null;
  revision_id: string | null;
  /** What a running operation has done so far (Quire-specific, shown by getSpaceGitInfo). */
  progress: GitOperationProgress | null;
  created_at: Date;
  ended_at: Date | null;
}

/** A running operation's progress: its phase and, where it counts, how many of how many. */
export interface GitOperationProgress {
  phase: 'fetching' | 'reading' | 'parsing' | 'storing' | 'writing' | 'pushing';
  done?: number | undefined;
  total?: number | undefined;
}

/**
 * The pages' Git blobs of recent revisions, by revision id (most have none): page reads ask for them every time.
 * This process forgets a revision's when it sets them; another process's change (an export run elsewhere) shows
 * within the TTL.
 */
const blobsByRevision = new LRUCache<string, Promise<ReadonlyMap<string, GitPageBlob>>>({ max: 64, ttl: 5_000 });

/** A `text[]` literal (`{"a","b"}`) for `= any(?::text[])`. */
const textArray = (values: readonly string[]) => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;

type RowJson = Record<string, unknown>;

/** A row read as JSON (`row_to_json`) with its timestamps as dates again. */
function withDates<T>(row: RowJson | null | undefined, keys: readonly string[]): T | null {
  if (!row) return null;
  const out: RowJson = { ...row };
  for (const k of keys) if (typeof out[k] === 'string') out[k] = new Date(out[k] as string);
  return out as T;
}

/** Claims of an operation at most (a process stopping mid-run leaves its claim to lapse). */
export const GIT_MAX_ATTEMPTS = 3;

/** Queries of Git Sync. */
export const gitSyncRepository = {
  async findSync(em: EntityManager, spaceId: string): Promise<GitSyncRow | null> {
    return (await sql<GitSyncRow>(em, 'select * from :schema.git_sync where space_id = ?', [spaceId]))[0] ?? null;
  },

  /**
   * A space's Git Sync as one moment shows it: its latest operation, its sync and its connection, read by one
   * statement. An operation's end, the sync and a conflict are written in one transaction; three reads may each see
   * a different moment (a conflict beside the sync of before it). That is why this repository reads
   * `git_connection`, `gitConnectionRepository`'s table, here: one consistent snapshot needs one statement, and
   * PostgreSQL's read-committed isolation gives each statement its own.
   */
  async stateOf(
    em: EntityManager,
    spaceId: string,
  ): Promise<{ op: GitOperationRow | null; sync: GitSyncRow | null; connection: GitConnectionRow | null }> {
    const [row] = await sql<{ op: RowJson | null; sync: RowJson | null; connection: RowJson | null }>(
      em,
      `select (select row_to_json(o) from (select * from :schema.git_operation where space_id = ?
                 order by created_at desc, id desc limit 1) o) as op,
              (select row_to_json(s) from :schema.git_sync s where space_id = ?) as sync,
              (select row_to_json(c) from :schema.git_connection c where space_id = ?) as connection`,
      [spaceId, spaceId, spaceId],
    );
    return {
      op: withDates<GitOperationRow>(row?.op, ['created_at', 'ended_at']),
      sync: withDates<GitSyncRow>(row?.sync, ['created_at', 'updated_at']),
      connection: withDates<GitConnectionRow>(row?.connection, ['next_poll_at', 'created_at', 'updated_at']),
    };
  },

  async insertOperation(
    em: EntityManager,
    row: Omit<GitOperationRow, 'state' | 'attempts' | 'error' | 'commit_oid' | 'revision_id' | 'ended_at' | 'progress'>,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.git_operation (id, space_id, direction, url, ref, credentials, params, requested_by, created_at)
       values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)`,
      [
        row.id,
        row.space_id,
        row.direction,
        row.url,
        row.ref,
        row.credentials,
        JSON.stringify(row.params),
        row.requested_by,
        row.created_at,
      ],
    );
  },

  /**
   * Claims the operation waiting longest whose space has none running (operations of a space run one at a time,
   * in order); a claim past its attempts fails it.
   */
  async claimNext(em: EntityManager, now: Date, leaseUntil: Date): Promise<GitOperationRow | null> {
    await sqlRun(
      em,
      `update :schema.git_operation set state = 'timeout', ended_at = ?, error = 'The operation was interrupted too many times'
       where state = 'running' and lease_until < ? and attempts >= ?`,
      [now, now, GIT_MAX_ATTEMPTS],
    );
    const rows = await sql<GitOperationRow>(
      em,
      `update :schema.git_operation set state = 'running', lease_until = ?, attempts = attempts + 1
       where id = (
         select o.id from :schema.git_operation o
         where (o.state = 'pending' or (o.state = 'running' and o.lease_until < ?))
           and not exists (select 1 from :schema.git_operation r where r.space_id = o.space_id and r.id <> o.id
                           and ((r.state = 'running' and r.lease_until >= ?) or (r.state = 'pending' and r.created_at < o.created_at)))
         order by o.created_at, o.id limit 1 for update skip locked)
       returning *`,
      [leaseUntil, now, now],
    );
    return rows[0] ?? null;
  },

  async finish(em: EntityManager, id: string, outcome: GitOutcome, now: Date): Promise<void> {
    await sqlRun(
      em,
      `update :schema.git_operation set state = ?, error = ?, commit_oid = ?, revision_id = ?, ended_at = ?, lease_until = null,
         credentials = null, progress = null
       where id = ? and state = 'running'`,
      [outcome.state, outcome.error ?? null, outcome.commit ?? null, outcome.revision ?? null, now, id],
    );
  },

  /** Records a running operation's progress. */
  async setProgress(em: EntityManager, id: string, progress: GitOperationProgress): Promise<void> {
    await sqlRun(em, `update :schema.git_operation set progress = ?::jsonb where id = ? and state = 'running'`, [
      JSON.stringify(progress),
      id,
    ]);
  },

  /** Extends a running operation's lease (its process is alive). */
  async renewLease(em: EntityManager, id: string, until: Date): Promise<void> {
    await sqlRun(em, `update :schema.git_operation set lease_until = ? where id = ? and state = 'running'`, [
      until,
      id,
    ]);
  },

  async upsertSync(em: EntityManager, row: Omit<GitSyncRow, 'created_at' | 'updated_at'>, now: Date): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.git_sync (space_id, id, url, ref, tree_url, project_directory, credentials, last_commit, last_revision, paths,
         redirects, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)
       on conflict (space_id) do update set url = excluded.url, ref = excluded.ref, tree_url = excluded.tree_url,
         project_directory = excluded.project_directory, credentials = excluded.credentials, last_commit = excluded.last_commit,
         last_revision = excluded.last_revision, paths = excluded.paths, redirects = excluded.redirects,
         updated_at = excluded.updated_at`,
      [
        row.space_id,
        row.id,
        row.url,
        row.ref,
        row.tree_url,
        row.project_directory,
        row.credentials,
        row.last_commit,
        row.last_revision,
        JSON.stringify(row.paths),
        JSON.stringify(row.redirects),
        now,
        now,
      ],
    );
  },

  /** Sets GitBook's `git: {oid, path}` of the pages of a revision (replacing what it held). */
  async setPageBlobs(
    em: EntityManager,
    spaceId: string,
    revisionId: string,
    blobs: ReadonlyMap<string, GitPageBlob>,
  ): Promise<void> {
    blobsByRevision.delete(revisionId);
    await sqlRun(em, 'delete from :schema.git_page_blob where revision_id = ?', [revisionId]);
    if (!blobs.size) return;
    await sqlRun(
      em,
      `insert into :schema.git_page_blob (revision_id, page_id, space_id, oid, path)
       select ?::text, x.page, ?::text, x.oid, x.path from jsonb_to_recordset(?::jsonb) as x(page text, oid text, path text)`,
      [revisionId, spaceId, JSON.stringify([...blobs].map(([page, b]) => ({ page, oid: b.oid, path: b.path })))],
    );
  },

  /** GitBook's `git` of the pages of a revision, by page id (cached a few seconds, see `blobsByRevision`). */
  pageBlobs(em: EntityManager, revisionId: string): Promise<ReadonlyMap<string, GitPageBlob>> {
    const cached = blobsByRevision.get(revisionId);
    if (cached) return cached;
    const read = sql<{ page_id: string; oid: string; path: string }>(
      em,
      'select page_id, oid, path from :schema.git_page_blob where revision_id = ?',
      [revisionId],
    ).then((rows) => new Map(rows.map((r) => [r.page_id, { oid: r.oid, path: r.path }])));
    blobsByRevision.set(revisionId, read);
    read.catch(() => blobsByRevision.peek(revisionId) === read && blobsByRevision.delete(revisionId));
    return read;
  },

  /** Ends the operations of a space still waiting to run (its space was deleted). */
  async endWaiting(em: EntityManager, spaceId: string, error: string, now: Date): Promise<void> {
    await sqlRun(
      em,
      `update :schema.git_operation set state = 'failure', error = ?, ended_at = ?, credentials = null
       where space_id = ? and state = 'pending'`,
      [error, now, spaceId],
    );
  },

  /** Forgets everything Git Sync holds of spaces removed for good (their credentials included). */
  async forgetSpaces(em: EntityManager, spaceIds: readonly string[]): Promise<void> {
    if (!spaceIds.length) return;
    for (const table of ['git_connection', 'git_sync', 'git_operation', 'git_revision', 'git_page_blob'])
      await sqlRun(em, `delete from :schema.${table} where space_id = any(?::text[])`, [textArray(spaceIds)]);
  },
};

/** How an operation ended. */
export interface GitOutcome {
  state: 'success' | 'failure' | 'timeout';
  error?: string;
  commit?: string | null;
  revision?: string | null;
}

/** GitBook's GitSyncBlob of a page: its file's blob id and repository path. */
export interface GitPageBlob {
  oid: string;
  path: string;
}
