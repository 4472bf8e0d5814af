import { describe, expect, it } from 'vitest';
import { findCycles } from './structure.ts';
import { page, tree } from './merge.fixtures.ts';
import { ATTRIBUTE_FIELDS, inTreeOrder, pageChanged, pathOf, sameValue, type PageSnapshot } from './tree.ts';

const other: { [K in keyof PageSnapshot]: PageSnapshot[K] } = {
  id: 'p',
  parentId: 'x',
  order: 'b0',
  kind: 'group',
  title: 'T',
  slug: 's',
  emoji: 'e',
  icon: 'i',
  description: 'd',
  hidden: true,
  noIndex: true,
  noRobotsIndex: true,
  layout: { width: 'wide' },
  cover: { yPos: 1 },
  href: 'h',
  documentHash: 'sha256:x',
};

describe('tree helpers', () => {
  it('pageChanged notices a change to any attribute or to the document, and nothing else', () => {
    const p = page('p');
    expect(pageChanged(p, { ...p, layout: null })).toBe(false);
    for (const field of [...ATTRIBUTE_FIELDS, 'documentHash'] as const)
      expect(pageChanged(p, { ...p, [field]: other[field] }), field).toBe(true);
  });

  it('sameValue compares JSON values deeply, ignoring key order and undefined keys', () => {
    expect(sameValue({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue(null, {})).toBe(false);
    expect(sameValue([], {})).toBe(false);
  });

  it('inTreeOrder reads depth first by (order, id) and puts pages outside the tree last; pathOf joins slugs', () => {
    const t = tree(
      page('b', { order: 'a1' }),
      page('a', { order: 'a1' }),
      page('a2', { parentId: 'a', order: 'a0', slug: 'two' }),
      page('lost', { parentId: 'nowhere' }),
      page('top', { order: 'a0' }),
    );
    expect(inTreeOrder(t).map((p) => p.id)).toEqual(['top', 'a', 'a2', 'b', 'lost']);
    expect(pathOf(t, 'a2')).toBe('a/two');
    expect(pathOf(t, 'missing')).toBeUndefined();
  });

  it('findCycles finds every cycle once, from any of its pages', () => {
    const t = tree(
      page('a', { parentId: 'b' }),
      page('b', { parentId: 'c' }),
      page('c', { parentId: 'a' }),
      page('d', { parentId: 'a' }),
      page('e', { parentId: 'e' }),
      page('f'),
    );
    expect(findCycles(t).map((c) => [...c].sort())).toEqual([['a', 'b', 'c'], ['e']]);
    expect(findCycles(t, ['d']).map((c) => [...c].sort())).toEqual([['a', 'b', 'c']]);
    expect(findCycles(t, ['f'])).toEqual([]);
  });
});
