import { ops } from '@quire/contracts';
import { gitOperationQueuer } from '../../commands/git-sync-writer.ts';
import { implement } from '../../trpc.ts';
import { gitConnectionProcedures } from './git-connection.router.ts';
import { loadGitRequest, loadGitSyncState } from './git.loader.ts';
import { presentGitSyncState } from './git.presenter.ts';

/** Git Sync (GitBook's `space-git` operations): imports and exports are queued for the `content-git-sync` job. */
export const gitProcedures = {
  importGitRepository: implement(ops.importGitRepository, async ({ input, ctx }) => {
    const request = await loadGitRequest(ctx, input, 'gitImport');
    await gitOperationQueuer(ctx.em, { ...request, direction: 'import', ref: input.ref, userId: ctx.actor.userId });
  }),

  exportToGitRepository: implement(ops.exportToGitRepository, async ({ input, ctx }) => {
    const request = await loadGitRequest(ctx, input, 'gitExport');
    await gitOperationQueuer(ctx.em, { ...request, direction: 'export', ref: input.ref, userId: ctx.actor.userId });
  }),

  getSpaceGitInfo: implement(ops.getSpaceGitInfo, async ({ input, ctx }) => {
    const { op, sync, connection } = await loadGitSyncState(ctx, input.spaceId);
    return presentGitSyncState(sync, op, ctx.config.QUIRE_GIT_TIMEOUT_MS, connection);
  }),

  ...gitConnectionProcedures,
};
