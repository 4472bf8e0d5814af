import type { Collection as CollectionDto, DefaultLevel } from '@quire/contracts';
import type { PresentContext } from '../spaces/space.presenter.ts';
import type { ICollection } from './collection.entity.ts';
import { collectionPolicy } from './collection.policy.ts';

/** A collection as the caller sees it: its `permissions` from the caller's role, given the levels it inherits. */
export function presentCollection(ctx: PresentContext, c: ICollection, ancestors: readonly DefaultLevel[]): CollectionDto {
  const role = collectionPolicy.role(ctx.actor, { organizationId: c.organizationId, defaultLevel: c.defaultLevel, ancestors });
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description ? { description: c.description } : {}),
    organization: c.organizationId,
    ...(c.parentId ? { parent: c.parentId } : {}),
    defaultLevel: c.defaultLevel ?? null,
    urls: { location: ctx.urls.api(`/collections/${c.id}`), app: ctx.urls.page(`/o/${c.organizationId}/c/${c.id}`) },
    permissions: collectionPolicy.permissions(role),
  };
}
