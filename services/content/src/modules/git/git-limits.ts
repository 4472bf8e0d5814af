import type { GitLimits } from './git-remote.ts';

/**
 * Limits of a Git Sync operation: bytes read from the remote (the repository's size, compressed), files in the
 * tree, bytes of one file (the platform's own file limit is 1 MiB; markdown pages fit well under it), time.
 */
export const GIT_LIMITS: GitLimits = {
  maxRepoBytes: 100 * 1024 * 1024,
  maxFiles: 5_000,
  maxFileBytes: 1024 * 1024,
  timeoutMs: 120_000,
};
