import { ops, type RevisionSemanticChange } from '@quire/contracts';
import { implement, implementPrepared } from '../../trpc.ts';
import { changeRequestMerger, changeRequestRebaser } from '../../commands/change-request-merger.ts';
import { contentEditor, MAX_FILE_BYTES } from '../../commands/content-editor.ts';
import { presentFile } from '../content/content.presenter.ts';
import { prefetchFiles } from '../content/remote-file.ts';
import { diffTrees, limitChanges } from '../merge/index.ts';
import { documentRepository } from '../revisions/document.repository.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import type { RevisionTree } from '../revisions/revision-tree.ts';
import { mergeBaseOf } from './change-request.entity.ts';
import { loadChangeRequestFor } from './change-request.loader.ts';
import { presentChangeRequest } from './change-request.presenter.ts';

type Ctx = Parameters<Parameters<typeof implement>[1]>[0]['ctx'];

const treeOf = async (ctx: Pick<Ctx, 'em'>, spaceId: string, revisionId: string) => revisionRepository.treeInSpace(ctx.em, spaceId, revisionId);

/** File changes between two trees, in GitBook's shapes. */
function fileChanges(ctx: Ctx, base: RevisionTree, head: RevisionTree): RevisionSemanticChange[] {
  const out: RevisionSemanticChange[] = [];
  const ref = (f: Parameters<typeof presentFile>[1]) => {
    const { id, name, contentType, downloadURL } = presentFile(ctx, f);
    return { id, name, contentType, downloadURL };
  };
  for (const [id, f] of head.files) {
    const before = base.files.get(id);
    if (!before) out.push({ type: 'file_created', file: ref(f) });
    else if (before.blobKey !== f.blobKey || before.name !== f.name || before.contentType !== f.contentType) {
      out.push({
        type: 'file_edited',
        file: ref(f),
        attributes: {
          ...(before.name !== f.name ? { name: { before: before.name, after: f.name } } : {}),
          ...(before.contentType !== f.contentType ? { contentType: { before: before.contentType, after: f.contentType } } : {}),
          ...(before.size !== f.size ? { size: { before: before.size, after: f.size } } : {}),
        },
      });
    }
  }
  for (const [id, f] of base.files) if (!head.files.has(id)) out.push({ type: 'file_deleted', file: ref(f) });
  return out;
}

export const changeRequestContentProcedures = {
  updateChangeRequestContent: implementPrepared(
    ops.updateChangeRequestContent,
    async ({ input, ctx }) => {
      // Access first (nothing is fetched for a caller who may not edit), then the files given by URL.
      await loadChangeRequestFor(ctx, input, 'edit');
      return prefetchFiles(ctx.config, input.changes, MAX_FILE_BYTES + 1);
    },
    async ({ input, ctx, prepared: fetchFile }) => {
      const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'edit');
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
      });
      return presentChangeRequest(ctx, space, updated);
    },
  ),

  getChangeRequestChanges: implement(ops.getChangeRequestChanges, async ({ input, ctx }) => {
    const { space, changeRequest } = await loadChangeRequestFor(ctx, input, 'view');
    const [base, head] = await Promise.all([treeOf(ctx, space.id, mergeBaseOf(changeRequest)), treeOf(ctx, space.id, changeRequest.revisionId)]);
    // Conflicts kept by the last update (the head) or, once merged, by the merge.
    const marks = changeRequest.revisionMerged ? (await revisionRepository.findInSpace(ctx.em, space.id, changeRequest.revisionMerged)).conflicts : head.revision.conflicts;
    const conflicted = new Set(marks.map((c) => c.pageId));
    const pages = await diffTrees(base.pages, head.pages, (hash) => documentRepository.get(ctx.em, hash));
    const marked = pages.map((c) => ('page' in c && conflicted.has(c.page.id) ? { ...c, page: { ...c.page, conflicted: true } } : c));
    return limitChanges([...marked, ...fileChanges(ctx, base, head)], input.limit ?? 1000);
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
