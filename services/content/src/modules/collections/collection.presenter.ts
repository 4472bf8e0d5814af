import type { Collection as CollectionDto } from '@quire/contracts';
import type { ContentAccessFacts } from '../access/access.policy.ts';
import type { PresentContext } from '../spaces/space.presenter.ts';
import type { CollectionTree } from './collection-tree.ts';
import type { ICollection } from './collection.entity.ts';
import { collectionPolicy } from './collection.policy.ts';

/** A collection as the caller sees it: its `permissions` from the caller's role, given what it inherits and its grants. */
export function presentCollection(ctx: PresentContext, c: ICollection, facts: ContentAccessFacts): CollectionDto {
  const role = collectionPolicy.role(ctx.actor, {
    ...facts,
    organizationId: c.organizationId,
    defaultLevel: c.defaultLevel,
  });
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

/** Presents the collections of one organization (a list page), their inherited levels and grants read from the tree. */
export const presentCollectionsIn = (ctx: PresentContext, tree: CollectionTree) => (c: ICollection) =>
  presentCollection(ctx, c, tree.collectionFacts(c.organizationId, c.id));
