import { ops, type Actor, type ContentChange } from '@quire/contracts';
import type { TestService } from '@quire/kit/testing';
import { changeRequestCreator } from '../../commands/change-request-writer.ts';
import { contentEditor } from '../../commands/content-editor.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { Space } from '../spaces/space.entity.ts';

/**
 * Test helper: applies changes to a space through a change request merged into it; resolves to the merged revision.
 * The change request is written with the content engine's commands (their operations present users, which org-admin
 * serves, absent from a content-only test); the merge is the operation, with its `space.content-updated`.
 */
export async function mergeChanges(t: TestService, spaceId: string, changes: ContentChange[], as: Actor): Promise<string> {
  const userId = as.kind === 'user' ? as.userId : 'system';
  const cr = await t.em().transactional(async (tx) => {
    const space = await tx.findOneOrFail(Space, { id: spaceId });
    const created = await changeRequestCreator(tx, { space, createdBy: userId, subject: 'Edit' });
    const head = await revisionRepository.treeInSpace(tx, spaceId, created.revisionId);
    const revertTarget = () => Promise.reject(new Error('no revert in this helper'));
    const fetchFile = () => Promise.reject(new Error('no fetch in this helper'));
    return contentEditor(tx, { space, changeRequest: created, head, changes, userId, blobs: t.svc.deps.blobs, revertTarget, fetchFile });
  });
  return (await t.call(ops.mergeChangeRequest, { spaceId, changeRequestId: cr.id }, as)).revision;
}

/** An `insert_page` change with a markdown document. */
export const insertPage = (title: string, markdown: string, extra: Partial<Extract<ContentChange, { operation: 'insert_page' }>> = {}): ContentChange => ({
  operation: 'insert_page',
  title,
  document: { markdown },
  ...extra,
});
