import { ops } from '@quire/contracts';
import { gitConnectionDeleter, gitConnectionWriter, gitHookQueuer } from '../../commands/git-connection-writer.ts';
import { implement } from '../../trpc.ts';
import { loadGitConnection, loadGitConnectionUpdate, loadSignedGitHook } from './git.loader.ts';
import { presentGitConnection } from './git.presenter.ts';

/**
 * Continuous Git Sync (Quire-specific `…/git/connection`): a space connected to a repository+ref is kept in step
 * by the `content-git-sync` job. Connecting imports and merges into main, so it takes the role that merges
 * (`review`, as an import); reading it, `read` (as getSpaceGitInfo).
 */
export const gitConnectionProcedures = {
  getSpaceGitConnection: implement(ops.getSpaceGitConnection, async ({ input, ctx }) => {
    const { connection } = await loadGitConnection(ctx, input.spaceId, 'gitInfo');
    return presentGitConnection(ctx.urls, connection);
  }),

  updateSpaceGitConnection: implement(ops.updateSpaceGitConnection, async ({ input, ctx }) => {
    const { space, ...update } = await loadGitConnectionUpdate(ctx, input);
    const saved = await gitConnectionWriter(ctx.em, {
      ...update,
      spaceId: space.id,
      ref: input.ref,
      pollInterval: input.pollInterval,
      initialSync: input.initialSync,
      userId: ctx.actor.userId,
    });
    return presentGitConnection(ctx.urls, saved);
  }),

  deleteSpaceGitConnection: implement(ops.deleteSpaceGitConnection, async ({ input, ctx }) => {
    const { space } = await loadGitConnection(ctx, input.spaceId, 'gitImport');
    await gitConnectionDeleter(ctx.em, { spaceId: space.id });
  }),

  /** `POST /v1/git/hooks/{connectionId}`: a push webhook, signed with the connection's secret, queues a sync. */
  importGitHook: implement(ops.importGitHook, async ({ input, ctx }) => {
    const hook = await loadSignedGitHook(ctx, input);
    return gitHookQueuer(ctx.em, hook);
  }),
};
