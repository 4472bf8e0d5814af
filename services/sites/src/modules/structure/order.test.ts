import { describe, expect, it } from 'vitest';
import { renumber, reorder } from './order.ts';
import { pageOf } from './page.ts';
import { slugify, uniqueSlug } from './paths.ts';

const items = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: (i + 1) * 10 }));
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('sibling order', () => {
  it('puts an item before or after a sibling, or last', () => {
    expect(ids(reorder(items, items[3]!, { before: 'a' }, 'position'))).toEqual(['d', 'a', 'b', 'c']);
    expect(ids(reorder(items, items[0]!, { after: 'c' }, 'position'))).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(reorder(items, items[1]!, undefined, 'position'))).toEqual(['a', 'c', 'd', 'b']);
    expect(() => reorder(items, items[1]!, { after: 'b' }, 'position')).toThrow('position.after: an item cannot be placed relative to itself');
    expect(() => reorder(items, items[1]!, { before: 'z' }, 'position')).toThrow('position.before: z is not a sibling of the item');
  });

  it('renumbers 1, 2, … and reports what changed', () => {
    const list = [{ id: 'x', position: 1 }, { id: 'y', position: 5 }, { id: 'z', position: 7 }];
    expect(ids(renumber(list))).toEqual(['y', 'z']);
    expect(list.map((x) => x.position)).toEqual([1, 2, 3]);
  });
});

describe('in-memory keyset pages', () => {
  it('pages by the sort key and survives an insert between pages', () => {
    const key = (x: { id: string; position: number }) => [x.position, x.id];
    const first = pageOf(items, key, { limit: 2 });
    expect(ids(first.items)).toEqual(['a', 'b']);
    expect(first.count).toBe(4);
    const grown = [...items.slice(0, 1), { id: 'a2', position: 15 }, ...items.slice(1)];
    const second = pageOf(grown, key, { limit: 2, page: first.next!.page });
    expect(ids(second.items)).toEqual(['c', 'd']);
    expect(second.next).toBeUndefined();
    expect(() => pageOf(items, key, { page: 'nope' })).toThrow('Invalid `page`: not a cursor of this list');
    expect(pageOf(items, key, { limit: 0 })).toEqual({ count: 4, items: [] });
  });
});

describe('paths', () => {
  it('makes URL segments from titles, unique among siblings', () => {
    expect(slugify('Café API — Reference!', 'space')).toBe('cafe-api-reference');
    expect(slugify('🚀', 'space')).toBe('space');
    expect(uniqueSlug('guide', ['guide', 'guide-2'])).toBe('guide-3');
  });
});
