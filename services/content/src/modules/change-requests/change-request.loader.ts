import type { ContentContext } from '../../trpc.ts';
import { loadSpaceFor, type LoadedSpace } from '../spaces/space.loader.ts';
import type { SpaceAction } from '../spaces/space.policy.ts';
import type { IChangeRequest } from './change-request.entity.ts';
import { changeRequestRepository } from './change-request.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/**
 * A change request of a space the caller may `action` on: the space's policy decides (change requests have
 * no access rules of their own), then the change request is found by id or number (404 otherwise).
 */
export async function loadChangeRequestFor(ctx: Ctx, ids: { spaceId: string; changeRequestId: string }, action: SpaceAction): Promise<LoadedSpace & { changeRequest: IChangeRequest }> {
  const loaded = await loadSpaceFor(ctx, ids.spaceId, action);
  return { ...loaded, changeRequest: await changeRequestRepository.findInSpace(ctx.em, ids.spaceId, ids.changeRequestId) };
}
