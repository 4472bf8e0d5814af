import type { Actor, DeletedSpace, List, Role, Space as SpaceDto } from '@quire/contracts';
import type { ContentAccessFacts } from '../access/access.policy.ts';
import { usersByIds, type PublicUrls } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { RESTORE_WINDOW_MS } from '../../commands/space-trash.ts';
import type { CollectionTree } from '../collections/collection-tree.ts';
import type { ISpace } from './space.entity.ts';
import { spacePolicy } from './space.policy.ts';

export interface PresentContext {
  actor: Actor;
  urls: PublicUrls;
}

/** A space as the caller sees it: its `permissions` from the caller's role, given what it inherits and its grants (`facts`). */
export function presentSpace(ctx: PresentContext, s: ISpace, facts: ContentAccessFacts): SpaceDto {
  const role = spacePolicy.role(ctx.actor, {
    ...facts,
    organizationId: s.organizationId,
    defaultLevel: s.defaultLevel,
  });
  const published = s.visibility !== 'private' ? ctx.urls.page(`/s/${s.id}`) : undefined;
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    ...(s.deletedAt ? { deletedAt: s.deletedAt.toISOString() } : {}),
    editMode: s.editMode,
    urls: {
      location: ctx.urls.api(`/spaces/${s.id}`),
      app: ctx.urls.page(`/o/${s.organizationId}/s/${s.id}`),
      ...(published ? { published } : {}),
      ...(s.visibility === 'public' && published ? { public: published } : {}),
      ...(s.icon ? { icon: s.icon } : {}),
    },
    organization: s.organizationId,
    ...(s.parentId ? { parent: s.parentId } : {}),
    revision: s.revisionId,
    defaultLevel: s.defaultLevel ?? null,
    comments: s.comments,
    changeRequests: s.changeRequests,
    changeRequestsOpen: s.changeRequestsOpen,
    changeRequestsDraft: s.changeRequestsDraft,
    mergeRules: s.mergeRules ?? { type: 'inherit' },
    permissions: spacePolicy.permissions(role),
  };
}

/** Presents the spaces of one organization (a list page), their inherited levels and grants read from the tree. */
export const presentSpacesIn = (ctx: PresentContext, tree: CollectionTree) => (s: ISpace) =>
  presentSpace(ctx, s, tree.factsOf(s));

/** A space opened by a share key: its `published` URL is where the key opens it (unchanged without a key or a site). */
export function presentSharedSpace(
  ctx: PresentContext,
  s: ISpace,
  facts: ContentAccessFacts,
  sharedUrl: string | null | undefined,
): SpaceDto {
  const dto = presentSpace(ctx, s, facts);
  return sharedUrl ? { ...dto, urls: { ...dto.urls, published: sharedUrl } } : dto;
}

/** The spaces a member can access, each with the member's role on it. */
export function presentMemberSpaces(
  ctx: PresentContext,
  { tree, page, member }: { tree: CollectionTree; page: List<ISpace>; member: Actor },
): List<{ permission: Role; space: SpaceDto }> {
  const present = presentSpacesIn(ctx, tree);
  return {
    ...page,
    items: page.items.map((s) => {
      const permission = spacePolicy.role(member, tree.factsOf(s));
      if (permission === null) throw new Error(`space ${s.id} listed for a member without access`);
      return { permission, space: present(s) };
    }),
  };
}

/** `getSpacesByIds`: the spaces the caller can see, in the order asked. */
export const presentSpacesByIds = (ctx: PresentContext, visible: { space: ISpace; tree: CollectionTree }[]) => ({
  items: visible.map(({ space, tree }) => presentSpace(ctx, space, tree.factsOf(space))),
});

/** A page of the trash (spaces with `deletedAt`): each space with who deleted it (when known, in one call to the directory) and when it goes. */
export async function presentDeletedSpaces(
  ctx: PresentContext & Pick<ContentContext, 'peers' | 'requestId'>,
  { tree, page }: { tree: CollectionTree; page: List<ISpace> },
): Promise<List<DeletedSpace>> {
  const users = await usersByIds(
    ctx,
    page.items.flatMap((s) => s.deletedBy ?? []),
  );
  const present = presentSpacesIn(ctx, tree);
  return {
    ...page,
    items: page.items.map((s) => {
      const deletedAt = s.deletedAt!;
      const deletedBy = s.deletedBy ? users.get(s.deletedBy) : undefined;
      return {
        ...present(s),
        deletedAt: deletedAt.toISOString(),
        ...(deletedBy ? { deletedBy } : {}),
        purgeAt: new Date(deletedAt.getTime() + RESTORE_WINDOW_MS).toISOString(),
      };
    }),
  };
}
