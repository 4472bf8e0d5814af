import { describe, expect, it } from 'vitest';
import { diffBlocks, signature } from './blocks.ts';

const p = (text: string, key = text) => ({
  object: 'block',
  type: 'paragraph',
  key,
  nodes: [{ object: 'text', leaves: [{ text }] }],
});

describe('diffBlocks', () => {
  it('ignores node keys when matching blocks', () => {
    expect(signature(p('a', 'k1'))).toBe(signature(p('a', 'k2')));
  });

  it('shows an edited block as removed then added, between unchanged ones', () => {
    const d = diffBlocks([p('a'), p('b'), p('c')], [p('a', 'x'), p('B'), p('c', 'y')]);
    expect(d.map((x) => `${x.kind}:${x.node.key}`)).toEqual(['same:x', 'removed:b', 'added:B', 'same:y']);
    expect(new Set(d.map((x) => x.id)).size).toBe(d.length);
  });

  it('handles a page created or deleted (one side empty)', () => {
    expect(diffBlocks([], [p('a')]).map((x) => x.kind)).toEqual(['added']);
    expect(diffBlocks([p('a'), p('b')], []).map((x) => x.kind)).toEqual(['removed', 'removed']);
  });
});
