import type { ContentPointer, ContentPosition } from '@quire/contracts';
import { invalid, type EntityManager } from '@quire/kit';
import { treeRepository } from './tree.repository.ts';

/**
 * The order of an organization's content tree. Spaces and collections in the same parent (a collection, or
 * the top level) are siblings in one ordering, by `position` then `id`. Positions are integers with gaps:
 * an item goes last at `max + GAP`, between two neighbours at their midpoint, and when two neighbours are
 * adjacent the whole sibling group is renumbered `GAP, 2·GAP, …` first. Every change of a group holds a
 * transaction-scoped advisory lock on it, so concurrent moves never interleave. Lists order by
 * `(position, id)`, a total order, so keyset pagination stays correct.
 */
export const POSITION_GAP = 65_536;

export interface TreeItem {
  kind: 'space' | 'collection';
  id: string;
}
interface Sibling extends TreeItem {
  position: number;
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

async function renumber(em: EntityManager, group: Sibling[]): Promise<void> {
  group.forEach((s, i) => (s.position = (i + 1) * POSITION_GAP));
  for (const kind of ['space', 'collection'] as const)
    await treeRepository.setPositions(
      em,
      kind,
      group.filter((s) => s.kind === kind),
    );
}

/**
 * Locks the destination group and returns the position for an item placed in it (renumbering the group when
 * needed). 400 when `position` names something that is not a sibling there, or the item itself.
 */
export async function placeInTree(em: EntityManager, props: PlaceProps): Promise<number> {
  await treeRepository.lockSiblingGroup(em, props.organizationId, props.parentId);
  const group = await siblings(em, props.organizationId, props.parentId, props.item);
  const pointer = props.position?.before ?? props.position?.after;
  if (!pointer) return (group.at(-1)?.position ?? 0) + POSITION_GAP;
  const ref = pointerItem(pointer);
  const field = props.position?.before ? 'position.before' : 'position.after';
  if (props.item && same(ref, props.item)) throw invalid(`${field}: an item cannot be placed relative to itself`);
  const index = group.findIndex((s) => same(s, ref));
  if (index < 0)
    throw invalid(
      `${field}: ${ref.kind} ${ref.id} is not in the destination (${props.parentId ? `collection ${props.parentId}` : 'the top level'})`,
    );
  for (let pass = 0; ; pass++) {
    const lo = props.position?.before ? group[index - 1] : group[index];
    const hi = props.position?.before ? group[index] : group[index + 1];
    if (!hi) return lo!.position + POSITION_GAP;
    if (!lo) return hi.position - POSITION_GAP;
    if (hi.position - lo.position >= 2) return Math.floor((lo.position + hi.position) / 2);
    if (pass > 0) throw new Error('sibling renumbering left no gap');
    await renumber(em, group);
  }
}
