import { describe, expect, it } from 'vitest';
import { compareOrdered, keyAt, lastKey, type Ordered } from './order.ts';

const items: Ordered[] = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, order: `a${i}` }));
const ids = (list: Ordered[]) => list.map((x) => x.id);
/** The siblings' order once `item` takes `key`. */
const after = (item: Ordered, key: string) =>
  ids(items.map((s) => (s.id === item.id ? { ...s, order: key } : s)).sort(compareOrdered));

describe('sibling order', () => {
  it('puts an item before or after a sibling, or last, with one new key between its neighbours', () => {
    const d = keyAt(items, items[3]!, { before: 'a' }, 'position');
    expect(d < 'a0').toBe(true);
    expect(after(items[3]!, d)).toEqual(['d', 'a', 'b', 'c']);
    const a = keyAt(items, items[0]!, { after: 'c' }, 'position');
    expect(a > 'a2' && a < 'a3').toBe(true);
    expect(after(items[0]!, a)).toEqual(['b', 'c', 'a', 'd']);
    expect(after(items[1]!, keyAt(items, items[1]!, undefined, 'position'))).toEqual(['a', 'c', 'd', 'b']);
    expect(() => keyAt(items, items[1]!, { after: 'b' }, 'position')).toThrow(
      'position.after: an item cannot be placed relative to itself',
    );
    expect(() => keyAt(items, items[1]!, { before: 'z' }, 'position')).toThrow(
      'position.before: z is not a sibling of the item',
    );
  });

  it('keeps the key of an item that is already where it is put', () => {
    expect(keyAt(items, items[2]!, { after: 'b' }, 'position')).toBe('a2');
    expect(keyAt(items, items[2]!, { before: 'd' }, 'position')).toBe('a2');
    expect(keyAt(items, items[3]!, undefined, 'position')).toBe('a3');
  });

  it('orders by key byte by byte, ties by id; the next key follows the greatest', () => {
    const list: Ordered[] = [
      { id: 'y', order: 'a1' },
      { id: 'x', order: 'a1' },
      { id: 'z', order: 'Zz' },
      { id: 'w', order: 'a0V' },
    ];
    expect(ids([...list].sort(compareOrdered))).toEqual(['z', 'w', 'x', 'y']);
    expect(lastKey(list)).toBe('a2');
    expect(lastKey([])).toBe('a0');
  });
});
