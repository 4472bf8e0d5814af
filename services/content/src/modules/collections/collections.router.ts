import { ops } from '@quire/contracts';
import { paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { collectionCreator } from '../../commands/collection-creator.ts';
import { collectionDeleter } from '../../commands/collection-deleter.ts';
import { collectionMover } from '../../commands/collection-mover.ts';
import { collectionTransferrer } from '../../commands/collection-transferrer.ts';
import { collectionUpdater } from '../../commands/collection-updater.ts';
import { levelsUnder } from '../access/access.policy.ts';
import { assertCanTransfer } from '../access/organization.policy.ts';
import { Space } from '../spaces/space.entity.ts';
import { visibleSpaces } from '../spaces/space.policy.ts';
import { presentSpacesIn } from '../spaces/space.presenter.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import { resolveDestination } from '../tree/destination.ts';
import { Collection } from './collection.entity.ts';
import { loadCollectionFor, loadContainer } from './collection.loader.ts';
import { assertCanCreateIn, visibleCollections } from './collection.policy.ts';
import { presentCollection } from './collection.presenter.ts';
import { collectionRepository } from './collection.repository.ts';

export const collectionProcedures = {
  listCollectionsInOrganizationById: implement(ops.listCollectionsInOrganizationById, async ({ input, ctx }) => {
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const visible = visibleCollections(ctx.actor, input.organizationId, tree);
    if (visible !== 'all' && !visible.length) return { count: 0, items: [] };
    const where = {
      organizationId: input.organizationId,
      ...(input.nested === false ? { parentId: null } : {}),
      ...(visible !== 'all' ? { id: { $in: visible } } : {}),
    };
    return paginate(ctx.em, Collection, where, { position: 'asc', id: 'asc' }, input, (c) => presentCollection(ctx, c, tree.levelsFrom(c.parentId)));
  }),

  createCollection: implement(ops.createCollection, async ({ input, ctx }) => {
    const container = await loadContainer(ctx, input.organizationId, input.parent);
    assertCanCreateIn(ctx.actor, input.organizationId, container);
    const collection = await collectionCreator(ctx.em, { organizationId: input.organizationId, parentId: input.parent ?? null, title: input.title });
    return presentCollection(ctx, collection, levelsUnder(container));
  }),

  getCollectionById: implement(ops.getCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'view');
    return presentCollection(ctx, collection, facts.ancestors ?? []);
  }),

  updateCollectionById: implement(ops.updateCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollectionFor(ctx, input.collectionId, 'update');
    return presentCollection(ctx, await collectionUpdater(ctx.em, { ...input, collection }), facts.ancestors ?? []);
  }),

  deleteCollectionById: implement(ops.deleteCollectionById, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'delete');
    await collectionDeleter(ctx.em, { collection });
  }),

  listSpacesInCollectionById: implement(ops.listSpacesInCollectionById, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'view');
    const tree = await collectionRepository.tree(ctx.em, collection.organizationId);
    const where = spaceRepository.visibleWhere(collection.organizationId, visibleSpaces(ctx.actor, collection.organizationId, tree), { parentId: collection.id });
    if (!where) return { count: 0, items: [] };
    return paginate(ctx.em, Space, where, { position: 'asc', id: 'asc' }, input, presentSpacesIn(ctx, tree));
  }),

  moveCollection: implement(ops.moveCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'move');
    const dest = await resolveDestination(ctx.em, { organizationId: collection.organizationId, currentParentId: collection.parentId, parent: input.parent, position: input.position });
    const container = dest.collection ? await collectionRepository.factsOf(ctx.em, dest.collection) : null;
    if (dest.parentId !== (collection.parentId ?? null)) assertCanCreateIn(ctx.actor, collection.organizationId, container);
    return presentCollection(ctx, await collectionMover(ctx.em, { collection, parentId: dest.parentId, position: input.position }), levelsUnder(container));
  }),

  transferCollection: implement(ops.transferCollection, async ({ input, ctx }) => {
    const { collection } = await loadCollectionFor(ctx, input.collectionId, 'transfer');
    assertCanTransfer(ctx.actor, collection.organizationId, input.organization, 'collection');
    return presentCollection(ctx, await collectionTransferrer(ctx.em, { collection, organizationId: input.organization }), []);
  }),
};
