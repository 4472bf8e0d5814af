import { ops } from '@quire/contracts';
import { membershipOf, notFound, paginate } from '@quire/kit';
import { implement, type ContentContext } from '../../trpc.ts';
import { createCollection } from '../../commands/collection-creator.ts';
import { updateCollection } from '../../commands/collection-updater.ts';
import { deleteCollection } from '../../commands/collection-deleter.ts';
import { moveCollection } from '../../commands/collection-mover.ts';
import { transferCollection } from '../../commands/collection-transferrer.ts';
import { assertCanTransfer } from '../access/access.policy.ts';
import { Space } from '../spaces/space.entity.ts';
import { spaceRole, visibleSpaces } from '../spaces/space.policy.ts';
import { presentSpace } from '../spaces/space.presenter.ts';
import { spaceRepository } from '../spaces/space.repository.ts';
import { resolveDestination } from '../tree/destination.ts';
import { Collection, type ICollection } from './collection.entity.ts';
import { assertCanCreateIn, assertCollectionAllows, collectionRole, visibleCollections } from './collection.policy.ts';
import { presentCollection } from './collection.presenter.ts';
import { collectionRepository } from './collection.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'config' | 'actor'>;

/** A collection with its access facts; 404 when it does not exist (visibility is checked by the caller). */
async function loadCollection(ctx: Ctx, collectionId: string) {
  const collection = await collectionRepository.findById(ctx.em, collectionId);
  if (!collection) throw notFound('Collection');
  return { collection, facts: await collectionRepository.facts(ctx.em, collection) };
}

const present = async (ctx: Ctx, c: ICollection) => presentCollection(c, collectionRole(ctx.actor, await collectionRepository.facts(ctx.em, c)), ctx.config.QUIRE_PUBLIC_URL);

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
    return paginate(ctx.em, Collection, where, { position: 'asc', id: 'asc' }, input, (c) =>
      presentCollection(c, collectionRole(ctx.actor, { organizationId: c.organizationId, defaultLevel: c.defaultLevel ?? null, ancestors: tree.levelsFrom(c.parentId) }), ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  createCollection: implement(ops.createCollection, async ({ input, ctx }) => {
    if (!membershipOf(ctx.actor, input.organizationId)) throw notFound('Organization');
    let container = null;
    if (input.parent !== undefined) {
      const parent = await collectionRepository.findById(ctx.em, input.parent);
      if (!parent || parent.organizationId !== input.organizationId) throw notFound('Collection');
      container = await collectionRepository.facts(ctx.em, parent);
    }
    assertCanCreateIn(ctx.actor, input.organizationId, container);
    return present(ctx, await createCollection(ctx.em, { organizationId: input.organizationId, parentId: input.parent ?? null, title: input.title }));
  }),

  getCollectionById: implement(ops.getCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    return presentCollection(collection, assertCollectionAllows(ctx.actor, facts, 'view'), ctx.config.QUIRE_PUBLIC_URL);
  }),

  updateCollectionById: implement(ops.updateCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    assertCollectionAllows(ctx.actor, facts, 'update');
    const { collectionId: _, ...changes } = input;
    return present(ctx, await updateCollection(ctx.em, collection, changes));
  }),

  deleteCollectionById: implement(ops.deleteCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    assertCollectionAllows(ctx.actor, facts, 'delete');
    await deleteCollection(ctx.em, collection);
  }),

  listSpacesInCollectionById: implement(ops.listSpacesInCollectionById, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    assertCollectionAllows(ctx.actor, facts, 'view');
    const tree = await collectionRepository.tree(ctx.em, collection.organizationId);
    const where = spaceRepository.visibleWhere(collection.organizationId, visibleSpaces(ctx.actor, collection.organizationId, tree), { parentId: collection.id });
    if (!where) return { count: 0, items: [] };
    return paginate(ctx.em, Space, where, { position: 'asc', id: 'asc' }, input, (s) =>
      presentSpace(s, spaceRole(ctx.actor, { organizationId: s.organizationId, defaultLevel: s.defaultLevel, ancestors: tree.levelsFrom(s.parentId) }), ctx.config.QUIRE_PUBLIC_URL),
    );
  }),

  moveCollection: implement(ops.moveCollection, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    assertCollectionAllows(ctx.actor, facts, 'move');
    const dest = await resolveDestination(ctx.em, { organizationId: collection.organizationId, currentParentId: collection.parentId, parent: input.parent, position: input.position });
    if (dest.parentId !== (collection.parentId ?? null)) {
      assertCanCreateIn(ctx.actor, collection.organizationId, dest.collection ? await collectionRepository.facts(ctx.em, dest.collection) : null);
    }
    return present(ctx, await moveCollection(ctx.em, { collection, parentId: dest.parentId, position: input.position }));
  }),

  transferCollection: implement(ops.transferCollection, async ({ input, ctx }) => {
    const { collection, facts } = await loadCollection(ctx, input.collectionId);
    assertCollectionAllows(ctx.actor, facts, 'view');
    assertCanTransfer(ctx.actor, collection.organizationId, input.organization, 'Collection');
    return present(ctx, await transferCollection(ctx.em, { collection, organizationId: input.organization }));
  }),
};
