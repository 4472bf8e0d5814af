import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * The one way siblings are ordered (pages, spaces and collections, site sections and site spaces, a table's
 * records): fractional-indexing keys. An item goes between two neighbours with a key between theirs, without
 * renumbering anything; keys compare as byte strings (in PostgreSQL, a `text collate "C"` column), and ties are
 * broken by id.
 */
export function orderKeyBetween(before: string | null | undefined, after: string | null | undefined): string {
  return generateKeyBetween(before || null, after || null);
}

/** `n` keys in order between two neighbours (either may be null: the start or the end). */
export function orderKeysBetween(
  before: string | null | undefined,
  after: string | null | undefined,
  n: number,
): string[] {
  return generateNKeysBetween(before || null, after || null, n);
}

/** The keys of items put in this order (from the start). */
export const orderKeysFor = (n: number): string[] => orderKeysBetween(null, null, n);

/** Byte order of two keys, as `collate "C"` sorts them. */
export const compareOrderKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
