import { describe, expect, it } from 'vitest';
import { renumber, reorder } from './order.ts';

const items = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: (i + 1) * 10 }));
const ids = (list: { id: string }[]) => list.map((x) => x.id);

describe('sibling order', () => {
  it('puts an item before or after a sibling, or last', () => {
    expect(ids(reorder(items, items[3]!, { before: 'a' }, 'position'))).toEqual(['d', 'a', 'b', 'c']);
    expect(ids(reorder(items, items[0]!, { after: 'c' }, 'position'))).toEqual(['b', 'c', 'a', 'd']);
    expect(ids(reorder(items, items[1]!, undefined, 'position'))).toEqual(['a', 'c', 'd', 'b']);
    expect(() => reorder(items, items[1]!, { after: 'b' }, 'position')).toThrow(
      'position.after: an item cannot be placed relative to itself',
    );
    expect(() => reorder(items, items[1]!, { before: 'z' }, 'position')).toThrow(
      'position.before: z is not a sibling of the item',
    );
  });

  it('renumbers 1, 2, … and reports what changed', () => {
    const list = [
      { id: 'x', position: 1 },
      { id: 'y', position: 5 },
      { id: 'z', position: 7 },
    ];
    expect(ids(renumber(list))).toEqual(['y', 'z']);
    expect(list.map((x) => x.position)).toEqual([1, 2, 3]);
  });
});
