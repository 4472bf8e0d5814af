import { ops, type Actor, type List, type Role } from '@quire/contracts';
import { notFound, pageOfList, paginate, type PageRequest } from '@quire/kit';
import { RESTORE_WINDOW_MS } from '../../commands/space-trash.ts';
import type { ContentContext } from '../../trpc.ts';
import { assertCanTransfer, organizationContentPolicy } from '../access/organization.policy.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';
import { collectionRepository } from '../collections/collection.repository.ts';
import { memberRepository } from '../members/member.repository.ts';
import { Space, type ISpace } from './space.entity.ts';
import {
  restorableSpaces,
  spacePolicy,
  visibleSpaces,
  type SpaceAccessFacts,
  type SpaceAction,
} from './space.policy.ts';
import { spaceRepository } from './space.repository.ts';

type Ctx = Pick<ContentContext, 'em' | 'actor'>;
type MemberRole = Extract<Actor, { kind: 'user' }>['memberships'][number]['role'];

/** Actions on a live space only: a deleted one must be restored first (404 that says so). */
const LIVE_ONLY: ReadonlySet<SpaceAction> = new Set([
  'search',
  'update',
  'duplicate',
  'move',
  'transfer',
  'edit',
  'review',
  'merge',
  'import',
  'comment',
  'managePermissions',
]);

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
  const found = await spaceRepository.findWithFacts(ctx.em, spaceId);
  if (!found) throw notFound('Space');
  const { space, facts } = found;
  if (space.deletedAt && LIVE_ONLY.has(action)) {
    spacePolicy.assert(ctx.actor, facts, 'view');
    throw notFound('Space (it is deleted: restore it first)');
  }
  return { space, facts, role: spacePolicy.assert(ctx.actor, facts, action) };
}

/** The space the caller may transfer, to an organization it may transfer into (403; 409 to its own). */
export async function loadSpaceToTransfer(ctx: Ctx, spaceId: string, to: string): Promise<LoadedSpace> {
  const loaded = await loadSpaceFor(ctx, spaceId, 'transfer');
  assertCanTransfer(ctx.actor, loaded.space.organizationId, to, 'space');
  return loaded;
}

/** A list page of spaces and the organization's tree their inherited levels and grants are read from. */
export interface LoadedSpacePage<T = ISpace> {
  tree: CollectionTree;
  page: List<T>;
}

/** One page of the live spaces of an organization `actor` can see (in a collection, with `parentId`). */
async function visibleSpacePage(
  ctx: Ctx,
  actor: Actor,
  organizationId: string,
  input: PageRequest,
  order: { order: 'asc'; id: 'asc' } | { createdAt: 'asc' | 'desc'; id: 'asc' | 'desc' },
  parentId?: string,
): Promise<LoadedSpacePage> {
  const tree = await collectionRepository.tree(ctx.em, organizationId);
  const where = spaceRepository.visibleWhere(
    organizationId,
    visibleSpaces(actor, organizationId, tree),
    parentId === undefined ? {} : { parentId },
  );
  if (!where) return { tree, page: { count: 0, items: [] } };
  return { tree, page: await paginate(ctx.em, Space, where, order, input, (s) => s) };
}

/** A page of the live spaces of an organization (or of one of its collections) the caller can see, in tree order. */
export const loadVisibleSpaces = (ctx: Ctx, organizationId: string, input: PageRequest, parentId?: string) =>
  visibleSpacePage(ctx, ctx.actor, organizationId, input, { order: 'asc', id: 'asc' }, parentId);

/**
 * A page of the organization's trash: the spaces deleted within the restore window (7 days) that the caller may
 * restore, the latest deleted first (404 for a caller who is not a member).
 */
export async function loadRestorableSpaces(
  ctx: Ctx,
  input: PageRequest & { organizationId: string },
  now = new Date(),
): Promise<LoadedSpacePage> {
  const tree = await collectionRepository.tree(ctx.em, input.organizationId);
  const deleted = await spaceRepository.deletedSince(
    ctx.em,
    input.organizationId,
    new Date(now.getTime() - RESTORE_WINDOW_MS),
  );
  const restorable = restorableSpaces(ctx.actor, input.organizationId, tree, deleted);
  return { tree, page: pageOfList(restorable, (s) => [s.deletedAt!.toISOString(), s.id], input, 'desc') };
}

/**
 * A page of the spaces a member of the organization can access (the caller's own, or, for an organization admin,
 * another member's: 403 otherwise, 404 for someone who is not a member), by creation date, and the member as an
 * actor (whose role on each space the presenter gives).
 */
export async function loadMemberSpaces(
  ctx: Ctx & { actor: { userId: string } },
  input: PageRequest & { organizationId: string; userId: string; order: 'asc' | 'desc' },
): Promise<LoadedSpacePage & { member: Actor }> {
  const self = input.userId === ctx.actor.userId;
  if (!self) organizationContentPolicy.assert(ctx.actor, input, 'viewMemberAccess');
  const member = self ? ctx.actor : await memberRepository.asActor(ctx.em, input.organizationId, input.userId);
  if (!member) throw notFound('Member');
  const order = { createdAt: input.order, id: input.order };
  return { member, ...(await visibleSpacePage(ctx, member, input.organizationId, input, order)) };
}

/**
 * How many live spaces each member (as described: role and teams) can see in the organization: one count per
 * distinct scope (members alike share one query).
 */
export async function loadMemberSpaceCounts(
  ctx: Ctx,
  input: { organizationId: string; members: { userId: string; role: MemberRole; teams: string[] }[] },
): Promise<Record<string, number>> {
  const tree = await collectionRepository.tree(ctx.em, input.organizationId);
  const counts: Record<string, number> = {};
  const byScope = new Map<string, number>();
  for (const m of input.members) {
    const actor: Actor = {
      kind: 'user',
      userId: m.userId,
      memberships: [{ organization: input.organizationId, role: m.role, teams: m.teams }],
    };
    const scope = visibleSpaces(actor, input.organizationId, tree);
    const key = JSON.stringify(scope);
    let n = byScope.get(key);
    if (n === undefined)
      byScope.set(key, (n = await spaceRepository.countInScope(ctx.em, input.organizationId, scope)));
    counts[m.userId] = n;
  }
  return counts;
}

/**
 * The spaces the caller can see among `spaceIds` (live or in the trash), in the order asked, each with its
 * organization's tree: one query for the spaces, one for the collection tree of each organization.
 */
export async function loadVisibleSpacesByIds(
  ctx: Ctx,
  spaceIds: string[],
): Promise<{ space: ISpace; tree: CollectionTree }[]> {
  const ids = [...new Set(spaceIds)];
  const spaces = await spaceRepository.findByIds(ctx.em, ids);
  const visible = new Map<string, { space: ISpace; tree: CollectionTree }>();
  for (const organizationId of new Set(spaces.map((s) => s.organizationId))) {
    const tree = await collectionRepository.tree(ctx.em, organizationId);
    for (const space of spaces)
      if (space.organizationId === organizationId && spacePolicy.role(ctx.actor, tree.factsOf(space)) !== null)
        visible.set(space.id, { space, tree });
  }
  return ids.flatMap((id) => visible.get(id) ?? []);
}

/**
 * Where a share key opens the space: the published URL of its `share-link` site, as the sites service resolves
 * it (null: the key opens nothing; undefined: no key was given).
 */
export async function loadSharedUrl(
  ctx: Pick<ContentContext, 'peers' | 'requestId'>,
  spaceId: string,
  shareKey: string | undefined,
): Promise<string | null | undefined> {
  if (shareKey === undefined) return undefined;
  const { publishedUrl } = await ctx.peers.asService(ops.resolveShareLink, { spaceId, shareKey }, ctx.requestId);
  return publishedUrl;
}
