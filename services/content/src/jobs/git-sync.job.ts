import { ops } from '@quire/contracts';
import { newId, secretBoxOf, type JobDefinition, type ServiceDeps } from '@quire/kit';
import type { ContentConfig } from '../env.ts';
import { GIT_SYNC_JOB, runWaitingGitOperations } from '../modules/git/git-sync-runner.ts';
import { gitLimitsOf, gitPrivateHostsOf } from '../modules/git/git-limits.ts';
import { parseSettingsOf, textParser } from '../modules/parsing/text-parser.ts';

/** Every `QUIRE_GIT_SCAN_EVERY_MS` (and at start): runs the Git Sync imports and exports queued by the API. */
export function gitSyncJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  const parser = textParser(parseSettingsOf(deps.config));
  const limits = gitLimitsOf(deps.config);
  const privateHosts = gitPrivateHostsOf(deps.config);
  // An export's commit is authored by the member who asked for it, by name and e-mail (org-admin's directory).
  // Without an answer (org-admin unreachable), the commit names the member's id (`<id>@users.quire.invalid`).
  const authorOf = async (userId: string) => {
    try {
      const { items } = await deps.peers.asService(ops.getUsersByIds, { ids: [userId] }, `git-sync-${newId()}`);
      const user = items[0];
      return user?.email ? { name: user.displayName || user.email, email: user.email } : null;
    } catch (err) {
      deps.log.warn({ user: userId, error: (err as Error).message }, 'git sync: the commit author was not found');
      return null;
    }
  };
  const box =
    deps.config.QUIRE_SECRETS_KEY || deps.config.QUIRE_SECRETS_PREVIOUS_KEYS.length ? secretBoxOf(deps.config) : null;
  return {
    name: GIT_SYNC_JOB,
    everyMs: 1_000,
    maxAttempts: 5,
    // Each operation stops at its own limit (QUIRE_GIT_TIMEOUT_MS); a run works up to five of them.
    timeoutMs: Math.max(300_000, limits.timeoutMs * 5 + 60_000),
    run: async () => {
      await runWaitingGitOperations({
        em: deps.orm.em.fork(),
        blobs: deps.blobs,
        box,
        limits,
        allowPrivate: deps.config.QUIRE_ALLOW_PRIVATE_FETCH,
        allowPublic: deps.config.QUIRE_OUTBOUND_FETCH,
        privateHosts,
        authorOf,
        parse: () => parser.session(limits.timeoutMs),
        log: deps.log,
      });
    },
  };
}
