import { describe, expect, it } from 'vitest';
import { compareOrderKeys, orderKeyBetween, orderKeysBetween, orderKeysFor } from './order-keys.ts';

describe('order keys', () => {
  it('puts a key between any two, at either end, and many in one place, always in byte order', () => {
    const keys = orderKeysFor(5);
    expect([...keys].sort(compareOrderKeys)).toEqual(keys);
    let list = [...keys];
    let seed = 3;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 500; i++) {
      const at = rand(list.length + 1);
      const key = orderKeyBetween(list[at - 1], list[at]);
      list = [...list.slice(0, at), key, ...list.slice(at)];
    }
    expect([...list].sort(compareOrderKeys)).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    const squeezed = orderKeysBetween(list[0], list[1], 10);
    expect([list[0]!, ...squeezed, list[1]!].sort(compareOrderKeys)).toEqual([list[0], ...squeezed, list[1]]);
  });

  it('reads an empty key as an end', () => {
    expect(orderKeyBetween('', '')).toBe(orderKeyBetween(null, null));
  });
});
