import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cursorText, decodeCursor, encodeCursor, pageOfList } from './pagination.ts';

const NOT_A_CURSOR = 'Invalid `page`: not a cursor of this list';
const raw = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('cursors', () => {
  const shape = z.tuple([z.number().min(0), cursorText]);

  it('are the base64url JSON of the last key, decoded against the list key shape', () => {
    const page = encodeCursor([1.5, 'abc']);
    expect(page).toBe(raw([1.5, 'abc']));
    expect(decodeCursor(page, shape)).toEqual([1.5, 'abc']);
  });

  it.each([
    ['not base64url', '!!!'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['empty', ''],
    ['another shape', raw(['a', 'b'])],
    ['a value out of range', raw([-1, 'a'])],
    ['an object', raw({ a: 1 })],
    ['a NUL in a text', raw([1, 'a\u0000'])],
    ['a lone surrogate', raw([1, '\ud800'])],
    ['too long', 'A'.repeat(20_000)],
  ])('a forged one (%s) is a 400 naming `page`', (_, page) => {
    expect(() => decodeCursor(page, shape)).toThrow(NOT_A_CURSOR);
    try {
      decodeCursor(page, shape);
    } catch (err) {
      expect(err).toMatchObject({ reason: 'invalid_input' });
    }
  });
});

describe('in-memory keyset pages', () => {
  const items = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: (i + 1) * 10 }));
  const ids = (list: { id: string }[]) => list.map((x) => x.id);
  const key = (x: { id: string; position: number }) => [x.position, x.id];

  it('pages by the sort key and survives an insert between pages', () => {
    const first = pageOfList(items, key, { limit: 2 });
    expect(ids(first.items)).toEqual(['a', 'b']);
    expect(first.count).toBe(4);
    const grown = [...items.slice(0, 1), { id: 'a2', position: 15 }, ...items.slice(1)];
    const second = pageOfList(grown, key, { limit: 2, page: first.next!.page });
    expect(ids(second.items)).toEqual(['c', 'd']);
    expect(second.next).toBeUndefined();
    expect(pageOfList(items, key, { limit: 0 })).toEqual({ count: 4, items: [] });
  });

  it('goes on after a removed item', () => {
    const first = pageOfList(items, key, { limit: 2 });
    const shrunk = items.filter((x) => x.id !== 'b');
    expect(ids(pageOfList(shrunk, key, { limit: 2, page: first.next!.page }).items)).toEqual(['c', 'd']);
  });

  it('pages a list in descending order of its keys, past an item removed between pages', () => {
    const newest = [...items].reverse();
    const first = pageOfList(newest, key, { limit: 2 }, 'desc');
    expect(ids(first.items)).toEqual(['d', 'c']);
    const shrunk = newest.filter((x) => x.id !== 'c');
    const second = pageOfList(shrunk, key, { limit: 2, page: first.next!.page }, 'desc');
    expect(ids(second.items)).toEqual(['b', 'a']);
    expect(second.next).toBeUndefined();
  });

  it('pages a list in reading order by position', () => {
    const words = ['zeta', 'alpha', 'mid'];
    const first = pageOfList(words, (w, i) => [i, w], { limit: 2 });
    expect(first.items).toEqual(['zeta', 'alpha']);
    expect(pageOfList(words, (w, i) => [i, w], { page: first.next!.page }).items).toEqual(['mid']);
  });

  it('refuses a cursor of another shape', () => {
    expect(() => pageOfList(items, key, { page: 'nope' })).toThrow(NOT_A_CURSOR);
    expect(() => pageOfList(items, key, { page: raw(['10', 'a']) })).toThrow(NOT_A_CURSOR);
    expect(() => pageOfList(items, key, { page: raw([10]) })).toThrow(NOT_A_CURSOR);
    expect(() => pageOfList(items, key, { page: raw([10, 'a', 'x']) })).toThrow(NOT_A_CURSOR);
  });
});
