import { ops, type Actor, type Role } from '@quire/contracts';
import { notFound, paginate } from '@quire/kit';
import { implement } from '../../trpc.ts';
import { spaceCreator } from '../../commands/space-creator.ts';
import { spaceDuplicator } from '../../commands/space-duplicator.ts';
import { spaceMover } from '../../commands/space-mover.ts';
import { spaceTransferrer } from '../../commands/space-transferrer.ts';
import { spaceDeleter, spaceRestorer } from '../../commands/space-trash.ts';
import { spaceUpdater } from '../../commands/space-updater.ts';
import { levelsUnder } from '../access/access.policy.ts';
import { assertCanTransfer, organizationContentPolicy } from '../access/organization.policy.ts';
import { loadContainer } from '../collections/collection.loader.ts';
import { assertCanCreateIn } from '../collections/collection.policy.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import { memberRepository } from '../members/member.repository.ts';
import { resolveDestination } from '../tree/destination.ts';
import { Space } from './space.entity.ts';
import { loadSpaceFor } from './space.loader.ts';
import { spacePolicy, visibleSpaces } from './space.policy.ts';
import { presentSpace, presentSpacesIn } from './space.presenter.ts';
import { spaceRepository } from './space.repository.ts';

/** Lists are in tree order: siblings by position, pagination by `(position, id)` (modules/tree/sibling-order.ts). */
export const spaceProcedures = {
  listSpaces: implement(ops.listSpaces, async ({ input, ctx }) => {
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const where = spaceRepository.visibleWhere(input.organizationId, visibleSpaces(ctx.actor, input.organizationId, tree));
    if (!where) return { count: 0, items: [] };
    return paginate(ctx.em, Space, where, { position: 'asc', id: 'asc' }, input, presentSpacesIn(ctx, tree));
  }),

  createSpace: implement(ops.createSpace, async ({ input, ctx }) => {
    const container = await loadContainer(ctx, input.organizationId, input.parent);
    assertCanCreateIn(ctx.actor, input.organizationId, container);
    const space = await spaceCreator(ctx.em, { ...input, parentId: input.parent ?? null });
    return presentSpace(ctx, space, levelsUnder(container));
  }),

  getSpaceById: implement(ops.getSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'view');
    const dto = presentSpace(ctx, space, facts.ancestors ?? []);
    // A share key opens the space on a `share-link` site: the sites service says where (null: it opens nothing).
    if (input.shareKey === undefined) return dto;
    const { publishedUrl } = await ctx.peers.asService(ops.resolveShareLink, { spaceId: space.id, shareKey: input.shareKey }, ctx.requestId);
    return publishedUrl ? { ...dto, urls: { ...dto.urls, published: publishedUrl } } : dto;
  }),

  updateSpaceById: implement(ops.updateSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'update');
    return presentSpace(ctx, await spaceUpdater(ctx.em, { ...input, space }), facts.ancestors ?? []);
  }),

  deleteSpaceById: implement(ops.deleteSpaceById, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'delete');
    await spaceDeleter(ctx.em, { space });
  }),

  restoreSpace: implement(ops.restoreSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'restore');
    return presentSpace(ctx, await spaceRestorer(ctx.em, { space }), facts.ancestors ?? []);
  }),

  duplicateSpace: implement(ops.duplicateSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpaceFor(ctx, input.spaceId, 'duplicate');
    assertCanCreateIn(ctx.actor, space.organizationId, await loadContainer(ctx, space.organizationId, space.parentId));
    return presentSpace(ctx, await spaceDuplicator(ctx.em, { source: space }), facts.ancestors ?? []);
  }),

  moveSpace: implement(ops.moveSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'move');
    const dest = await resolveDestination(ctx.em, { organizationId: space.organizationId, currentParentId: space.parentId, parent: input.parent, position: input.position });
    const container = dest.collection ? await collectionRepository.factsOf(ctx.em, dest.collection) : null;
    if (dest.parentId !== (space.parentId ?? null)) assertCanCreateIn(ctx.actor, space.organizationId, container);
    return presentSpace(ctx, await spaceMover(ctx.em, { space, parentId: dest.parentId, position: input.position }), levelsUnder(container));
  }),

  transferSpace: implement(ops.transferSpace, async ({ input, ctx }) => {
    const { space } = await loadSpaceFor(ctx, input.spaceId, 'transfer');
    assertCanTransfer(ctx.actor, space.organizationId, input.organization, 'space');
    return presentSpace(ctx, await spaceTransferrer(ctx.em, { space, organizationId: input.organization }), []);
  }),

  listSpacesForOrganizationMember: implement(ops.listSpacesForOrganizationMember, async ({ input, ctx }) => {
    const self = input.userId === ctx.actor.userId;
    if (!self) organizationContentPolicy.assert(ctx.actor, input, 'viewMemberAccess');
    const member = self ? ctx.actor : await memberRepository.asActor(ctx.em, input.organizationId, input.userId);
    if (!member) throw notFound('Member');
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const where = spaceRepository.visibleWhere(input.organizationId, visibleSpaces(member, input.organizationId, tree));
    if (!where) return { count: 0, items: [] };
    const present = presentSpacesIn(ctx, tree);
    return paginate(ctx.em, Space, where, { createdAt: input.order, id: input.order }, input, (s) => {
      const permission: Role | null = spacePolicy.role(member, tree.factsOf(s));
      if (permission === null) throw new Error(`space ${s.id} listed for a member without access`);
      return { permission, space: present(s) };
    });
  }),

  countMemberSpaces: implement(ops.countMemberSpaces, async ({ input, ctx }) => {
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const counts: Record<string, number> = {};
    const byScope = new Map<string, number>();
    for (const m of input.members) {
      const actor: Actor = { kind: 'user', userId: m.userId, memberships: [{ organization: input.organizationId, role: m.role, teams: m.teams }] };
      const scope = visibleSpaces(actor, input.organizationId, tree);
      let n = byScope.get(scope.kind);
      if (n === undefined) byScope.set(scope.kind, (n = await spaceRepository.countInScope(ctx.em, input.organizationId, scope)));
      counts[m.userId] = n;
    }
    return { counts };
  }),
};
