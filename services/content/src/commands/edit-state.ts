import { conflict } from '@quire/kit';
import type { IChangeRequest } from '../modules/change-requests/change-request.entity.ts';
import type { ISpace } from '../modules/spaces/space.entity.ts';

/**
 * The one edit-state guard, one 409 and one message per state: a locked space (`editMode: locked`) refuses
 * any change to its content (edits, imports, merges, updates, Git Sync); a merged change request is read-only
 * (content, subject, status, reviewers, reviews); an archived one is refused what only an open one may do
 * (`openOnly`: merge, update), reopening it first.
 */
export function assertEditable(
  space: Pick<ISpace, 'editMode'> | null,
  changeRequest?: Pick<IChangeRequest, 'status'> | null,
  { openOnly = false }: { openOnly?: boolean } = {},
): void {
  if (space?.editMode === 'locked')
    throw conflict('The space is locked (editMode `locked`): its content cannot change');
  if (changeRequest?.status === 'merged') throw conflict('The change request is merged: it can no longer change');
  if (openOnly && changeRequest?.status === 'archived')
    throw conflict('The change request is archived: reopen it to change it');
}
