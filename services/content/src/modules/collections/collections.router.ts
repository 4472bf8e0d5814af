import { ops } from '@quire/contracts';
import { implement } from '../../trpc.ts';
import { collectionCreator } from '../../commands/collection-creator.ts';
import { collectionDeleter } from '../../commands/collection-deleter.ts';
import { collectionMover } from '../../commands/collection-mover.ts';
import { collectionRestorer } from '../../commands/collection-restorer.ts';
import { collectionTransferrer } from '../../commands/collection-transferrer.ts';
import { collectionUpdater } from '../../commands/collection-updater.ts';
import { grantRepository } from '../permissions/grant.repository.ts';
import { loadVisibleSpaces } from '../spaces/space.loader.ts';
import { presentSpacesIn } from '../spaces/space.presenter.ts';
import {
  loadCollectionFor,
  loadCollectionToTransfer,
  loadContainerToCreateIn,
  loadDeletedCollectionToRestore,
  loadMoveDestination,
  loadRestorableCollections,
  loadVisibleCollections,
} from './collection.loader.ts';
import { presentCollection, presentCollectionsIn, presentDeletedCollections } from './collection.presenter.ts';

export const collectionProcedures = {
  listCollectionsInOrganizationById: implement(ops.listCollectionsInOrganizationById, async ({ input, ctx }) => {
    const { tree, page } = await loadVisibleCollections(ctx, input);
    return { ...page, items: page.items.map(presentCollectionsIn(ctx, tree)) };
  }),

  createCollection: implement(ops.createCollection, async ({ input, ctx }) => {
    const facts = await loadContainerToCreateIn(ctx, input.organizationId, input.parent);
    const collection = await collectionCreator(ctx.em, {
      organizationId: input.organizationId,
      parentId: input.parent ?? null,
      title: input.title,
    });
    return presentCollection(ctx, collection, facts);
  }),

  getCollectionById: implement(ops.getCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'view');
    return presentCollection(ctx, collection, facts);
  }),

  updateCollectionById: implement(ops.updateCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'update');
    return presentCollection(ctx, await collectionUpdater(ctx.em, { ...input, collection }), facts);
  }),

  deleteCollectionById: implement(ops.deleteCollectionById, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'delete');
    await collectionDeleter(ctx.em, { collection, by: ctx.actor.userId });
  }),

  restoreCollection: implement(ops.restoreCollection, async ({ input, ctx }) => {
    const { deleted, parentId, facts } = await loadDeletedCollectionToRestore(ctx, input.collectionId);
    return presentCollection(ctx, await collectionRestorer(ctx.em, { deleted, parentId }), facts);
  }),

  listDeletedCollections: implement(ops.listDeletedCollections, async ({ input, ctx }) =>
    presentDeletedCollections(ctx, await loadRestorableCollections(ctx, input)),
  ),

  listSpacesInCollectionById: implement(ops.listSpacesInCollectionById, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'view');
    const { tree, page } = await loadVisibleSpaces(ctx, collection.organizationId, input, collection.id);
    return { ...page, items: page.items.map(presentSpacesIn(ctx, tree)) };
  }),

  moveCollection: implement(ops.moveCollection, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'move');
    const dest = await loadMoveDestination(
      ctx,
      {
        organizationId: collection.organizationId,
        currentParentId: collection.parentId,
        parent: input.parent,
        position: input.position,
      },
      facts,
    );
    return presentCollection(
      ctx,
      await collectionMover(ctx.em, { collection, parentId: dest.parentId, position: input.position }),
      dest.facts,
    );
  }),

  transferCollection: implement(ops.transferCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionToTransfer(ctx, input.collectionId, input.organization);
    const transferred = await collectionTransferrer(ctx.em, { collection, organizationId: input.organization });
    return presentCollection(ctx, transferred, await grantRepository.factsOf(ctx.em, 'collection', transferred));
  }),
};
