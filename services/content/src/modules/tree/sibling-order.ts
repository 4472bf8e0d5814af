import type { ContentPointer, ContentPosition, DefaultLevel } from '@quire/contracts';
import { invalid, orderKeyBetween, type EntityManager } from '@quire/kit';
import { treeRepository } from './tree.repository.ts';

/**
 * The order of an organization's content tree. Spaces and collections in the same parent (a collection, or
 * the top level) are siblings in one ordering, by their order key then `id`: the kit's fractional-indexing keys, as
 * pages have (an item goes last after the last key, between two neighbours between theirs; nothing is renumbered).
 * Every change of a group holds a transaction-scoped advisory lock on it, so concurrent moves never interleave
 * (two items never get one key). Lists order by `(ord, id)`, a total order, so keyset pagination stays correct.
 */

export interface TreeItem {
  kind: 'space' | 'collection';
  id: string;
}
interface Sibling extends TreeItem {
  order: string;
}

export interface PlaceProps {
  organizationId: string;
  parentId: string | null;
  /** Before or after a sibling; last when omitted. */
  position?: ContentPosition | undefined;
  /** The item being placed, when it is already in the tree (it is left out of the siblings). */
  item?: TreeItem | undefined;
}

const pointerItem = (p: ContentPointer): TreeItem =>
  p.type === 'space' ? { kind: 'space', id: p.space } : { kind: 'collection', id: p.collection };
const same = (a: TreeItem, b: TreeItem) => a.kind === b.kind && a.id === b.id;

async function siblings(
  em: EntityManager,
  organizationId: string,
  parentId: string | null,
  exclude?: TreeItem,
): Promise<Sibling[]> {
  return (await treeRepository.siblings(em, organizationId, parentId)).filter((s) => !exclude || !same(s, exclude));
}

/**
 * Locks the destination group and returns the order key for an item placed in it. 400 when `position` names
 * something that is not a sibling there, or the item itself.
 */
export async function placeInTree(em: EntityManager, props: PlaceProps): Promise<string> {
  await treeRepository.lockSiblingGroup(em, props.organizationId, props.parentId);
  const pointer = props.position?.before ?? props.position?.after;
  // Last (a create, most moves): the last key is all it needs, not every sibling.
  if (!pointer)
    return orderKeyBetween(
      await treeRepository.lastOrder(em, props.organizationId, props.parentId, props.item?.id),
      null,
    );
  const group = await siblings(em, props.organizationId, props.parentId, props.item);
  const ref = pointerItem(pointer);
  const field = props.position?.before ? 'position.before' : 'position.after';
  if (props.item && same(ref, props.item)) throw invalid(`${field}: an item cannot be placed relative to itself`);
  const index = group.findIndex((s) => same(s, ref));
  if (index < 0)
    throw invalid(
      `${field}: ${ref.kind} ${ref.id} is not in the destination (${props.parentId ? `collection ${props.parentId}` : 'the top level'})`,
    );
  const at = props.position?.before ? index : index + 1;
  return orderKeyBetween(group[at - 1]?.order, group[at]?.order);
}

/** What a new space or collection is given: where it goes and its title. */
export interface NewItemProps {
  organizationId: string;
  /** The parent collection (checked by the caller), or the top level. */
  parentId?: string | null | undefined;
  title?: string | undefined;
  now?: Date;
}

/**
 * The fields a new space or collection starts with: last in its parent (whose group it locks, as `placeInTree`),
 * untitled unless named, inheriting its access level.
 */
export async function newItemFields(em: EntityManager, props: NewItemProps) {
  const now = props.now ?? new Date();
  const parentId = props.parentId ?? null;
  return {
    organizationId: props.organizationId,
    parentId,
    order: await placeInTree(em, { organizationId: props.organizationId, parentId }),
    title: props.title ?? 'Untitled',
    defaultLevel: 'inherit' as const satisfies DefaultLevel,
    createdAt: now,
    updatedAt: now,
  };
}

/** What `space.created` and `collection.created` say of the new item besides its id. */
export const createdEventOf = (item: {
  organizationId: string;
  title: string;
  parentId?: string | null | undefined;
}) => ({
  organization: item.organizationId,
  title: item.title,
  ...(item.parentId ? { parent: item.parentId } : {}),
});
