import type { EntityManager } from '@mikro-orm/postgresql';
import { CursorError, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import { DEFAULT_PAGE_SIZE, type List } from '@quire/contracts';
import { invalid } from '../errors.ts';

export interface PageRequest {
  page?: string | undefined;
  limit?: number | undefined;
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
  if (req.page !== undefined) assertCursor(req.page, Object.keys(orderBy).length);
  if (limit === 0) return { count: await em.count(entity, where as never), items: [] };
  let cursor;
  try {
    cursor = await em.findByCursor(entity, { where, orderBy, first: limit, after: req.page, includeCount: true } as never);
  } catch (err) {
    // A cursor of the right shape whose values do not fit the columns (a fraction for a bigint…).
    if (req.page !== undefined && (err instanceof CursorError || isDriverError(err))) throw invalid('Invalid `page`: not a cursor of this list');
    throw err;
  }
  const items = (cursor.items as E[]).map(toItem);
  const list: List<T> = { count: cursor.totalCount as number, items };
  if (cursor.hasNextPage && cursor.endCursor) list.next = { page: cursor.endCursor };
  return list;
}

function assertCursor(page: string, keys: number): void {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Invalid `page`: not a cursor of this list');
  }
  const ok = Array.isArray(values) && values.length === keys && values.every((v) => typeof v === 'string' || typeof v === 'number');
  if (!ok) throw invalid('Invalid `page`: not a cursor of this list');
}

const isDriverError = (err: unknown) =>
  typeof err === 'object' && err !== null && /Exception$/.test((err as { name?: string }).name ?? '') && 'code' in err;
