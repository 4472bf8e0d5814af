import { Events } from '@quire/contracts';
import { recordEvent, type EntityManager } from '@quire/kit';
import type { ICollection } from '../modules/collections/collection.entity.ts';
import { collectionRepository } from '../modules/collections/collection.repository.ts';
import { spaceRepository } from '../modules/spaces/space.repository.ts';
import { grantRepository } from '../modules/permissions/grant.repository.ts';
import { placeInTree } from '../modules/tree/sibling-order.ts';
import { treeRepository } from '../modules/tree/tree.repository.ts';

export interface CollectionTransferrerProps {
  collection: ICollection;
  /** The target organization (the caller's admin role in both is checked by the policy). */
  organizationId: string;
  now?: Date;
}

/**
 * Moves a collection, its sub-collections and all their spaces (with their content; deleted spaces too) to
 * another organization in one transaction: the collection goes last at the target's top level, the
 * sub-tree keeps its shape and order. Explicit grants follow for the users who are members of the target organization
 * (team grants are dropped). `collection.transferred`, and `space.transferred` for each space.
 */
export async function collectionTransferrer(
  em: EntityManager,
  props: CollectionTransferrerProps,
): Promise<ICollection> {
  const { collection } = props;
  const from = collection.organizationId;
  const to = props.organizationId;
  for (const org of [from, to].sort()) await treeRepository.lockCollectionTree(em, org);
  const tree = await collectionRepository.tree(em, from);
  const collections = [collection.id, ...tree.descendants(collection.id)];
  const order = await placeInTree(em, { organizationId: to, parentId: null });
  const now = props.now ?? new Date();
  await collectionRepository.setOrganization(em, collections, to, now);
  const spaces = await spaceRepository.transferInCollections(em, collections, to, now);
  await grantRepository.transfer(em, 'collection', collections, to);
  await grantRepository.transfer(
    em,
    'space',
    spaces.map((s) => s.id),
    to,
  );
  collection.organizationId = to;
  collection.parentId = null;
  collection.order = order;
  collection.updatedAt = now;
  em.persist(collection);
  recordEvent(em, Events.collectionTransferred, {
    collection: collection.id,
    organization: to,
    previousOrganization: from,
    collections,
    spaces: spaces.map((s) => s.id),
  });
  for (const s of spaces)
    recordEvent(em, Events.spaceTransferred, {
      space: s.id,
      organization: to,
      previousOrganization: from,
      title: s.title,
      collection: collection.id,
    });
  return collection;
}
