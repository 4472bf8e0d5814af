import type { Role } from '@quire/contracts';
import { notFound } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import type { ISpace } from './space.entity.ts';
import { spacePolicy, type SpaceAccessFacts, type SpaceAction } from './space.policy.ts';
import { spaceRepository } from './space.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;

/** Actions on a live space only: a deleted one must be restored first (404 that says so). */
const LIVE_ONLY: ReadonlySet<SpaceAction> = new Set(['search', 'update', 'duplicate', 'move', 'transfer', 'edit', 'review', 'merge', 'import', 'comment']);

export interface LoadedSpace {
  space: ISpace;
  facts: SpaceAccessFacts;
  role: Role;
}

/**
 * The space the caller may `action` on, with its access facts and the caller's role: 404 when it does not
 * exist or is not visible, 403 when the role is too low. A deleted space (until purged) answers the actions
 * that make sense in the trash (view, delete, restore).
 */
export async function loadSpaceFor(ctx: Ctx, spaceId: string, action: SpaceAction): Promise<LoadedSpace> {
  const space = await spaceRepository.findById(ctx.em, spaceId);
  if (!space) throw notFound('Space');
  const facts = await collectionRepository.factsOf(ctx.em, space);
  if (space.deletedAt && LIVE_ONLY.has(action)) {
    spacePolicy.assert(ctx.actor, facts, 'view');
    throw notFound('Space (it is deleted: restore it first)');
  }
  return { space, facts, role: spacePolicy.assert(ctx.actor, facts, action) };
}
