import { orderKeyBetween, orderKeysBetween } from '@quire/document/model';
import { describe, expect, it } from 'vitest';
import { MarkdownStore, page, tree } from './merge.fixtures.ts';
import { mergeChangedPages, mergeTrees } from './merge-trees.ts';
import { isWellFormed } from './structure.ts';
import { childrenOf, inTreeOrder, pageChanged, type PageSnapshot, type TreeSnapshot } from './tree.ts';

/**
 * `mergeChangedPages` (the merge of the pages changed since the base, and their siblings) against `mergeTrees` (the
 * whole trees) on random trees and random changes on both sides: moves (cycles across the sides), deletions (theirs
 * sometimes leaves a deleted page's children behind), creations and renames that collide with siblings' orders and
 * slugs, documents edited on both sides. Same tree, same reading order, same documents, same conflicts.
 */
let seed = 1;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

function randomBase(store: MarkdownStore, n: number): Map<string, PageSnapshot> {
  const pages: PageSnapshot[] = [];
  const groupSize = new Map<string | null, number>();
  for (let i = 0; i < n; i++) {
    const parentId = i < 3 || rand() < 0.15 ? null : pick(pages).id;
    groupSize.set(parentId, (groupSize.get(parentId) ?? 0) + 1);
    const kind = rand() < 0.1 ? 'group' : rand() < 0.05 ? 'link' : 'document';
    pages.push(
      page(`p${i}`, {
        parentId,
        kind,
        slug: kind === 'link' ? '' : `s${i}`,
        href: kind === 'link' ? `https://example.com/${i}` : null,
        documentHash: kind === 'document' ? store.put(`# P${i}\n\nfirst ${i}\n\nsecond ${i}\n`) : null,
      }),
    );
  }
  // Distinct orders among siblings.
  const keys = new Map([...groupSize].map(([parent, size]) => [parent, orderKeysBetween(null, null, size)]));
  for (const p of pages) p.order = keys.get(p.parentId)!.shift()!;
  return tree(...pages);
}

const siblings = (t: TreeSnapshot, parentId: string | null) => [...t.values()].filter((p) => p.parentId === parentId);

function descendants(t: TreeSnapshot, id: string): Set<string> {
  const out = new Set<string>([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of t.values())
      if (p.parentId !== null && out.has(p.parentId) && !out.has(p.id)) {
        out.add(p.id);
        grew = true;
      }
  }
  return out;
}

/** An order after every sibling, or (colliding) a sibling's own. */
function orderUnder(t: TreeSnapshot, parentId: string | null, collide: boolean): string {
  const orders = siblings(t, parentId)
    .map((p) => p.order)
    .sort();
  if (collide && orders.length) return pick(orders);
  return orderKeyBetween(orders.at(-1) ?? null, null);
}

/** Random changes on one side; `messy` ones collide with siblings and leave orphans. */
function randomSide(base: TreeSnapshot, store: MarkdownStore, side: string, messy: boolean, ops: number) {
  const t = new Map(base);
  const set = (id: string, fields: Partial<PageSnapshot>) => t.set(id, { ...t.get(id)!, ...fields });
  for (let k = 0; k < ops; k++) {
    const ids = [...t.keys()];
    if (!ids.length) break;
    const id = pick(ids);
    const p = t.get(id)!;
    const op = rand();
    if (op < 0.15) set(id, { title: `${p.title} (${side})` });
    else if (op < 0.35 && p.kind === 'document') {
      const text = store.text(p.documentHash);
      const line = rand() < 0.5 ? 'first' : 'second';
      set(id, { documentHash: store.put(text.replace(line, `${line} ${side}`)) });
    } else if (op < 0.55) {
      const parentId = rand() < 0.2 ? null : pick(ids);
      if (parentId !== null && descendants(t, id).has(parentId)) continue;
      set(id, { parentId, order: orderUnder(t, parentId, messy && rand() < 0.4) });
    } else if (op < 0.7) {
      for (const d of messy && rand() < 0.5 ? [id] : descendants(t, id)) t.delete(d);
    } else if (op < 0.85) {
      const parentId = rand() < 0.2 ? null : pick(ids);
      const others = siblings(t, parentId).filter((s) => s.slug !== '');
      const slug = messy && others.length && rand() < 0.4 ? pick(others).slug : `new-${side}-${k}`;
      const newId = `${side}${k}`;
      t.set(
        newId,
        page(newId, {
          parentId,
          order: orderUnder(t, parentId, messy && rand() < 0.3),
          slug,
          documentHash: store.put(`new ${side} ${k}\n`),
        }),
      );
    } else if (messy && p.kind !== 'link') {
      const others = siblings(t, p.parentId).filter((s) => s.id !== id && s.slug !== '');
      if (others.length) set(id, { slug: pick(others).slug });
    } else set(id, { hidden: !p.hidden });
  }
  return t;
}

/** The ids whose page differs between two trees (or is in one only). */
function differing(a: TreeSnapshot, b: TreeSnapshot): string[] {
  const out: string[] = [];
  for (const [id, p] of a) {
    const q = b.get(id);
    if (!q || pageChanged(p, q)) out.push(id);
  }
  for (const id of b.keys()) if (!a.has(id)) out.push(id);
  return out;
}

describe('mergeChangedPages gives what mergeTrees gives', () => {
  it('on 300 random merges of 60-page trees, changed on both sides', async () => {
    let compared = 0;
    let withConflicts = 0;
    let repaired = 0;
    for (let run = 0; run < 300; run++) {
      const store = new MarkdownStore();
      const base = randomBase(store, 60);
      const ours = randomSide(base, store, 'o', false, 1 + Math.floor(rand() * 8));
      const theirs = randomSide(base, store, 't', true, 1 + Math.floor(rand() * 8));
      expect(isWellFormed(base)).toBe(true);
      if (!isWellFormed(ours)) continue;
      compared++;
      // A superset of what changed: a few untouched pages and an unknown id too.
      const scope = new Set([...differing(base, ours), ...differing(base, theirs), pick([...base.keys()]), 'nope']);
      const input = { base, ours, theirs, loadMarkdown: store.load, conflictBlocks: run % 2 === 0 };
      const oursBefore = structuredClone(ours);
      const full = await mergeTrees(input, store.hash);
      const changed = await mergeChangedPages(input, { pages: scope, oursChildren: childrenOf(ours) }, store.hash);
      const merged = new Map(ours);
      for (const [id, p] of changed.changed) {
        if (p) merged.set(id, p);
        else merged.delete(id);
      }
      const sorted = (t: TreeSnapshot) => [...t].sort(([a], [b]) => (a < b ? -1 : 1));
      expect(sorted(merged)).toEqual(sorted(full.tree));
      expect(inTreeOrder(merged).map((p) => p.id)).toEqual([...full.tree.keys()]);
      expect(changed.conflicts).toEqual(full.conflicts);
      expect([...changed.documents].sort()).toEqual([...full.documents].sort());
      // Ours' pages are never changed in place.
      expect(ours).toEqual(oursBefore);
      if (full.conflicts.length) withConflicts++;
      if (full.conflicts.some((c) => c.fields.some((f) => f === 'parentId' || f === 'slug'))) repaired++;
    }
    // The random cases did exercise what they are for.
    expect(compared).toBeGreaterThan(200);
    expect(withConflicts).toBeGreaterThan(50);
    expect(repaired).toBeGreaterThan(20);
  });

  it('isWellFormed: an orphan, two siblings with one order or one slug are not; links and empty slugs may share', () => {
    const ok = tree(
      page('a', { order: 'a0' }),
      page('b', { order: 'a1' }),
      page('l1', { kind: 'link', slug: '', order: 'a2' }),
      page('l2', { kind: 'link', slug: '', order: 'a3' }),
      page('c', { parentId: 'a', order: 'a0', slug: 'b' }),
    );
    expect(isWellFormed(ok)).toBe(true);
    expect(isWellFormed(tree(page('a'), page('b', { parentId: 'gone' })))).toBe(false);
    expect(isWellFormed(tree(page('a', { order: 'a0' }), page('b', { order: 'a0' })))).toBe(false);
    expect(isWellFormed(tree(page('a', { order: 'a0', slug: 'x' }), page('b', { order: 'a1', slug: 'x' })))).toBe(
      false,
    );
  });
});
