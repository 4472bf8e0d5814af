import { invalid } from '@quire/kit';

/** Where to put an item among its siblings: before or after one of them, or last. */
export interface SiblingPosition {
  before?: string | undefined;
  after?: string | undefined;
}

/**
 * The siblings in their new order once `item` is put at `position` (last when neither is given). 400 naming
 * `field` when the reference is not a sibling, or is the item itself.
 */
export function reorder<T extends { id: string }>(
  siblings: T[],
  item: T,
  position: SiblingPosition | undefined,
  field: string,
): T[] {
  const rest = siblings.filter((s) => s.id !== item.id);
  const ref = position?.before ?? position?.after;
  if (ref === undefined) return [...rest, item];
  const which = position?.before !== undefined ? 'before' : 'after';
  if (ref === item.id) throw invalid(`${field}.${which}: an item cannot be placed relative to itself`);
  const index = rest.findIndex((s) => s.id === ref);
  if (index < 0) throw invalid(`${field}.${which}: ${ref} is not a sibling of the item`);
  rest.splice(which === 'before' ? index : index + 1, 0, item);
  return rest;
}

/** Positions `1, 2, …` in list order; returns the items whose position changed. */
export function renumber<T extends { position: number }>(ordered: T[]): T[] {
  const changed: T[] = [];
  ordered.forEach((s, i) => {
    if (s.position !== i + 1) {
      s.position = i + 1;
      changed.push(s);
    }
  });
  return changed;
}

/** The position after the last of these siblings. */
export const lastPosition = (siblings: { position: number }[]) =>
  siblings.reduce((max, s) => Math.max(max, s.position), 0) + 1;
