import { describe, expect, it } from 'vitest';
import { diffBlocks, nodeIdsOf, signature } from './blocks.ts';

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

describe('nodeIdsOf', () => {
  const bare = (text: string) => {
    const { key: _key, ...n } = p(text);
    return n;
  };

  it('gives a keyed block its key', () => {
    expect(nodeIdsOf([p('a', 'k1')])).toEqual(['k1']);
  });

  it('gives an unkeyed block the same id wherever it moves, and equal blocks distinct ids', () => {
    const [a, b, a2] = nodeIdsOf([bare('a'), bare('b'), bare('a')]);
    expect(a).not.toBe(a2);
    expect(a).not.toBe(b);
    expect(nodeIdsOf([bare('x'), bare('b'), bare('a')]).slice(1)).toEqual([b, a]);
    for (const id of [a, b, a2]) expect(id).toMatch(/^b[0-9a-z]+\.\d+$/);
  });

  it('gives an edited block a new id', () => {
    expect(nodeIdsOf([bare('a')])[0]).not.toBe(nodeIdsOf([bare('a!')])[0]);
  });
});
