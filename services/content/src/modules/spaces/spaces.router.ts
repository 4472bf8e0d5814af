import { ops, type Actor, type Role } from '@quire/contracts';
import { forbidden, membershipOf, notFound, paginate } from '@quire/kit';
import { implement, type ContentContext } from '../../trpc.ts';
import { createSpace } from '../../commands/space-creator.ts';
import { updateSpace } from '../../commands/space-updater.ts';
import { deleteSpace, restoreSpace } from '../../commands/space-trash.ts';
import { duplicateSpace } from '../../commands/space-duplicator.ts';
import { moveSpace } from '../../commands/space-mover.ts';
import { transferSpace } from '../../commands/space-transferrer.ts';
import { assertCanTransfer } from '../access/access.policy.ts';
import { assertCanCreateIn, type CollectionAccessFacts } from '../collections/collection.policy.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';
import { memberAsActor } from '../members/member-events.consumer.ts';
import { resolveDestination } from '../tree/destination.ts';
import { Space, type ISpace } from './space.entity.ts';
import { assertSpaceAllows, spaceRole, visibleSpaces, type SpaceScope } from './space.policy.ts';
import { presentSpace } from './space.presenter.ts';
import { spaceRepository } from './space.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'config' | 'actor'>;

/** A space the caller can see (deleted ones too, until purged), with its access facts; 404 otherwise. */
async function loadSpace(ctx: Ctx, spaceId: string) {
  const space = await spaceRepository.findById(ctx.em, spaceId);
  if (!space) throw notFound('Space');
  const facts = await spaceRepository.facts(ctx.em, space);
  return { space, facts };
}

/** As `loadSpace`, for operations on live spaces only: a deleted space must be restored first (404). */
async function loadLiveSpace(ctx: Ctx, spaceId: string) {
  const loaded = await loadSpace(ctx, spaceId);
  if (loaded.space.deletedAt) {
    assertSpaceAllows(ctx.actor, loaded.facts, 'view');
    throw notFound('Space (it is deleted: restore it first)');
  }
  return loaded;
}

/** The facts of a container: a collection of the organization, or the top level (null). */
async function containerFacts(ctx: Ctx, parentId: string | null | undefined): Promise<CollectionAccessFacts | null> {
  if (parentId == null) return null;
  const parent = await collectionRepository.findById(ctx.em, parentId);
  if (!parent) throw notFound('Collection');
  return collectionRepository.facts(ctx.em, parent);
}

const present = async (ctx: Ctx, space: ISpace) => presentSpace(space, spaceRole(ctx.actor, await spaceRepository.facts(ctx.em, space)), ctx.config.QUIRE_PUBLIC_URL);
const presentIn = (ctx: Ctx, tree: CollectionTree, actor: Actor) => (s: ISpace) =>
  presentSpace(s, spaceRole(actor, { organizationId: s.organizationId, defaultLevel: s.defaultLevel, ancestors: tree.levelsFrom(s.parentId) }), ctx.config.QUIRE_PUBLIC_URL);

/** How many live spaces of an organization a scope sees (the same filter as the lists). */
async function countInScope(ctx: Ctx, organizationId: string, scope: SpaceScope): Promise<number> {
  const where = spaceRepository.visibleWhere(organizationId, scope);
  return where ? ctx.em.count(Space, where) : 0;
}

/** Lists are in tree order: siblings by position, pagination by `(position, id)` (modules/tree/sibling-order.ts). */
export const spaceProcedures = {
  listSpaces: implement(ops.listSpaces, async ({ input, ctx }) => {
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const where = spaceRepository.visibleWhere(input.organizationId, visibleSpaces(ctx.actor, input.organizationId, tree));
    if (!where) return { count: 0, items: [] };
    return paginate(ctx.em, Space, where, { position: 'asc', id: 'asc' }, input, presentIn(ctx, tree, ctx.actor));
  }),

  createSpace: implement(ops.createSpace, async ({ input, ctx }) => {
    if (!membershipOf(ctx.actor, input.organizationId)) throw notFound('Organization');
    const container = await containerFacts(ctx, input.parent ?? null);
    if (container && container.organizationId !== input.organizationId) throw notFound('Collection');
    assertCanCreateIn(ctx.actor, input.organizationId, container);
    const space = await createSpace(ctx.em, { ...input, parentId: input.parent ?? null });
    return present(ctx, space);
  }),

  getSpaceById: implement(ops.getSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpace(ctx, input.spaceId);
    const role = assertSpaceAllows(ctx.actor, facts, 'view');
    return presentSpace(space, role, ctx.config.QUIRE_PUBLIC_URL);
  }),

  updateSpaceById: implement(ops.updateSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadLiveSpace(ctx, input.spaceId);
    assertSpaceAllows(ctx.actor, facts, 'update');
    const { spaceId: _, ...changes } = input;
    return present(ctx, await updateSpace(ctx.em, space, changes));
  }),

  deleteSpaceById: implement(ops.deleteSpaceById, async ({ input, ctx }) => {
    const { space, facts } = await loadSpace(ctx, input.spaceId);
    assertSpaceAllows(ctx.actor, facts, 'delete');
    await deleteSpace(ctx.em, space);
  }),

  restoreSpace: implement(ops.restoreSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadSpace(ctx, input.spaceId);
    const role = assertSpaceAllows(ctx.actor, facts, 'restore');
    return presentSpace(await restoreSpace(ctx.em, space), role, ctx.config.QUIRE_PUBLIC_URL);
  }),

  duplicateSpace: implement(ops.duplicateSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadLiveSpace(ctx, input.spaceId);
    assertSpaceAllows(ctx.actor, facts, 'duplicate');
    assertCanCreateIn(ctx.actor, space.organizationId, await containerFacts(ctx, space.parentId));
    return present(ctx, await duplicateSpace(ctx.em, { source: space }));
  }),

  moveSpace: implement(ops.moveSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadLiveSpace(ctx, input.spaceId);
    assertSpaceAllows(ctx.actor, facts, 'move');
    const dest = await resolveDestination(ctx.em, { organizationId: space.organizationId, currentParentId: space.parentId, parent: input.parent, position: input.position });
    if (dest.parentId !== (space.parentId ?? null)) {
      assertCanCreateIn(ctx.actor, space.organizationId, dest.collection ? await collectionRepository.facts(ctx.em, dest.collection) : null);
    }
    return present(ctx, await moveSpace(ctx.em, { space, parentId: dest.parentId, position: input.position }));
  }),

  transferSpace: implement(ops.transferSpace, async ({ input, ctx }) => {
    const { space, facts } = await loadLiveSpace(ctx, input.spaceId);
    assertSpaceAllows(ctx.actor, facts, 'transfer');
    assertCanTransfer(ctx.actor, space.organizationId, input.organization, 'Space');
    return present(ctx, await transferSpace(ctx.em, { space, organizationId: input.organization }));
  }),

  listSpacesForOrganizationMember: implement(ops.listSpacesForOrganizationMember, async ({ input, ctx }) => {
    const caller = membershipOf(ctx.actor, input.organizationId);
    if (!caller) throw notFound('Organization');
    const self = input.userId === ctx.actor.userId;
    if (!self && caller.role !== 'admin') throw forbidden("Listing another member's spaces needs the admin role in the organization");
    const member = self ? ctx.actor : await memberAsActor(ctx.em, input.organizationId, input.userId);
    if (!member) throw notFound('Member');
    const tree = await collectionRepository.tree(ctx.em, input.organizationId);
    const where = spaceRepository.visibleWhere(input.organizationId, visibleSpaces(member, input.organizationId, tree));
    if (!where) return { count: 0, items: [] };
    const asCaller = presentIn(ctx, tree, ctx.actor);
    return paginate(ctx.em, Space, where, { createdAt: input.order, id: input.order }, input, (s) => {
      const permission: Role | null = spaceRole(member, { organizationId: s.organizationId, defaultLevel: s.defaultLevel, ancestors: tree.levelsFrom(s.parentId) });
      if (permission === null) throw new Error(`space ${s.id} listed for a member without access`);
      return { permission, space: asCaller(s) };
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
      if (n === undefined) byScope.set(scope.kind, (n = await countInScope(ctx, input.organizationId, scope)));
      counts[m.userId] = n;
    }
    return { counts };
  }),
};
