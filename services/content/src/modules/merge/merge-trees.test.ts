import { describe, expect, it } from 'vitest';
import { edit, MarkdownStore, page, tree, withPages, without } from './merge.fixtures.ts';
import { mergeTrees } from './merge-trees.ts';
import type { MergeLabels, TreeSnapshot } from './tree.ts';

const merge = (
  base: TreeSnapshot,
  ours: TreeSnapshot,
  theirs: TreeSnapshot,
  store = new MarkdownStore(),
  labels?: MergeLabels,
) => mergeTrees({ base, ours, theirs, loadMarkdown: store.load, labels }, store.hash);

/** `id → parentId` of every page, for structure assertions. */
const shape = (t: TreeSnapshot) => Object.fromEntries([...t].map(([id, p]) => [id, p.parentId]));

// docs ─┬─ intro
//       └─ guide ─┬─ install
//                 └─ configure
// faq
const base = tree(
  page('docs', { kind: 'group', order: 'a0' }),
  page('intro', { parentId: 'docs', order: 'a0' }),
  page('guide', { parentId: 'docs', order: 'a1' }),
  page('install', { parentId: 'guide', order: 'a0' }),
  page('configure', { parentId: 'guide', order: 'a1' }),
  page('faq', { order: 'a1' }),
);

describe('mergeTrees: structure, by page id', () => {
  it('keeps a page created on either side, with its parent', async () => {
    const ours = withPages(base, page('api', { parentId: 'docs', order: 'a2' }));
    const theirs = withPages(base, page('upgrade', { parentId: 'guide', order: 'a2' }));
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('api')).toEqual(ours.get('api'));
    expect(r.tree.get('upgrade')).toEqual(theirs.get('upgrade'));
    expect(r.tree.size).toBe(base.size + 2);
    expect(r.conflicts).toEqual([]);
  });

  it('re-attaches a page created under a parent the other side deleted to the nearest surviving ancestor, or the top level', async () => {
    const ours = without(base, 'guide', 'install', 'configure');
    const theirs = withPages(
      base,
      page('upgrade', { parentId: 'guide', order: 'a2' }),
      page('deep', { parentId: 'install', order: 'a0' }),
    );
    const r = await merge(base, ours, theirs);
    expect(r.tree.has('guide')).toBe(false);
    expect(r.tree.get('upgrade')!.parentId).toBe('docs');
    expect(r.tree.get('deep')!.parentId).toBe('docs');
    expect(r.conflicts).toEqual([
      { pageId: 'deep', fields: ['parentId'] },
      { pageId: 'upgrade', fields: ['parentId'] },
    ]);

    const gone = without(base, 'docs', 'intro', 'guide', 'install', 'configure');
    const r2 = await merge(base, withPages(base, page('new', { parentId: 'install' })), gone);
    expect(r2.tree.get('new')!.parentId).toBeNull();
    expect([...r2.tree.keys()].sort()).toEqual(['faq', 'new']);
  });

  it('deletes a page deleted on one side and untouched on the other, on either side', async () => {
    const deleted = without(base, 'faq');
    expect((await merge(base, deleted, base)).tree.has('faq')).toBe(false);
    expect((await merge(base, base, deleted)).tree.has('faq')).toBe(false);
    const both = await merge(base, deleted, without(base, 'faq'));
    expect(both.tree.has('faq')).toBe(false);
    expect(both.conflicts).toEqual([]);
  });

  it('keeps a page deleted on one side and edited on the other, with the edit (either side)', async () => {
    const edited = edit(base, 'faq', { title: 'FAQ' });
    const deleted = without(base, 'faq');
    for (const [ours, theirs] of [
      [edited, deleted],
      [deleted, edited],
    ] as const) {
      const r = await merge(base, ours, theirs);
      expect(r.tree.get('faq')).toEqual(edited.get('faq'));
      expect(r.conflicts).toEqual([{ pageId: 'faq', fields: ['deleted'] }]);
    }
  });

  it('keeps an edited page of a deleted subtree at the nearest surviving ancestor; its untouched siblings go', async () => {
    const store = new MarkdownStore();
    const theirs = without(base, 'guide', 'install', 'configure');
    const ours = edit(base, 'install', { documentHash: store.put('npm install quire\n') });
    const r = await merge(base, ours, theirs, store);
    expect(shape(r.tree)).toEqual({ docs: null, intro: 'docs', install: 'docs', faq: null });
    expect(store.text(r.tree.get('install')!.documentHash)).toBe('npm install quire\n');
    expect(r.conflicts).toEqual([{ pageId: 'install', fields: ['deleted', 'parentId'] }]);
  });

  it('keeps an edited page whose subtree the other side deleted, with only the children that survive on their own', async () => {
    const ours = edit(edit(base, 'guide', { title: 'Guide v2' }), 'configure', { title: 'Configure it' });
    const theirs = without(base, 'guide', 'install', 'configure');
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('guide')!.title).toBe('Guide v2');
    expect(r.tree.get('configure')!.parentId).toBe('guide');
    expect(r.tree.has('install')).toBe(false);
  });
});

describe('mergeTrees: attributes, field by field', () => {
  it('takes each side’s changes to different fields', async () => {
    const ours = edit(base, 'intro', { title: 'Introduction', hidden: true });
    const theirs = edit(base, 'intro', { emoji: '👋', description: 'Start here', layout: { width: 'wide' } });
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('intro')).toEqual({
      ...base.get('intro'),
      title: 'Introduction',
      hidden: true,
      emoji: '👋',
      description: 'Start here',
      layout: { width: 'wide' },
    });
    expect(r.conflicts).toEqual([]);
  });

  it('takes a change made identically on both sides (objects compared by value) without a conflict', async () => {
    const ours = edit(base, 'intro', { title: 'Hello', cover: { yPos: 0, height: 240 } });
    const theirs = edit(base, 'intro', { title: 'Hello', cover: { height: 240, yPos: 0 } });
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('intro')!.title).toBe('Hello');
    expect(r.tree.get('intro')!.cover).toEqual({ yPos: 0, height: 240 });
    expect(r.conflicts).toEqual([]);
  });

  it('keeps theirs’ value of an attribute changed differently on both sides and reports the field', async () => {
    const ours = edit(base, 'intro', { title: 'Ours', slug: 'ours', noIndex: true });
    const theirs = edit(base, 'intro', { title: 'Theirs', slug: 'theirs', noIndex: true, icon: 'book' });
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('intro')).toMatchObject({ title: 'Theirs', slug: 'theirs', noIndex: true, icon: 'book' });
    expect(r.conflicts).toEqual([{ pageId: 'intro', fields: ['title', 'slug'] }]);
  });

  it('merges the attributes of a page added on both sides with the same id two-way', async () => {
    const ours = withPages(base, page('new', { title: 'Same', emoji: '1', order: 'a2' }));
    const theirs = withPages(base, page('new', { title: 'Same', emoji: '2', order: 'a2' }));
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('new')).toMatchObject({ title: 'Same', emoji: '2' });
    expect(r.conflicts).toEqual([{ pageId: 'new', fields: ['emoji'] }]);
  });

  it('does not change its inputs', async () => {
    const ours = edit(base, 'intro', { title: 'Ours', order: 'a5' });
    const theirs = withPages(edit(base, 'intro', { title: 'Theirs' }), page('x', { parentId: 'guide' }));
    const copies = [base, ours, theirs].map((t) => structuredClone([...t]));
    await merge(base, ours, theirs);
    expect([base, ours, theirs].map((t) => [...t])).toEqual(copies);
  });
});

describe('mergeTrees: moves', () => {
  it('applies a move on one side with an edit on the other', async () => {
    const ours = edit(base, 'faq', { parentId: 'guide', order: 'a2' });
    const theirs = edit(base, 'faq', { title: 'Questions' });
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('faq')).toMatchObject({ parentId: 'guide', order: 'a2', title: 'Questions' });
    expect(r.conflicts).toEqual([]);
  });

  it('keeps theirs’ placement when both sides move a page to different places', async () => {
    const ours = edit(base, 'faq', { parentId: 'guide', order: 'a2' });
    const theirs = edit(base, 'faq', { parentId: 'docs', order: 'a2' });
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('faq')).toMatchObject({ parentId: 'docs', order: 'a2' });
    expect(r.conflicts).toEqual([{ pageId: 'faq', fields: ['parentId'] }]);
  });

  it('takes the order of the side whose parent the page ends up in when only one side changed the parent', async () => {
    const ours = edit(base, 'install', { parentId: 'docs', order: 'a0V' });
    const theirs = edit(base, 'install', { order: 'a2' }); // reordered under guide
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('install')).toMatchObject({ parentId: 'docs', order: 'a0V' });
    expect(r.conflicts).toEqual([{ pageId: 'install', fields: ['order'] }]);
  });

  it('breaks a cycle (A under B on one side, B under A on the other) by keeping ours’ placement of a page', async () => {
    const b = tree(page('A', { order: 'a0' }), page('B', { order: 'a1' }));
    const ours = edit(b, 'A', { parentId: 'B' });
    const theirs = edit(b, 'B', { parentId: 'A' });
    const r = await merge(b, ours, theirs);
    expect(shape(r.tree)).toEqual({ B: null, A: 'B' });
    expect(r.conflicts).toEqual([{ pageId: 'B', fields: ['parentId'] }]);
    // The other way round, theirs' move survives and ours' placement of A comes back.
    const r2 = await merge(b, theirs, ours);
    expect(shape(r2.tree)).toEqual({ A: null, B: 'A' });
    expect(r2.conflicts).toEqual([{ pageId: 'A', fields: ['parentId'] }]);
  });

  it('breaks a longer cycle through pages moved on both sides, leaving no page inside its own subtree', async () => {
    const b = tree(
      page('A', { order: 'a0' }),
      page('B', { order: 'a1' }),
      page('C', { order: 'a2' }),
      page('D', { order: 'a3' }),
    );
    const ours = edit(edit(b, 'A', { parentId: 'B' }), 'B', { parentId: 'C' }); // A ⊂ B ⊂ C
    const theirs = edit(edit(b, 'C', { parentId: 'D' }), 'D', { parentId: 'A' }); // C ⊂ D ⊂ A
    const r = await merge(b, ours, theirs);
    for (const id of r.tree.keys()) {
      const seen = new Set<string>();
      for (let cur: string | null = id; cur !== null; cur = r.tree.get(cur)!.parentId) {
        expect(seen.has(cur)).toBe(false);
        seen.add(cur);
      }
    }
    // C and D came from theirs; the smallest of them goes back to ours' placement (C at the top level).
    expect(shape(r.tree)).toEqual({ C: null, B: 'C', A: 'B', D: 'A' });
    expect(r.conflicts).toEqual([{ pageId: 'C', fields: ['parentId'] }]);
  });

  it('makes orders that collide among siblings distinct, ties broken by page id, between the neighbours', async () => {
    // Both sides insert after `intro` (a0) and before `guide` (a1): same generated key a0V.
    const ours = withPages(base, page('zeta', { parentId: 'docs', order: 'a0V' }));
    const theirs = withPages(
      base,
      page('alpha', { parentId: 'docs', order: 'a0V' }),
      page('beta', { parentId: 'docs', order: 'a0V' }),
    );
    const r = await merge(base, ours, theirs);
    const docs = [...r.tree.values()].filter((p) => p.parentId === 'docs');
    expect(docs.map((p) => p.id)).toEqual(['intro', 'alpha', 'beta', 'zeta', 'guide']);
    const orders = docs.map((p) => p.order);
    expect(orders[1]).toBe('a0V');
    for (let i = 1; i < orders.length; i++) expect(orders[i - 1]! < orders[i]!).toBe(true);
    expect(r.conflicts).toEqual([]);
  });

  it('renumbers a sibling group whose colliding keys are not fractional-index keys, keeping the order', async () => {
    const b = tree(page('p', { order: '1' }), page('q', { order: '3' }));
    const r = await merge(b, withPages(b, page('y', { order: '2' })), withPages(b, page('x', { order: '2' })));
    const orders = [...r.tree.values()].map((p) => [p.id, p.order] as const);
    expect(orders.map(([id]) => id)).toEqual(['p', 'x', 'y', 'q']);
    expect(new Set(orders.map(([, o]) => o)).size).toBe(4);
    for (let i = 1; i < orders.length; i++) expect(orders[i - 1]![1] < orders[i]![1]).toBe(true);
  });
});

describe('mergeTrees: slugs stay unique among siblings', () => {
  it('suffixes the incoming page’s slug and reports it', async () => {
    const ours = withPages(base, page('o1', { parentId: 'guide', slug: 'upgrade', order: 'a2' }));
    const theirs = withPages(base, page('a1', { parentId: 'guide', slug: 'upgrade', order: 'a3' }));
    const r = await merge(base, ours, theirs);
    expect(r.tree.get('o1')!.slug).toBe('upgrade');
    expect(r.tree.get('a1')!.slug).toBe('upgrade-2');
    expect(r.conflicts).toEqual([{ pageId: 'a1', fields: ['slug'] }]);
  });

  it('takes the next free suffix, and counts moves and renames too', async () => {
    const b = withPages(base, page('u2', { parentId: 'guide', slug: 'faq-2', order: 'a2' }));
    const ours = edit(b, 'faq', { parentId: 'guide', order: 'a3' }); // moved next to configure
    const theirs = withPages(
      edit(b, 'configure', { slug: 'faq' }),
      page('n', { parentId: 'guide', slug: 'faq-3', order: 'a4' }),
    ); // renamed
    const r = await merge(b, ours, theirs);
    const slugs = Object.fromEntries(
      [...r.tree.values()].filter((p) => p.parentId === 'guide').map((p) => [p.id, p.slug]),
    );
    expect(slugs).toEqual({ install: 'install', configure: 'faq-4', u2: 'faq-2', faq: 'faq', n: 'faq-3' });
    expect(r.conflicts).toEqual([{ pageId: 'configure', fields: ['slug'] }]);
  });

  it('leaves link pages out (they have no path)', async () => {
    const ours = withPages(base, page('l1', { kind: 'link', slug: '', href: 'https://a.example', order: 'a2' }));
    const theirs = withPages(base, page('l2', { kind: 'link', slug: '', href: 'https://b.example', order: 'a3' }));
    const r = await merge(base, ours, theirs);
    expect([r.tree.get('l1')!.slug, r.tree.get('l2')!.slug]).toEqual(['', '']);
    expect(r.conflicts).toEqual([]);
  });
});

describe('mergeTrees: determinism', () => {
  it('gives the same result whatever the insertion order of the maps', async () => {
    const store = new MarkdownStore();
    const b = edit(base, 'intro', { documentHash: store.put('one\n\ntwo\n\nthree\n') });
    const ours = withPages(
      edit(b, 'intro', { documentHash: store.put('ONE\n\ntwo\n\nthree\n'), title: 'O' }),
      page('n1', { parentId: 'docs', order: 'a0V', slug: 's' }),
    );
    const theirs = withPages(
      edit(edit(b, 'intro', { documentHash: store.put('one\n\ntwo\n\nTHREE\n'), title: 'T' }), 'faq', {
        parentId: 'guide',
      }),
      page('n2', { parentId: 'docs', order: 'a0V', slug: 's' }),
    );
    const reversed = (t: TreeSnapshot) => new Map([...t].reverse());
    const one = await merge(b, ours, theirs, store);
    const two = await merge(reversed(b), reversed(ours), reversed(theirs), store);
    expect([...two.tree]).toEqual([...one.tree]);
    expect([...two.documents]).toEqual([...one.documents]);
    expect(two.conflicts).toEqual(one.conflicts);
    expect(one.conflicts).toEqual([
      { pageId: 'intro', fields: ['title'] },
      { pageId: 'n2', fields: ['slug'] },
    ]);
    // The tree comes back in reading order.
    expect([...one.tree.keys()]).toEqual(['docs', 'intro', 'n1', 'n2', 'guide', 'install', 'configure', 'faq']);
  });
});
