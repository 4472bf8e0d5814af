import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../api/endpoints.ts';
import { dropMessage, dropMove, place, within, zoneAt } from './placed.ts';

const page = (id: string, pages: RevisionPage[] = []) =>
  ({ id, title: id.toUpperCase(), pages }) as unknown as RevisionPage;
// a: [a1, a2: [a2x]], b, c
const tree = place([page('a', [page('a1'), page('a2', [page('a2x')])]), page('b'), page('c')]);

describe('dropping a page on a row of the tree', () => {
  it('splits a row in thirds: before, inside, after', () => {
    expect([0, 9, 10, 19, 20, 29].map((y) => zoneAt(100 + y, 100, 30))).toEqual([
      'before',
      'before',
      'inside',
      'inside',
      'inside',
      'after',
    ]);
  });

  it('splits a row nothing nests in in halves: before, after', () => {
    expect([0, 14, 15, 29].map((y) => zoneAt(100 + y, 100, 30, false))).toEqual(['before', 'before', 'after', 'after']);
  });

  it('puts the page before or after the target, among the target’s siblings', () => {
    expect(dropMove(tree, 'c', 'a', 'before')).toEqual({ into: null, at: 0 });
    expect(dropMove(tree, 'a', 'c', 'after')).toEqual({ into: null, at: 2 });
    expect(dropMove(tree, 'a', 'b', 'after')).toEqual({ into: null, at: 1 });
    expect(dropMove(tree, 'c', 'a1', 'after')).toEqual({ into: 'a', at: 1 });
    expect(dropMove(tree, 'a2x', 'b', 'before')).toEqual({ into: null, at: 1 });
  });

  it('nests the page as the last child of the target', () => {
    expect(dropMove(tree, 'c', 'b', 'inside')).toEqual({ into: 'b', at: 0 });
    expect(dropMove(tree, 'b', 'a', 'inside')).toEqual({ into: 'a', at: 2 });
    expect(dropMove(tree, 'a1', 'a', 'inside')).toEqual({ into: 'a', at: 1 });
  });

  it('tells a drop that leaves the page where it is', () => {
    expect(dropMove(tree, 'a', 'b', 'before')).toBe('same');
    expect(dropMove(tree, 'b', 'a', 'after')).toBe('same');
    expect(dropMove(tree, 'a2', 'a', 'inside')).toBe('same');
  });

  it('refuses a drop on the page itself or into its own descendants', () => {
    expect(within(tree, 'a2x', 'a')).toBe(true);
    expect(within(tree, 'b', 'a')).toBe(false);
    for (const zone of ['before', 'inside', 'after'] as const) {
      expect(dropMove(tree, 'a', 'a', zone)).toBe('refused');
      expect(dropMove(tree, 'a', 'a2x', zone)).toBe('refused');
      expect(dropMove(tree, 'a2', 'a2x', zone)).toBe('refused');
    }
    expect(dropMove(tree, 'a2x', 'a', 'before')).toEqual({ into: null, at: 0 });
  });

  it('says what a drop does, before and after it', () => {
    const move = { into: 'b', at: 0 };
    expect(dropMessage('C', 'B', 'inside', move)).toBe('Nest C under B');
    expect(dropMessage('C', 'B', 'inside', move, true)).toBe('Nested C under B');
    expect(dropMessage('C', 'A', 'before', move)).toBe('Put C before A');
    expect(dropMessage('C', 'A', 'after', move, true)).toBe('Moved C after A');
    expect(dropMessage('A', 'A2X', 'inside', 'refused')).toBe('A cannot go into itself or its own pages');
    expect(dropMessage('A', 'B', 'before', 'same')).toBe('A stays where it is');
  });
});
