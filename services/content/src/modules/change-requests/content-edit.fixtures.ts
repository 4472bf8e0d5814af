import type { ContentChange } from '@quire/contracts';
import type { TestService } from '@quire/kit/testing';
import { ChangeRequest, type IChangeRequest } from './change-request.entity.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import { Space } from '../spaces/space.entity.ts';
import { changeRequestConflictsRefresher } from '../../commands/change-request-merger.ts';
import { changeRequestCreator } from '../../commands/change-request-writer.ts';
import { contentEditor } from '../../commands/content-editor.ts';

/**
 * Test helper: a change request's content edit as the API runs it (the command in one transaction), into the change
 * request `crId`, or a new one created by `userId` (with `subject`, if given); no revert or file fetch. With
 * `refreshConflicts`, the change request's conflicts are then kept up to date, as the operation does. Resolves to the
 * change request.
 */
export function editContent(
  t: TestService,
  spaceId: string,
  crId: string | undefined,
  changes: ContentChange[],
  userId: string,
  { subject, refreshConflicts = false }: { subject?: string; refreshConflicts?: boolean } = {},
): Promise<IChangeRequest> {
  return t.em().transactional(async (tx) => {
    const space = await tx.findOneOrFail(Space, { id: spaceId });
    const changeRequest = crId
      ? await tx.findOneOrFail(ChangeRequest, { id: crId })
      : await changeRequestCreator(tx, { space, createdBy: userId, ...(subject ? { subject } : {}) });
    const head = await revisionRepository.treeInSpace(tx, spaceId, changeRequest.revisionId);
    const unused = () => Promise.reject(new Error('not used here'));
    const updated = await contentEditor(tx, {
      space,
      changeRequest,
      head,
      changes,
      userId,
      blobs: t.svc.deps.blobs,
      revertTarget: unused,
      fetchFile: unused,
    });
    if (refreshConflicts) await changeRequestConflictsRefresher(tx, { space, changeRequest: updated, before: head });
    return updated;
  });
}
