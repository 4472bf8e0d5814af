import type { Role, Space as SpaceDto } from '@quire/contracts';
import type { ISpace } from './space.entity.ts';
import { spacePermissions } from './space.policy.ts';

export function presentSpace(s: ISpace, role: Role | null, publicUrl: string): SpaceDto {
  const published = s.visibility !== 'private' ? `${publicUrl}/s/${s.id}` : undefined;
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
      location: `${publicUrl}/v1/spaces/${s.id}`,
      app: `${publicUrl}/o/${s.organizationId}/s/${s.id}`,
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
    permissions: spacePermissions(role),
  };
}
