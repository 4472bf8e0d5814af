import type { Collection as CollectionDto, Role } from '@quire/contracts';
import type { ICollection } from './collection.entity.ts';
import { collectionPermissions } from './collection.policy.ts';

export function presentCollection(c: ICollection, role: Role | null, publicUrl: string): CollectionDto {
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description ? { description: c.description } : {}),
    organization: c.organizationId,
    ...(c.parentId ? { parent: c.parentId } : {}),
    defaultLevel: c.defaultLevel ?? null,
    urls: {
      location: `${publicUrl}/v1/collections/${c.id}`,
      app: `${publicUrl}/o/${c.organizationId}/c/${c.id}`,
    },
    permissions: collectionPermissions(role),
  };
}
