import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { spaceCreator } from '../../commands/space-creator.ts';
import { spaceDuplicator } from '../../commands/space-duplicator.ts';
import { spaceMover } from '../../commands/space-mover.ts';
import { spaceTransferrer } from '../../commands/space-transferrer.ts';
import { spaceDeleter, spaceRestorer } from '../../commands/space-trash.ts';
import { spaceUpdater } from '../../commands/space-updater.ts';
import { loadContainerToCreateIn, loadMoveDestination } from '../collections/collection.loader.ts';
import { grantRepository } from '../permissions/grant.repository.ts';
import {
  loadMemberSpaceCounts,
  loadMemberSpaces,
  loadRestorableSpaces,
  loadSharedUrl,
  loadSpaceFor,
  loadSpaceToTransfer,
  loadVisibleSpaces,
} from './space.loader.ts';
import {
  presentDeletedSpaces,
  presentMemberSpaces,
  presentSharedSpace,
  presentSpace,
  presentSpacesIn,
} from './space.presenter.ts';

/** Lists are in tree order: siblings by order key, pagination by `(order, id)` (modules/tree/sibling-order.ts). */
export const spaceProcedures = {
  listSpaces: implement(ops.listSpaces, async ({ input, ctx }) => {
    const { tree, page } = await loadVisibleSpaces(ctx, input.organizationId, input);
    return { ...page, items: page.items.map(presentSpacesIn(ctx, tree)) };
  }),

  createSpace: implement(ops.createSpace, async ({ input, ctx }) => {
    const facts = await loadContainerToCreateIn(ctx, input.organizationId, input.parent);
    return presentSpace(ctx, await spaceCreator(ctx.em, { ...input, parentId: input.parent ?? null }), facts);
  }),

  getSpaceById: implement(ops.getSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'view');
    // A share key opens the space on a `share-link` site: the sites service says where (null: it opens nothing).
    return presentSharedSpace(ctx, space, facts, await loadSharedUrl(ctx, space.id, input.shareKey));
  }),

  updateSpaceById: implement(ops.updateSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'update');
    return presentSpace(ctx, await spaceUpdater(ctx.em, { ...input, space }), facts);
  }),

  deleteSpaceById: implement(ops.deleteSpaceById, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'delete');
    await spaceDeleter(ctx.em, { space, by: ctx.actor.userId });
  }),

  restoreSpace: implement(ops.restoreSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'restore');
    return presentSpace(ctx, await spaceRestorer(ctx.em, { space }), facts);
  }),

  listDeletedSpaces: implement(ops.listDeletedSpaces, async ({ input, ctx }) =>
    presentDeletedSpaces(ctx, await loadRestorableSpaces(ctx, input)),
  ),

  duplicateSpace: implement(ops.duplicateSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'duplicate');
    const facts = await loadContainerToCreateIn(ctx, space.organizationId, space.parentId);
    return presentSpace(ctx, await spaceDuplicator(ctx.em, { source: space }), facts);
  }),

  moveSpace: implement(ops.moveSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'move');
    const dest = await loadMoveDestination(
      ctx,
      {
        organizationId: space.organizationId,
        currentParentId: space.parentId,
        parent: input.parent,
        position: input.position,
      },
      facts,
    );
    return presentSpace(
      ctx,
      await spaceMover(ctx.em, { space, parentId: dest.parentId, position: input.position }),
      dest.facts,
    );
  }),

  transferSpace: implement(ops.transferSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceToTransfer(ctx, input.spaceId, input.organization);
    const transferred = await spaceTransferrer(ctx.em, { space, organizationId: input.organization });
    return presentSpace(ctx, transferred, await grantRepository.factsOf(ctx.em, 'space', transferred));
  }),

  listSpacesForOrganizationMember: implement(ops.listSpacesForOrganizationMember, async ({ input, ctx }) =>
    presentMemberSpaces(ctx, await loadMemberSpaces(ctx, input)),
  ),

  countMemberSpaces: implement(ops.countMemberSpaces, async ({ input, ctx }) => ({
    counts: await loadMemberSpaceCounts(ctx, input),
  })),
};
