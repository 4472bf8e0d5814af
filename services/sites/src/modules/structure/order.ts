import { compareOrderKeys, invalid, orderKeyBetween } from '@quire/kit';

/** Where to put an item among its siblings: before or after one of them, or last. */
export interface SiblingPosition {
  before?: string | undefined;
  after?: string | undefined;
}

/** A section, section group or site space: ordered among its siblings by its order key, then its id. */
export interface Ordered {
  id: string;
  order: string;
}

/** The one order of siblings: keys byte by byte (as `collate "C"` sorts them), ties by id. */
export const compareOrdered = (a: Ordered, b: Ordered): number =>
  compareOrderKeys(a.order, b.order) || compareOrderKeys(a.id, b.id);

/** The key after the last of these siblings (`a0` for none). */
export const lastKey = (siblings: readonly Ordered[]): string =>
  orderKeyBetween(
    siblings.reduce<string | null>(
      (max, s) => (max === null || compareOrderKeys(s.order, max) > 0 ? s.order : max),
      null,
    ),
    null,
  );

/**
 * The order key that puts `item` at `position` among `siblings` (in order; the item itself is skipped), last when
 * neither is given: a key between the two neighbours, nothing else renumbered. An item already there keeps its key.
 * 400 naming `field` when the reference is not a sibling, or is the item itself.
 */
export function keyAt(
  siblings: readonly Ordered[],
  item: Ordered,
  position: SiblingPosition | undefined,
  field: string,
): string {
  const rest = siblings.filter((s) => s.id !== item.id);
  const ref = position?.before ?? position?.after;
  let at = rest.length;
  if (ref !== undefined) {
    const which = position?.before !== undefined ? 'before' : 'after';
    if (ref === item.id) throw invalid(`${field}.${which}: an item cannot be placed relative to itself`);
    const index = rest.findIndex((s) => s.id === ref);
    if (index < 0) throw invalid(`${field}.${which}: ${ref} is not a sibling of the item`);
    at = which === 'before' ? index : index + 1;
  }
  const [prev, next] = [rest[at - 1], rest[at]];
  const fits = (!prev || compareOrdered(prev, item) < 0) && (!next || compareOrdered(item, next) < 0);
  return fits ? item.order : orderKeyBetween(prev?.order, next?.order);
}
