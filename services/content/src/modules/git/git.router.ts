import { ops } from '@quire/contracts';
import { notFound, secretBoxOf } from '@quire/kit';
import { assertEditable } from '../../commands/edit-state.ts';
import { gitOperationQueuer } from '../../commands/git-sync-writer.ts';
import { implement, type ContentContext } from '../../trpc.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import { requestRemote } from './git-http.ts';
import { GIT_LIMITS } from './git-limits.ts';
import { gitConnectionProcedures } from './git-connection.router.ts';
import { presentGitSyncState } from './git.presenter.ts';
import { gitSyncRepository, type GitOperationParams } from './git-sync.repository.ts';

interface RemoteInput extends GitOperationParams {
  spaceId: string;
  url: string;
  ref: string;
}

/** The remote of a request: its URL (http or https) apart from its credentials, sealed when there are some. */
function remoteOf(ctx: ContentContext, input: RemoteInput) {
  const { url, credentials } = requestRemote(input);
  const sealed = credentials ? secretBoxOf(ctx.config).seal(credentials, `git:${input.spaceId}`) : null;
  return { url, sealed };
}

const paramsOf = (input: RemoteInput & { commitMessage?: string }): GitOperationParams => ({
  commitMessage: input.commitMessage,
  force: input.force,
  standalone: input.standalone,
  repoTreeURL: input.repoTreeURL,
  repoCommitURL: input.repoCommitURL,
  repoProjectDirectory: input.repoProjectDirectory,
  timestamp: input.timestamp,
});

/** Git Sync (GitBook's `space-git` operations): imports and exports are queued for the `content-git-sync` job. */
export const gitProcedures = {
  importGitRepository: implement(ops.importGitRepository, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitImport');
    if (!input.standalone) assertEditable(space);
    const { url, sealed } = remoteOf(ctx, input);
    await gitOperationQueuer(ctx.em, {
      spaceId: space.id,
      direction: 'import',
      url,
      ref: input.ref,
      sealedCredentials: sealed,
      params: paramsOf(input),
      userId: ctx.actor.userId,
    });
  }),

  exportToGitRepository: implement(ops.exportToGitRepository, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitExport');
    const { url, sealed } = remoteOf(ctx, input);
    await gitOperationQueuer(ctx.em, {
      spaceId: space.id,
      direction: 'export',
      url,
      ref: input.ref,
      sealedCredentials: sealed,
      params: paramsOf(input),
      userId: ctx.actor.userId,
    });
  }),

  getSpaceGitInfo: implement(ops.getSpaceGitInfo, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'gitInfo');
    const { op, sync, connection } = await gitSyncRepository.stateOf(ctx.em, space.id);
    if (!sync && !op && !connection) throw notFound('No Git Sync is set up on this space');
    return presentGitSyncState(sync, op, GIT_LIMITS.timeoutMs, connection);
  }),

  ...gitConnectionProcedures,
};
