import { DEFAULT_PAGE_SIZE, type List } from '@quire/contracts';
import { invalid, type PageRequest } from '@quire/kit';

type Key = (string | number)[];

const compare = (a: Key, b: Key): number => {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

/**
 * Keyset pagination over a list already in memory and in order (a site's structure is small): the cursor is
 * the sort key of the last item of a page, so items added or removed between pages do not shift the next one.
 */
export function pageOf<T>(items: T[], keyOf: (t: T) => Key, req: PageRequest): List<T> {
  const limit = req.limit ?? DEFAULT_PAGE_SIZE;
  let rest = items;
  if (req.page !== undefined) {
    const after = decode(req.page, items[0] ? keyOf(items[0]).length : 0);
    rest = items.filter((t) => compare(keyOf(t), after) > 0);
  }
  const page = rest.slice(0, limit);
  const list: List<T> = { count: items.length, items: page };
  const last = page.at(-1);
  if (limit > 0 && rest.length > page.length && last) list.next = { page: Buffer.from(JSON.stringify(keyOf(last))).toString('base64url') };
  return list;
}

function decode(page: string, length: number): Key {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    throw invalid('Invalid `page`: not a cursor of this list');
  }
  if (!Array.isArray(values) || (length && values.length !== length) || !values.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw invalid('Invalid `page`: not a cursor of this list');
  }
  return values;
}
