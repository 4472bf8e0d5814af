import { sql, sqlRun, type EntityManager } from '@quire/kit';

/** A space kept in step with a repository+ref (see migration 0012). */
export interface GitConnectionRow {
  id: string;
  space_id: string;
  url: string;
  ref: string;
  project_directory: string;
  /** Sealed (aad `git:<spaceId>`, as an operation's), or null. */
  credentials: string | null;
  /** Sealed (aad `git-hook:<id>`), or null: webhooks refused. */
  webhook_secret: string | null;
  poll_interval_seconds: number;
  next_poll_at: Date;
  /** The open change request holding the remote's side of a conflict: the sync waits until it is merged or closed. */
  conflict_change_request: string | null;
  /** The remote commit the last sync refused (a limit, an invalid repository): not fetched again until the branch moves. */
  refused_commit: string | null;
  /** Why it was refused. */
  refused_error: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

/** GitBook's `git` of a revision Git made (an import). */
export interface GitRevisionRow {
  revision_id: string;
  space_id: string;
  oid: string;
  message: string;
  url: string;
  ref: string;
}

export const gitConnectionRepository = {
  async findBySpace(em: EntityManager, spaceId: string): Promise<GitConnectionRow | null> {
    return (
      (await sql<GitConnectionRow>(em, 'select * from :schema.git_connection where space_id = ?', [spaceId]))[0] ?? null
    );
  },

  async findById(em: EntityManager, id: string): Promise<GitConnectionRow | null> {
    return (await sql<GitConnectionRow>(em, 'select * from :schema.git_connection where id = ?', [id]))[0] ?? null;
  },

  async upsert(
    em: EntityManager,
    row: Omit<GitConnectionRow, 'conflict_change_request' | 'refused_commit' | 'refused_error'>,
  ): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.git_connection as c (id, space_id, url, ref, project_directory, credentials, webhook_secret,
         poll_interval_seconds, next_poll_at, created_by, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (space_id) do update set url = excluded.url, ref = excluded.ref,
         project_directory = excluded.project_directory, credentials = excluded.credentials,
         webhook_secret = excluded.webhook_secret, poll_interval_seconds = excluded.poll_interval_seconds,
         next_poll_at = excluded.next_poll_at, updated_at = excluded.updated_at,
         conflict_change_request = case when c.url = excluded.url and c.ref = excluded.ref
           then c.conflict_change_request end,
         refused_commit = null, refused_error = null`,
      [
        row.id,
        row.space_id,
        row.url,
        row.ref,
        row.project_directory,
        row.credentials,
        row.webhook_secret,
        row.poll_interval_seconds,
        row.next_poll_at,
        row.created_by,
        row.created_at,
        row.updated_at,
      ],
    );
  },

  async deleteBySpace(em: EntityManager, spaceId: string): Promise<boolean> {
    const rows = await sql<{ id: string }>(em, 'delete from :schema.git_connection where space_id = ? returning id', [
      spaceId,
    ]);
    return rows.length > 0;
  },

  async setConflict(em: EntityManager, id: string, changeRequestId: string | null): Promise<void> {
    await sqlRun(em, 'update :schema.git_connection set conflict_change_request = ? where id = ?', [
      changeRequestId,
      id,
    ]);
  },

  /** Records the remote commit the connection's sync refused (null: none), so polls skip it until the branch moves. */
  async setRefused(em: EntityManager, id: string, commit: string | null, error: string | null): Promise<void> {
    await sqlRun(em, 'update :schema.git_connection set refused_commit = ?, refused_error = ? where id = ?', [
      commit,
      error,
      id,
    ]);
  },

  /**
   * Records a webhook's delivery id (GitHub's `X-GitHub-Delivery`, Gitea's `X-Gitea-Delivery`, GitLab's
   * `X-Gitlab-Event-UUID`); false when the connection received it already (a replay). Deliveries older than
   * `keepDays` are forgotten.
   */
  async recordDelivery(
    em: EntityManager,
    connectionId: string,
    deliveryId: string,
    now: Date,
    keepDays = 30,
  ): Promise<boolean> {
    await sqlRun(
      em,
      `delete from :schema.git_hook_delivery where received_at < ?::timestamptz - make_interval(days => ?)`,
      [now, keepDays],
    );
    const rows = await sql<{ n: number }>(
      em,
      `insert into :schema.git_hook_delivery (connection_id, delivery_id, received_at) values (?, ?, ?)
       on conflict do nothing returning 1 as n`,
      [connectionId, deliveryId, now],
    );
    return rows.length > 0;
  },

  /**
   * The connections whose poll is due and whose space has no operation waiting, their next poll moved on (in the
   * claiming transaction, so two processes never poll one connection twice).
   */
  async claimDuePolls(em: EntityManager, now: Date, max: number): Promise<GitConnectionRow[]> {
    return sql<GitConnectionRow>(
      em,
      `update :schema.git_connection c set next_poll_at = ?::timestamptz + make_interval(secs => c.poll_interval_seconds)
       where c.id in (
         select id from :schema.git_connection d where d.next_poll_at <= ?
           and not exists (select 1 from :schema.git_operation o where o.space_id = d.space_id and o.state in ('pending', 'running'))
         order by d.next_poll_at limit ? for update skip locked)
       returning c.*`,
      [now, now, max],
    );
  },

  /** Keeps the space's `keep` latest ended operations (polls add one every interval), deleting older ones. */
  async pruneOperations(em: EntityManager, spaceId: string, keep: number): Promise<void> {
    await sqlRun(
      em,
      `delete from :schema.git_operation where space_id = ? and state in ('success', 'failure', 'timeout')
         and id not in (select id from :schema.git_operation where space_id = ? order by created_at desc, id desc limit ?)`,
      [spaceId, spaceId, keep],
    );
  },

  /** Whether the space has an operation waiting to run (not yet claimed). */
  async hasPendingOperation(em: EntityManager, spaceId: string): Promise<boolean> {
    const rows = await sql<{ n: number }>(
      em,
      `select 1 as n from :schema.git_operation where space_id = ? and state = 'pending' limit 1`,
      [spaceId],
    );
    return rows.length > 0;
  },

  /** The latest time an operation of the space that succeeded was triggered at (GitBook's `timestamp`). */
  async latestAppliedTimestamp(em: EntityManager, spaceId: string): Promise<Date | null> {
    const rows = await sql<{ at: Date | null }>(
      em,
      `select max((params->>'timestamp')::timestamptz) as at from :schema.git_operation
       where space_id = ? and state = 'success' and params->>'timestamp' is not null`,
      [spaceId],
    );
    return rows[0]?.at ?? null;
  },

  async insertRevision(em: EntityManager, row: GitRevisionRow, now: Date): Promise<void> {
    await sqlRun(
      em,
      `insert into :schema.git_revision (revision_id, space_id, oid, message, url, ref, created_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (revision_id) do nothing`,
      [row.revision_id, row.space_id, row.oid, row.message, row.url, row.ref, now],
    );
  },
};
