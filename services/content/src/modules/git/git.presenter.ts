import type { GitConnection, GitSyncCommit, GitSyncState } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { GitConnectionRow, GitRevisionRow } from './git-connection.repository.ts';
import type { GitOperationRow, GitSyncRow } from './git-sync.repository.ts';

const repoNameOf = (url: string) =>
  url
    .replace(/\/+$/, '')
    .split('/')
    .at(-1)!
    .replace(/\.git$/, '');

/** GitBook's provider of a remote, from its host (GitBook's enum has no value for other Git servers: none). */
export function providerOf(url: string): 'github' | 'gitlab' | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  const first = host.split('.')[0] ?? '';
  if (host === 'github.com' || host.endsWith('.github.com') || first.startsWith('github')) return 'github';
  if (host === 'gitlab.com' || host.endsWith('.gitlab.com') || first.startsWith('gitlab')) return 'gitlab';
  return undefined;
}

/** GitBook's GitSyncState of a space: its Git Sync (or, before one succeeded, the remote of its latest operation). */
export function presentGitSyncState(
  sync: GitSyncRow | null,
  op: GitOperationRow | null,
  timeoutMs: number,
  connection: GitConnectionRow | null = null,
): GitSyncState {
  const url = sync?.tree_url ?? sync?.url ?? op?.url ?? connection!.url;
  const state = op ? (op.state === 'pending' ? 'running' : op.state) : undefined;
  const remote = sync?.url ?? op?.url ?? connection!.url;
  const provider = providerOf(remote);
  return {
    repoName: repoNameOf(remote),
    installationStatus: sync ? 'active' : 'pending',
    ...(provider ? { installationProvider: provider } : {}),
    installationId: sync?.id ?? op?.id ?? connection!.id,
    url,
    ...(op && state
      ? {
          operation: {
            state,
            direction: op.direction,
            startedAt: new Date(op.created_at).toISOString(),
            ...(op.ended_at ? { endedAt: new Date(op.ended_at).toISOString() } : {}),
            ...(op.error ? { error: op.error } : {}),
            ...(op.progress && op.state === 'running' ? { progress: op.progress } : {}),
          },
        }
      : {}),
    operationTimeout: timeoutMs,
    updatedAt: new Date(sync?.updated_at ?? op?.created_at ?? connection!.created_at).toISOString(),
    sync: presentContinuousSync(sync, op, connection),
  };
}

function presentContinuousSync(
  sync: GitSyncRow | null,
  op: GitOperationRow | null,
  connection: GitConnectionRow | null,
): NonNullable<GitSyncState['sync']> {
  const failed = op?.state === 'failure' || op?.state === 'timeout';
  const state =
    op?.state === 'pending' || op?.state === 'running'
      ? 'syncing'
      : connection?.conflict_change_request
        ? 'conflict'
        : failed
          ? 'error'
          : sync?.last_commit
            ? 'in-sync'
            : 'not-synced';
  return {
    connected: connection !== null,
    state,
    ...(sync?.last_commit
      ? { lastCommit: sync.last_commit, lastSyncedAt: new Date(sync.updated_at).toISOString() }
      : {}),
    ...(failed && op.error ? { lastError: op.error } : {}),
    ...(connection?.conflict_change_request ? { changeRequestId: connection.conflict_change_request } : {}),
  };
}

/** A space's connection as its API shows it: never its credentials nor its webhook secret. */
export function presentGitConnection(urls: PublicUrls, c: GitConnectionRow): GitConnection {
  return {
    object: 'git-connection',
    id: c.id,
    url: c.url,
    ref: c.ref,
    repoProjectDirectory: c.project_directory,
    pollInterval: c.poll_interval_seconds,
    hasCredentials: c.credentials !== null,
    webhookURL: urls.api(`/git/hooks/${c.id}`),
    hasWebhookSecret: c.webhook_secret !== null,
    createdAt: new Date(c.created_at).toISOString(),
    updatedAt: new Date(c.updated_at).toISOString(),
  };
}

/** GitBook's `git` of a revision Git Sync imported (undefined for any other revision). */
export function presentGitCommit(row: GitRevisionRow | null): GitSyncCommit | undefined {
  if (!row) return undefined;
  return { oid: row.oid, message: row.message, createdByGitBook: false, url: row.url, ref: row.ref };
}
