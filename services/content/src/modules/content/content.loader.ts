import type { ContentContext } from '../../trpc.ts';
import { changeRequestRepository } from '../change-requests/change-request.repository.ts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import { revisionRepository } from '../revisions/revision.repository.ts';
import type { RevisionTree } from '../revisions/revision-tree.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { loadSpaceFor } from '../spaces/space.loader.ts';
import type { SpaceAction } from '../spaces/space.policy.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/** Which revision a read is about: the space's live one, a change request's, or one given by id. */
export type RevisionSelector = { spaceId: string } & ({ changeRequestId: string } | { revisionId: string } | object);

export interface LoadedRevision {
  space: ISpace;
  changeRequest: IChangeRequest | undefined;
  tree: RevisionTree;
}

/** The revision the caller may read (the space's `view`, or another action on its content such as `export`), with its tree. */
export async function loadRevisionFor(ctx: Ctx, sel: RevisionSelector, action: SpaceAction = 'view'): Promise<LoadedRevision> {
  const { space } = await loadSpaceFor(ctx, sel.spaceId, action);
  let changeRequest: IChangeRequest | undefined;
  let revisionId = space.revisionId;
  if ('changeRequestId' in sel) {
    changeRequest = await changeRequestRepository.findInSpace(ctx.em, space.id, sel.changeRequestId);
    revisionId = changeRequest.revisionId;
  } else if ('revisionId' in sel) {
    revisionId = sel.revisionId;
  }
  return { space, changeRequest, tree: await revisionRepository.treeInSpace(ctx.em, space.id, revisionId) };
}
