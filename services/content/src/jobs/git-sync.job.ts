import { secretBoxOf, type JobDefinition, type ServiceDeps } from '@quire/kit';
import type { ContentConfig } from '../env.ts';
import { GIT_SYNC_JOB, runWaitingGitOperations } from '../modules/git/git-sync-runner.ts';
import { GIT_LIMITS } from '../modules/git/git-limits.ts';
import { parseSettingsOf, textParser } from '../modules/parsing/text-parser.ts';

/** Every `QUIRE_GIT_SCAN_EVERY_MS` (and at start): runs the Git Sync imports and exports queued by the API. */
export function gitSyncJob(deps: ServiceDeps<ContentConfig>): JobDefinition {
  const parser = textParser(parseSettingsOf(deps.config));
  const box =
    deps.config.QUIRE_SECRETS_KEY || deps.config.QUIRE_SECRETS_PREVIOUS_KEYS.length ? secretBoxOf(deps.config) : null;
  return {
    name: GIT_SYNC_JOB,
    everyMs: 1_000,
    maxAttempts: 5,
    timeoutMs: 300_000,
    run: async () => {
      await runWaitingGitOperations({
        em: deps.orm.em.fork(),
        blobs: deps.blobs,
        box,
        limits: GIT_LIMITS,
        allowPrivate: deps.config.QUIRE_ALLOW_PRIVATE_FETCH,
        allowPublic: deps.config.QUIRE_OUTBOUND_FETCH,
        parse: () => parser.session(GIT_LIMITS.timeoutMs),
        log: deps.log,
      });
    },
  };
}
