import { orderKeyBetween, orderKeysBetween } from '@quire/document/model';
import { describe, expect, it } from 'vitest';
import { diffTrees } from './diff-trees.ts';
import { MarkdownStore, page } from './merge.fixtures.ts';
import { mergeTrees } from './merge-trees.ts';
import type { PageSnapshot, TreeSnapshot } from './tree.ts';

/**
 * 10,000 pages (100 groups of 99 documents, each with its own markdown); each side changes about ten pages.
 * Prints the timings (not asserted: the machine is shared) and checks the merge reads only the markdown of the
 * pages whose document changed on both sides.
 */
const GROUPS = 100;
const PER_GROUP = 99;
const CHILD_ORDERS = orderKeysBetween(null, null, PER_GROUP);
/** An order key after every child of a group. */
const LAST = orderKeyBetween(CHILD_ORDERS.at(-1)!, null);

function buildBase(store: MarkdownStore): Map<string, PageSnapshot> {
  const base = new Map<string, PageSnapshot>();
  const groupOrders = orderKeysBetween(null, null, GROUPS);
  for (let g = 0; g < GROUPS; g++) {
    const gid = `g${g}`;
    base.set(
      gid,
      page(gid, { kind: 'group', order: groupOrders[g]!, title: `Group ${g}`, layout: { width: 'default' } }),
    );
    for (let c = 0; c < PER_GROUP; c++) {
      const id = `${gid}-p${c}`;
      const markdown = `# Page ${g}.${c}\n\nFirst paragraph of ${id}.\n\nSecond paragraph of ${id}.\n`;
      base.set(
        id,
        page(id, {
          parentId: gid,
          order: CHILD_ORDERS[c]!,
          title: `Page ${g}.${c}`,
          documentHash: store.put(markdown),
          layout: { width: 'default', cover: true },
        }),
      );
    }
  }
  return base;
}

/** A revision as the engine would load it: every page a fresh object. */
const fresh = (t: TreeSnapshot): Map<string, PageSnapshot> =>
  new Map([...t].map(([id, p]) => [id, structuredClone(p)]));

function change(t: Map<string, PageSnapshot>, id: string, fields: Partial<PageSnapshot>): void {
  t.set(id, { ...t.get(id)!, ...fields });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('mergeTrees at scale', () => {
  it('merges two 10,000-page revisions that each change ~10 pages, reading only the documents changed on both sides', async () => {
    const store = new MarkdownStore();
    const base = buildBase(store);
    const text = (id: string) => store.text(base.get(id)!.documentHash);
    const ours = fresh(base);
    const theirs = fresh(base);
    // Ours: 3 titles, 3 documents, a move, a deletion, 2 new pages.
    for (const id of ['g1-p1', 'g2-p2', 'g3-p3']) change(ours, id, { title: `Ours ${id}` });
    for (const id of ['g10-p0', 'g11-p0', 'g12-p0'])
      change(ours, id, { documentHash: store.put(text(id).replace('First paragraph', 'FIRST paragraph')) });
    change(ours, 'g20-p5', { parentId: 'g21' });
    ours.delete('g30-p30');
    ours.set('new-o1', page('new-o1', { parentId: 'g40', order: LAST, documentHash: store.put('new\n') }));
    ours.set('new-o2', page('new-o2', { parentId: 'g41', order: LAST }));
    // Theirs: 3 emojis, 3 documents (two also changed by ours, elsewhere; one on the same line), a move, a
    // deletion, 2 new pages.
    for (const id of ['g4-p4', 'g5-p5', 'g6-p6']) change(theirs, id, { emoji: '✨' });
    change(theirs, 'g10-p0', {
      documentHash: store.put(text('g10-p0').replace('Second paragraph', 'SECOND paragraph')),
    });
    change(theirs, 'g11-p0', {
      documentHash: store.put(text('g11-p0').replace('Second paragraph', 'SECOND paragraph')),
    });
    change(theirs, 'g12-p0', { documentHash: store.put(text('g12-p0').replace('First paragraph', 'First PARAGRAPH')) });
    change(theirs, 'g50-p1', { parentId: 'g51', order: LAST });
    theirs.delete('g60-p60');
    theirs.set('new-t1', page('new-t1', { parentId: 'g70', order: LAST }));
    theirs.set('new-t2', page('new-t2', { parentId: 'g71', order: LAST }));

    const run = () => mergeTrees({ base, ours, theirs, loadMarkdown: store.load }, store.hash);
    const result = await run();
    expect(result.tree.size).toBe(base.size - 2 + 4);
    expect(result.conflicts).toEqual([{ pageId: 'g12-p0', fields: ['document'] }]);
    expect(result.documents.get(result.tree.get('g10-p0')!.documentHash!)).toContain('FIRST paragraph');
    expect(result.documents.get(result.tree.get('g10-p0')!.documentHash!)).toContain('SECOND paragraph');
    expect(result.tree.get('g20-p5')!.parentId).toBe('g21');
    expect(result.tree.get('g50-p1')!.parentId).toBe('g51');
    expect(result.tree.get('g1-p1')!.title).toBe('Ours g1-p1');
    expect(result.tree.get('g4-p4')!.emoji).toBe('✨');
    const bothChanged = ['g10-p0', 'g11-p0', 'g12-p0'];
    expect(new Set(store.loads)).toEqual(
      new Set(bothChanged.flatMap((id) => [base, ours, theirs].map((t) => t.get(id)!.documentHash))),
    );

    const timings: number[] = [];
    for (let i = 0; i < 7; i++) {
      const start = performance.now();
      await run();
      timings.push(performance.now() - start);
    }
    const diffTimings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      const changes = await diffTrees(base, theirs, store.load);
      diffTimings.push(performance.now() - start);
      expect(changes).toHaveLength(3 + 3 + 1 + 1 + 2);
    }
    console.log(
      `merge of ${base.size} pages, ~10 changes a side: median ${median(timings).toFixed(1)} ms (runs: ${timings.map((t) => t.toFixed(1)).join(', ')}); ` +
        `diffTrees: median ${median(diffTimings).toFixed(1)} ms`,
    );
  });
});
