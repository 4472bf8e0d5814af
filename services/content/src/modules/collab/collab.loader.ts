import { notFound } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { loadChangeRequestFor } from '../change-requests/change-request.loader.ts';
import type { IChangeRequest } from '../change-requests/change-request.entity.ts';
import type { ISpace } from '../spaces/space.entity.ts';
import { spacePolicy } from '../spaces/space.policy.ts';

/** A live document: one page of one change request of a space. */
export interface CollabDocumentIds {
  spaceId: string;
  changeRequestId: string;
  pageId: string;
}

const ID = '[A-Za-z0-9_-]{1,64}';
const NAME = new RegExp(`^spaces/(${ID})/change-requests/(${ID})/page/(${ID})$`);

/** The document name of a page of a change request, as providers ask for it. */
export const collabDocumentName = (ids: CollabDocumentIds) =>
  `spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}/page/${ids.pageId}`;

/** The ids a document name stands for (null: not a name this server serves). */
export function parseCollabDocumentName(name: string): CollabDocumentIds | null {
  const m = NAME.exec(name);
  return m ? { spaceId: m[1]!, changeRequestId: m[2]!, pageId: m[3]! } : null;
}

export interface CollabAccess {
  space: ISpace;
  changeRequest: IChangeRequest;
  /** `write` for who may edit the change request's content, `read` for who may only see it. */
  mode: 'write' | 'read';
}

/**
 * What the caller may do on a live document: see it (the space's `view`, else 404/403 as the API answers) and, with
 * `edit` on a live, unlocked space whose change request is not merged, write to it. The change request is named by
 * its id only (not its number), so that one page has one live document.
 */
export async function loadCollabAccess(
  ctx: Pick<ContentContext, 'em' | 'actor'>,
  ids: CollabDocumentIds,
): Promise<CollabAccess> {
  const { space, facts, changeRequest } = await loadChangeRequestFor(ctx, ids, 'view');
  if (changeRequest.id !== ids.changeRequestId) throw notFound('Change request');
  const editable = !space.deletedAt && space.editMode !== 'locked' && changeRequest.status !== 'merged';
  const mode = editable && spacePolicy.allows(ctx.actor, facts, 'edit') ? 'write' : 'read';
  return { space, changeRequest, mode };
}
