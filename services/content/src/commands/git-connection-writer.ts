import type { EntityManager } from '@quire/kit';
import { gitConnectionRepository, type GitConnectionRow } from '../modules/git/git-connection.repository.ts';
import { gitSyncRepository, type GitOperationParams } from '../modules/git/git-sync.repository.ts';
import { gitOperationQueuer } from './git-sync-writer.ts';

export const DEFAULT_POLL_INTERVAL_SECONDS = 300;
/** Ended operations a connected space keeps (for getSpaceGitInfo and `timestamp`). */
const KEPT_OPERATIONS = 50;

export interface GitConnectionWriterProps {
  spaceId: string;
  /** The current connection (null: none yet). */
  current: GitConnectionRow | null;
  url: string;
  ref: string;
  projectDirectory: string;
  /** Sealed with aad `git:<spaceId>`; undefined: keep the current ones (same URL), null: none. */
  sealedCredentials: string | null | undefined;
  /** Sealed with aad `git-hook:<connection id>`; undefined: keep the current one. */
  sealedWebhookSecret: string | undefined;
  pollInterval: number | undefined;
  initialSync: 'import' | 'export' | undefined;
  userId: string;
  now?: Date;
}

/**
 * Connects a space to a repository+ref (or changes its connection) and queues a sync: the first one when the
 * space was not synced with that repository+ref (`initialSync` decides which side wins), else a reconciliation.
 */
export async function gitConnectionWriter(
  em: EntityManager,
  props: GitConnectionWriterProps & { id: string },
): Promise<GitConnectionRow> {
  const now = props.now ?? new Date();
  const { current } = props;
  const sameRemote = current?.url === props.url && current.ref === props.ref;
  const pollInterval = props.pollInterval ?? current?.poll_interval_seconds ?? DEFAULT_POLL_INTERVAL_SECONDS;
  const row: Omit<GitConnectionRow, 'conflict_change_request' | 'refused_commit' | 'refused_error'> = {
    id: props.id,
    space_id: props.spaceId,
    url: props.url,
    ref: props.ref,
    project_directory: props.projectDirectory,
    credentials:
      props.sealedCredentials === undefined ? (sameRemote ? current.credentials : null) : props.sealedCredentials,
    webhook_secret: props.sealedWebhookSecret ?? current?.webhook_secret ?? null,
    poll_interval_seconds: pollInterval,
    next_poll_at: new Date(now.getTime() + pollInterval * 1000),
    created_by: current?.created_by ?? props.userId,
    created_at: current?.created_at ?? now,
    updated_at: now,
  };
  await gitConnectionRepository.upsert(em, row);
  const saved = (await gitConnectionRepository.findBySpace(em, props.spaceId))!;
  await gitSyncQueuer(em, {
    connection: saved,
    trigger: 'connect',
    userId: props.userId,
    ...(props.initialSync ? { initialSync: props.initialSync } : {}),
    now,
  });
  return saved;
}

/**
 * A push webhook of a connection: a sync queued when it is a push to the connection's branch (and none waits). A
 * delivery the connection received already (its delivery id) is acknowledged and does nothing.
 */
export async function gitHookQueuer(
  em: EntityManager,
  props: { connection: GitConnectionRow; ofItsBranch: boolean; deliveryId?: string | undefined; now?: Date },
): Promise<{ queued: boolean; replayed?: boolean }> {
  if (
    props.deliveryId &&
    !(await gitConnectionRepository.recordDelivery(em, props.connection.id, props.deliveryId, props.now ?? new Date()))
  )
    return { queued: false, replayed: true };
  if (!props.ofItsBranch) return { queued: false };
  return { queued: (await gitSyncQueuer(em, { connection: props.connection, trigger: 'hook' })) !== null };
}

/** Disconnects a space (its sync state and operations stay, for getSpaceGitInfo). */
export async function gitConnectionDeleter(em: EntityManager, props: { spaceId: string }): Promise<boolean> {
  return gitConnectionRepository.deleteBySpace(em, props.spaceId);
}

/**
 * A space moved to the trash: its connection is removed (no more polls; its webhook answers 404) and its operations
 * still waiting end as failed. Its sync state stays (a restored space can be connected again).
 */
export async function gitSpaceDetacher(em: EntityManager, props: { spaceId: string; now?: Date }): Promise<void> {
  await gitConnectionRepository.deleteBySpace(em, props.spaceId);
  await gitSyncRepository.endWaiting(em, props.spaceId, 'The space was deleted', props.now ?? new Date());
}

/** Spaces removed for good: everything Git Sync held of them goes (sealed credentials included). */
export async function gitSpacesForgetter(em: EntityManager, props: { spaceIds: readonly string[] }): Promise<void> {
  await gitSyncRepository.forgetSpaces(em, props.spaceIds);
}

/**
 * Queues a sync of a connection (an operation that reconciles both sides when it runs), unless one is waiting to
 * run already: it will see everything this one would. Returns its id, or null.
 */
export async function gitSyncQueuer(
  em: EntityManager,
  props: {
    connection: GitConnectionRow;
    trigger: NonNullable<GitOperationParams['trigger']>;
    userId?: string;
    initialSync?: 'import' | 'export';
    now?: Date;
  },
): Promise<string | null> {
  const c = props.connection;
  if (await gitConnectionRepository.hasPendingOperation(em, c.space_id)) return null;
  return gitOperationQueuer(em, {
    spaceId: c.space_id,
    direction: props.trigger === 'merge' || props.initialSync === 'export' ? 'export' : 'import',
    url: c.url,
    ref: c.ref,
    sealedCredentials: c.credentials,
    params: {
      trigger: props.trigger,
      ...(c.project_directory ? { repoProjectDirectory: c.project_directory } : {}),
      ...(props.initialSync ? { initialSync: props.initialSync } : {}),
    },
    userId: props.userId ?? c.created_by,
    ...(props.now ? { now: props.now } : {}),
  });
}

/** Records (or clears, `commit` null) the remote commit a connection's sync refused, and why. */
export async function gitRefusalRecorder(
  em: EntityManager,
  props: { connectionId: string; commit: string | null; error: string | null },
): Promise<void> {
  await gitConnectionRepository.setRefused(em, props.connectionId, props.commit, props.error);
}

/** Records (or clears) the change request holding the remote's side of a conflict. */
export async function gitConflictRecorder(
  em: EntityManager,
  props: { connectionId: string; changeRequestId: string | null },
): Promise<void> {
  await gitConnectionRepository.setConflict(em, props.connectionId, props.changeRequestId);
}

/** Moves due polls on and queues their syncs (in one transaction: a poll is queued once). Returns how many. */
export async function gitPollQueuer(em: EntityManager, props: { now: Date; max?: number }): Promise<number> {
  const due = await gitConnectionRepository.claimDuePolls(em, props.now, props.max ?? 20);
  for (const connection of due) {
    // A poll every interval adds an operation: the space keeps its latest 50.
    await gitConnectionRepository.pruneOperations(em, connection.space_id, KEPT_OPERATIONS);
    await gitSyncQueuer(em, { connection, trigger: 'poll', now: props.now });
  }
  return due.length;
}

/** Records GitBook's `git` of a revision an import wrote. */
export async function gitRevisionRecorder(
  em: EntityManager,
  props: { revisionId: string; spaceId: string; oid: string; message: string; url: string; ref: string; now?: Date },
): Promise<void> {
  await gitConnectionRepository.insertRevision(
    em,
    {
      revision_id: props.revisionId,
      space_id: props.spaceId,
      oid: props.oid,
      message: props.message,
      url: props.url,
      ref: props.ref,
    },
    props.now ?? new Date(),
  );
}
