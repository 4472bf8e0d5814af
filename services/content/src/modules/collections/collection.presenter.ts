import type { Collection as CollectionDto, DeletedCollection as DeletedCollectionDto, List } from '@quire/contracts';
import { usersByIds } from '@quire/kit';
import type { ContentContext } from '../../trpc.ts';
import { RESTORE_WINDOW_MS } from '../../commands/space-trash.ts';
import type { ContentAccessFacts } from '../access/access.policy.ts';
import type { PresentContext } from '../spaces/space.presenter.ts';
import type { CollectionTree } from './collection-tree.ts';
import type { ICollection } from './collection.entity.ts';
import type { LoadedDeletedCollection } from './collection.loader.ts';
import { collectionPolicy } from './collection.policy.ts';

/** A collection as the caller sees it: its `permissions` from the caller's role, given what it inherits and its grants. */
export function presentCollection(
  ctx: PresentContext,
  c: Pick<ICollection, 'id' | 'title' | 'description' | 'organizationId' | 'parentId' | 'defaultLevel'>,
  facts: ContentAccessFacts,
): CollectionDto {
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

/**
 * A page of the trash of collections: each collection as it would be restored (its `parent` the one it goes back
 * into), who deleted it (when known, in one call to the directory), when it goes for good and what its delete moved.
 */
export async function presentDeletedCollections(
  ctx: PresentContext & Pick<ContentContext, 'peers' | 'requestId'>,
  page: List<LoadedDeletedCollection>,
): Promise<List<DeletedCollectionDto>> {
  const users = await usersByIds(
    ctx,
    page.items.flatMap((r) => r.deleted.deletedBy ?? []),
  );
  return {
    ...page,
    items: page.items.map(({ deleted: d, parentId, facts }) => {
      const deletedBy = d.deletedBy ? users.get(d.deletedBy) : undefined;
      return {
        ...presentCollection(ctx, { ...d, parentId }, facts),
        deletedAt: d.deletedAt.toISOString(),
        ...(deletedBy ? { deletedBy } : {}),
        purgeAt: new Date(d.deletedAt.getTime() + RESTORE_WINDOW_MS).toISOString(),
        movedSpaces: d.moved.filter((m) => m.kind === 'space').length,
        movedCollections: d.moved.filter((m) => m.kind === 'collection').length,
      };
    }),
  };
}
