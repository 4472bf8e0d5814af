import { ops } from '@quire/contracts';
import { implement, implementPrepared } from '../../trpc.ts';
import {
  changeRequestConflictsRefresher,
  changeRequestMerger,
  changeRequestRebaser,
} from '../../commands/change-request-merger.ts';
import { contentEditor, MAX_FILE_BYTES } from '../../commands/content-editor.ts';
import { prefetchFiles } from '../content/remote-file.ts';
import { parseSettingsOf, textParser } from '../parsing/text-parser.ts';
import { limitChanges } from '../merge/index.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { mergeBaseOf } from './change-request.entity.ts';
import { loadChangeRequestDiff, loadChangeRequestFor } from './change-request.loader.ts';
import { presentChangeRequest, presentFileChanges } from './change-request.presenter.ts';
import { changeRequestRepository } from './change-request.repository.ts';

type Ctx = Parameters<Parameters<typeof implement>[1]>[0]['ctx'];

const treeOf = async (ctx: Pick<Ctx, 'em'>, spaceId: string, revisionId: string) =>
  revisionRepository.treeInSpace(ctx.em, spaceId, revisionId);

export const changeRequestContentProcedures = {
  updateChangeRequestContent: implementPrepared(
    ops.updateChangeRequestContent,
    async ({ input, ctx }) => {
      // Access first (nothing is fetched for a caller who may not edit), then the files given by URL.
      await loadChangeRequestFor(ctx, input, 'edit');
      return prefetchFiles(ctx.config, input.changes, MAX_FILE_BYTES + 1);
    },
    async ({ input, ctx, prepared: fetchFile }) => {
      const loaded = await loadChangeRequestFor(ctx, input, 'edit');
      const space = loaded.space;
      // Locked, then read again: an update or another edit that committed meanwhile is built upon, not undone.
      const changeRequest = await changeRequestRepository.lock(ctx.em, loaded.changeRequest);
      const head = await treeOf(ctx, space.id, changeRequest.revisionId);
      const updated = await contentEditor(ctx.em, {
        space,
        changeRequest,
        head,
        changes: input.changes,
        userId: ctx.actor.userId,
        blobs: ctx.blobs,
        revertTarget: (revisionId) => treeOf(ctx, space.id, revisionId ?? mergeBaseOf(changeRequest)),
        fetchFile,
        parse: textParser(parseSettingsOf(ctx.config)).session(),
      });
      await changeRequestConflictsRefresher(ctx.em, { space, changeRequest: updated, before: head });
      return presentChangeRequest(ctx, space, updated);
    },
  ),

  getChangeRequestChanges: implement(ops.getChangeRequestChanges, async ({ input, ctx }) => {
    const { base, head, pages } = await loadChangeRequestDiff(ctx, input);
    return limitChanges([...pages, ...(await presentFileChanges(ctx, base, head))], input.limit ?? 1000);
  }),

  mergeChangeRequest: implement(ops.mergeChangeRequest, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'merge');
    return changeRequestMerger(ctx.em, { space, changeRequest, userId: ctx.actor.userId });
  }),

  updateChangeRequest: implement(ops.updateChangeRequest, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
    return changeRequestRebaser(ctx.em, { space, changeRequest, userId: ctx.actor.userId });
  }),
};
