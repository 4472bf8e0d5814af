import { describe, expect, it } from 'vitest';
import type { IRevision } from '../spaces/space.entity.ts';
import type { PageRecord, RevisionTree } from './revision-tree.ts';
import { revisionRepository, TREE_CACHE_ENTRIES, treeCacheUsage } from './revision.repository.ts';

let next = 0;
/** A tree of `pages` pages (one record shared: the cache weighs entries, not records). */
function treeOf(pages: number): RevisionTree {
  const record = { title: 'A page' } as PageRecord;
  const id = `rev-${++next}`;
  return {
    revision: { id, spaceId: 'space-1', lineage: [] } as unknown as IRevision,
    pages: new Map(Array.from({ length: pages }, (_, i) => [`p${i}`, record])),
    files: new Map(),
  };
}

/** Lets the cache weigh the trees it was just given (it does when their promises settle). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the revision tree cache is bounded by pages, not by trees', () => {
  it('keeps many small trees: a count of trees is not the bound', async () => {
    for (let i = 0; i < 500; i++) revisionRepository.prime(treeOf(10));
    await settled();
    expect(treeCacheUsage()).toEqual({ weight: 500 * 11, trees: 500 });
  });

  it('evicts the least recently used trees to stay within its budget of pages', async () => {
    const big = Math.floor(TREE_CACHE_ENTRIES * 0.45);
    for (let i = 0; i < 3; i++) revisionRepository.prime(treeOf(big));
    await settled();
    const usage = treeCacheUsage();
    expect(usage.weight).toBeLessThanOrEqual(TREE_CACHE_ENTRIES);
    // The two newest large trees stay; the small ones and the oldest large one made room.
    expect(usage.weight).toBeGreaterThanOrEqual(2 * big);
    expect(usage.trees).toBeLessThan(500);
  });

  it('keeps a tree larger than the whole budget (alone) rather than reading it at every use', async () => {
    revisionRepository.prime(treeOf(TREE_CACHE_ENTRIES + 1_000));
    await settled();
    expect(treeCacheUsage()).toEqual({ weight: TREE_CACHE_ENTRIES, trees: 1 });
  });
});
