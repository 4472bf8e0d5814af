import { describe, expect, it } from 'vitest';
import type { Collection, Space } from '../../api/endpoints.ts';
import { orgMoveOf, placeOrg } from './org-placed.ts';
import { dropMessage, dropMove } from './placed.ts';

const col = (id: string, parent?: string) => ({ id, title: id.toUpperCase(), parent }) as unknown as Collection;
const sp = (id: string, parent?: string) => ({ id, title: id.toUpperCase(), parent }) as unknown as Space;
// top: [c1: [c1a, s1x], c2, s1, s2]
const tree = placeOrg([col('c1'), col('c2'), col('c1a', 'c1')], [sp('s1'), sp('s2'), sp('s1x', 'c1')]);
const move = (dragged: string, target: string, zone: 'before' | 'after' | 'inside') => {
  const m = dropMove(tree, dragged, target, zone);
  return typeof m === 'string' ? m : orgMoveOf(tree, dragged, m);
};

describe('the organization tree as the drag sees it', () => {
  it('places collections then spaces in each parent; a collection holds, a space does not', () => {
    expect(tree.get('collection:c1')).toMatchObject({ parent: null, index: 0 });
    expect(tree.get('space:s1')).toMatchObject({ parent: null, index: 2, children: undefined });
    expect(tree.get('collection:c1')!.children!.map((n) => n.id)).toEqual(['collection:c1a', 'space:s1x']);
    expect(tree.get('space:s1x')).toMatchObject({ parent: 'collection:c1', index: 1 });
  });

  it('moves before or after an item of the same kind, into a collection, or to the end of an empty one', () => {
    expect(move('space:s2', 'space:s1', 'before')).toEqual({
      parent: null,
      position: { before: { type: 'space', space: 's1' } },
    });
    expect(move('space:s1', 'space:s2', 'after')).toEqual({
      parent: null,
      position: { after: { type: 'space', space: 's2' } },
    });
    expect(move('space:s1', 'space:s1x', 'before')).toEqual({
      parent: 'c1',
      position: { before: { type: 'space', space: 's1x' } },
    });
    expect(move('collection:c2', 'collection:c1', 'inside')).toEqual({
      parent: 'c1',
      position: { after: { type: 'collection', collection: 'c1a' } },
    });
    expect(move('space:s2', 'collection:c2', 'inside')).toEqual({ parent: 'c2' });
  });

  it('keeps each kind together: a space dropped among collections goes first among the spaces', () => {
    expect(move('space:s2', 'collection:c1', 'before')).toEqual({
      parent: null,
      position: { before: { type: 'space', space: 's1' } },
    });
    expect(move('collection:c1a', 'space:s2', 'after')).toEqual({
      parent: null,
      position: { after: { type: 'collection', collection: 'c2' } },
    });
  });

  it('refuses a collection into itself or its own collections, and says so', () => {
    expect(move('collection:c1', 'collection:c1a', 'inside')).toBe('refused');
    expect(move('collection:c1', 'space:s1x', 'after')).toBe('refused');
    expect(dropMessage('C1', 'C1A', 'inside', 'refused', true, 'collections')).toBe(
      'C1 cannot go into itself or its own collections: not moved',
    );
    expect(move('space:s1', 'collection:c2', 'after')).toBe('same');
  });
});
