import type { EntityManager } from '@mikro-orm/postgresql';
import { CursorError, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import { DEFAULT_PAGE_SIZE, type List } from '@quire/contracts';
import { z } from 'zod';
import { invalid, type DomainError } from '../errors.ts';

export interface PageRequest {
  page?: string | undefined;
  limit?: number | undefined;
}

/**
 * What a page cursor holds: the sort key of the last item of the page before (its columns in the list's
 * order, the last one unique). The one cursor format of every list: `base64url(JSON.stringify(key))`, the
 * format MikroORM's `findByCursor` uses too.
 */
export type CursorKey = readonly (string | number)[];

/** The one error of a cursor the list did not issue (undecodable, of another list, values out of range): a 400. */
export const notACursor = (): DomainError => invalid('Invalid `page`: not a cursor of this list');

/** A text value of a cursor key: an id, a name, a path, a timestamp (no NUL, no lone surrogate, at most 2,048 characters). */
export const cursorText = z
  .string()
  .max(2048)
  .regex(/^[^\u0000\ud800-\udfff]*$/);

const ANY_KEY = z.array(z.union([cursorText, z.number().finite()])).max(8);

/** The cursor of a page that ends with an item of this sort key. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The sort key a cursor holds, checked against the list's key shape (a zod tuple: `z.tuple([cursorText,
 * z.number()])`); anything else is `notACursor()`.
 */
export function decodeCursor<T>(page: string, shape: z.ZodType<T>): T {
  if (!/^[A-Za-z0-9_-]{1,16384}$/.test(page)) throw notACursor();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
  const parsed = shape.safeParse(values);
  if (!parsed.success) throw notACursor();
  return parsed.data;
}

/**
 * Keyset pagination producing the List envelope, on MikroORM's `findByCursor`: the `orderBy` must end
 * with a unique column (the primary key) so the cursor is total. `count` is the total number of matches,
 * `next` is absent on the last page, `page` is an opaque cursor and a bad one is a 400.
 */
export async function paginate<E extends object, T>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<E>,
  orderBy: QueryOrderMap<E>,
  req: PageRequest,
  toItem: (e: E) => T,
): Promise<List<T>> {
  const limit = req.limit ?? DEFAULT_PAGE_SIZE;
  if (req.page !== undefined) decodeCursor(req.page, ANY_KEY.length(Object.keys(orderBy).length));
  if (limit === 0) return { count: await em.count(entity, where as never), items: [] };
  let cursor;
  try {
    cursor = await em.findByCursor(entity, {
      where,
      orderBy,
      first: limit,
      after: req.page,
      includeCount: true,
    } as never);
  } catch (err) {
    // A cursor of the right shape whose values do not fit the columns (a fraction for a bigint…).
    if (req.page !== undefined && (err instanceof CursorError || isDriverError(err))) throw notACursor();
    throw err;
  }
  const items = (cursor.items as E[]).map(toItem);
  const list: List<T> = { count: cursor.totalCount as number, items };
  if (cursor.hasNextPage && cursor.endCursor) list.next = { page: cursor.endCursor };
  return list;
}

/**
 * Keyset pagination of a list already in memory (a revision's files, a site's structure, a comment thread's
 * commenters), the items in the order of their `keyOf` key (an item's reading position is a key too:
 * `(item, i) => [i, item.id]`). The cursor is the last key of a page, so an item added or removed between
 * pages does not shift the next one; a cursor whose key is not of the list's shape is `notACursor()`. `order: 'desc'`:
 * the items are in descending order of their keys.
 */
export function pageOfList<T>(
  items: readonly T[],
  keyOf: (item: T, index: number) => CursorKey,
  req: PageRequest,
  order: 'asc' | 'desc' = 'asc',
): List<T> {
  const sign = order === 'asc' ? 1 : -1;
  const limit = req.limit ?? DEFAULT_PAGE_SIZE;
  const keys = items.map(keyOf);
  let start = 0;
  if (req.page !== undefined) {
    const after = decodeCursor(req.page, ANY_KEY);
    const sample = keys[0];
    if (sample && (after.length !== sample.length || after.some((v, i) => typeof v !== typeof sample[i])))
      throw notACursor();
    start = keys.findIndex((key) => sign * compareKeys(key, after) > 0);
    if (start < 0) start = keys.length;
  }
  const page = items.slice(start, start + limit);
  const list: List<T> = { count: items.length, items: page };
  const end = start + page.length;
  if (page.length > 0 && end < items.length) list.next = { page: encodeCursor(keys[end - 1]!) };
  return list;
}

/** Orders two keys of the same shape, column by column (numbers by value, texts by code unit). */
export function compareKeys(a: CursorKey, b: CursorKey): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const isDriverError = (err: unknown) =>
  typeof err === 'object' && err !== null && /Exception$/.test((err as { name?: string }).name ?? '') && 'code' in err;
