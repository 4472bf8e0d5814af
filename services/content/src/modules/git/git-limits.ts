import type { ContentConfig } from '../../env.ts';
import { privateHostsOf, type PrivateHosts } from './git-http.ts';
import type { GitLimits } from './git-remote.ts';

const MiB = 1024 * 1024;

/**
 * Limits of a Git Sync operation (docs/git-sync.md#security-and-limits). The fetch is checked from the pack's object
 * headers as it streams in (bytes on the wire, object count, each object and all objects inflated), before
 * isomorphic-git inflates anything; the project directory's tree before any file is read (paths, entries per
 * folder, depth, file count, each file's and all files' sizes); the whole operation against `timeoutMs`.
 */
export const GIT_LIMITS: GitLimits = {
  maxFetchBytes: 1024 * MiB,
  maxInflatedBytes: 1024 * MiB,
  maxObjects: 200_000,
  maxFileBytes: 25 * MiB,
  maxFiles: 10_000,
  maxProjectBytes: 512 * MiB,
  maxTreeEntries: 10_000,
  maxPathBytes: 1_024,
  maxDepth: 32,
  timeoutMs: 120_000,
};

/** The limits an instance sets (`QUIRE_GIT_*`), the others as `GIT_LIMITS`. */
export function gitLimitsOf(
  config: Pick<
    ContentConfig,
    | 'QUIRE_GIT_MAX_FILE_BYTES'
    | 'QUIRE_GIT_MAX_PROJECT_BYTES'
    | 'QUIRE_GIT_MAX_FETCH_BYTES'
    | 'QUIRE_GIT_MAX_INFLATED_BYTES'
    | 'QUIRE_GIT_TIMEOUT_MS'
  >,
): GitLimits {
  return {
    ...GIT_LIMITS,
    maxFileBytes: config.QUIRE_GIT_MAX_FILE_BYTES,
    maxProjectBytes: config.QUIRE_GIT_MAX_PROJECT_BYTES,
    maxFetchBytes: config.QUIRE_GIT_MAX_FETCH_BYTES,
    maxInflatedBytes: config.QUIRE_GIT_MAX_INFLATED_BYTES,
    timeoutMs: config.QUIRE_GIT_TIMEOUT_MS,
  };
}

/** The Git hosts an instance allows on loopback or private addresses (`QUIRE_GIT_PRIVATE_HOSTS`). */
export const gitPrivateHostsOf = (config: Pick<ContentConfig, 'QUIRE_GIT_PRIVATE_HOSTS'>): PrivateHosts =>
  privateHostsOf(config.QUIRE_GIT_PRIVATE_HOSTS);
