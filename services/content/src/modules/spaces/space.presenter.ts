import type { Actor, DefaultLevel, Space as SpaceDto } from '@quire/contracts';
import type { PublicUrls } from '@quire/kit';
import type { CollectionTree } from '../collections/collection-tree.ts';
import type { ISpace } from './space.entity.ts';
import { spacePolicy } from './space.policy.ts';

export interface PresentContext {
  actor: Actor;
  urls: PublicUrls;
}

/** A space as the caller sees it: its `permissions` from the caller's role, given the levels it inherits (`ancestors`). */
export function presentSpace(ctx: PresentContext, s: ISpace, ancestors: readonly DefaultLevel[]): SpaceDto {
  const role = spacePolicy.role(ctx.actor, { organizationId: s.organizationId, defaultLevel: s.defaultLevel, ancestors });
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
    permissions: spacePolicy.permissions(role),
  };
}

/** Presents the spaces of one organization (a list page), their inherited levels read from the tree. */
export const presentSpacesIn = (ctx: PresentContext, tree: CollectionTree) => (s: ISpace) => presentSpace(ctx, s, tree.levelsFrom(s.parentId));
