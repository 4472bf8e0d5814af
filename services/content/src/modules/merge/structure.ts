import { generateNKeysBetween } from 'fractional-indexing';
import { bySiblingOrder, compareStrings, type MergeField, type PageSnapshot, type TreeSnapshot } from './tree.ts';

/** The merged pages, by id (owned by the merge: mutated in place). */
export type MergedPages = Map<string, PageSnapshot>;
export type ReportConflict = (pageId: string, field: MergeField) => void;

export interface Sides {
  base: TreeSnapshot;
  ours: TreeSnapshot;
  theirs: TreeSnapshot;
}

/**
 * Makes the merged pages a tree again, in this order:
 * 1. a page whose parent did not survive goes to the parent's nearest surviving ancestor (or the top level);
 * 2. cycles (a page inside its own subtree, from moves on both sides) are broken by putting one page of each
 *    cycle back where `ours` has it;
 * 3. siblings sharing an `order` key get distinct keys (ties by page id);
 * 4. siblings sharing a slug: the incoming page takes the next free `-2`, `-3`… suffix.
 * Steps 1, 2 and 4 report a conflict (`parentId`, `parentId`, `slug`) on the page they change. Returns the
 * children of every parent, each list in its final order.
 */
export function repairStructure(pages: MergedPages, sides: Sides, report: ReportConflict): Map<string | null, PageSnapshot[]> {
  const survivor = nearestSurvivor(pages, sides);
  reattachOrphans(pages, survivor, report);
  breakCycles(pages, sides, survivor, report);
  const groups = siblingGroups(pages);
  for (const group of groups.values()) distinctOrders(group);
  for (const [parentId, group] of groups) distinctSlugs(parentId, group, sides.ours, report);
  return groups;
}

/**
 * `survivor(id)`: `id` when it is in the merged tree, else its nearest ancestor that is, else null (top level).
 * A deleted page's ancestors are read from the side that still has it (ours, then theirs, then the base).
 */
function nearestSurvivor(pages: MergedPages, sides: Sides): (id: string | null) => string | null {
  const memo = new Map<string, string | null>();
  return (start) => {
    const walked: string[] = [];
    const seen = new Set<string>();
    let id = start;
    let found: string | null = null;
    while (id !== null) {
      if (pages.has(id)) {
        found = id;
        break;
      }
      const known = memo.get(id);
      if (known !== undefined) {
        found = known;
        break;
      }
      if (seen.has(id)) break; // a cycle among deleted pages: the top level
      seen.add(id);
      walked.push(id);
      id = (sides.ours.get(id) ?? sides.theirs.get(id) ?? sides.base.get(id))?.parentId ?? null;
    }
    for (const w of walked) memo.set(w, found);
    return found;
  };
}

function reattachOrphans(pages: MergedPages, survivor: (id: string | null) => string | null, report: ReportConflict): void {
  for (const page of pages.values()) {
    if (page.parentId === null || pages.has(page.parentId)) continue;
    page.parentId = survivor(page.parentId);
    report(page.id, 'parentId');
  }
}

/**
 * Every cycle of parent links, each as its page ids. Walks up from `starts` (all pages by default), each page at
 * most once: the parent links form a functional graph, so a cycle is found from any of its pages.
 */
export function findCycles(pages: ReadonlyMap<string, PageSnapshot>, starts: Iterable<string> = pages.keys()): string[][] {
  const state = new Map<string, 1 | 2>(); // 1: on the current walk, 2: done
  const cycles: string[][] = [];
  for (const start of starts) {
    if (state.has(start)) continue;
    const walk: string[] = [];
    let id: string | null = start;
    while (id !== null && !state.has(id)) {
      state.set(id, 1);
      walk.push(id);
      id = pages.get(id)?.parentId ?? null;
    }
    if (id !== null && state.get(id) === 1) cycles.push(walk.slice(walk.indexOf(id)));
    for (const w of walk) state.set(w, 2);
  }
  return cycles;
}

/** Pages not placed as `ours` places them: as ours is a tree, every cycle of the merge goes through one. */
function movedFromOurs(pages: MergedPages, ours: TreeSnapshot): string[] {
  const moved: string[] = [];
  for (const page of pages.values()) if (ours.get(page.id)?.parentId !== page.parentId) moved.push(page.id);
  return moved;
}

/**
 * Breaks every cycle by moving one of its pages back to where `ours` has it: the smallest id among the pages
 * whose merged parent differs from ours' (there is one unless a page of the cycle is unknown to ours, as ours is
 * a tree); when none, the smallest id goes to the top level. Repeats until no cycle remains: each round settles
 * at least one page for good, so it ends.
 */
function breakCycles(pages: MergedPages, sides: Sides, survivor: (id: string | null) => string | null, report: ReportConflict): void {
  const settled = new Set<string>();
  for (let cycles = findCycles(pages, movedFromOurs(pages, sides.ours)); cycles.length; cycles = findCycles(pages, movedFromOurs(pages, sides.ours))) {
    for (const cycle of cycles) {
      const sorted = [...cycle].sort(compareStrings);
      const pick = sorted.find((id) => !settled.has(id) && sides.ours.has(id) && sides.ours.get(id)!.parentId !== pages.get(id)!.parentId);
      const id = pick ?? sorted.find((id) => !settled.has(id)) ?? sorted[0]!;
      const page = pages.get(id)!;
      const ours = pick ? sides.ours.get(pick) : undefined;
      if (ours) {
        page.parentId = survivor(ours.parentId);
        page.order = ours.order;
      } else {
        page.parentId = null;
      }
      settled.add(id);
      report(id, 'parentId');
    }
  }
}

function siblingGroups(pages: MergedPages): Map<string | null, PageSnapshot[]> {
  const groups = new Map<string | null, PageSnapshot[]>();
  for (const page of pages.values()) {
    const group = groups.get(page.parentId);
    if (group) group.push(page);
    else groups.set(page.parentId, [page]);
  }
  return groups;
}

/**
 * Siblings with the same `order` key keep their relative order by page id and get keys strictly between that key
 * and the next sibling's (fractional-indexing keys). Keys not in that format: the whole group is renumbered in
 * its current order. Sorts the group by `(order, id)`.
 */
export function distinctOrders(group: PageSnapshot[]): void {
  group.sort(bySiblingOrder);
  for (let i = 1; i < group.length; i++) {
    if (group[i]!.order !== group[i - 1]!.order) continue;
    const start = i - 1;
    let end = i + 1;
    while (end < group.length && group[end]!.order === group[start]!.order) end++;
    let keys: string[];
    try {
      keys = generateNKeysBetween(group[start]!.order, group[end]?.order ?? null, end - start - 1);
    } catch {
      keys = generateNKeysBetween(null, null, group.length);
      group.forEach((page, j) => (page.order = keys[j]!));
      return;
    }
    for (let j = start + 1; j < end; j++) group[j]!.order = keys[j - start - 1]!;
    i = end - 1;
  }
}

/**
 * Slugs stay unique among siblings (links have no path and are left out). Of the pages sharing a slug, the one
 * that has this slug under this parent in `ours` (the target) keeps it, else the smallest id; the others, the
 * incoming pages, take the first free `slug-2`, `slug-3`….
 */
function distinctSlugs(parentId: string | null, group: PageSnapshot[], ours: TreeSnapshot, report: ReportConflict): void {
  const bySlug = new Map<string, PageSnapshot[]>();
  let named = 0;
  for (const page of group) {
    if (page.kind === 'link' || page.slug === '') continue;
    named++;
    const same = bySlug.get(page.slug);
    if (same) same.push(page);
    else bySlug.set(page.slug, [page]);
  }
  if (bySlug.size === named) return;
  const used = new Set(bySlug.keys());
  const isOurs = (p: PageSnapshot) => {
    const o = ours.get(p.id);
    return o !== undefined && o.parentId === parentId && o.slug === p.slug;
  };
  for (const [slug, same] of [...bySlug].sort(([a], [b]) => compareStrings(a, b))) {
    if (same.length < 2) continue;
    same.sort((a, b) => Number(isOurs(b)) - Number(isOurs(a)) || compareStrings(a.id, b.id));
    let n = 2;
    for (const page of same.slice(1)) {
      while (used.has(`${slug}-${n}`)) n++;
      page.slug = `${slug}-${n}`;
      used.add(page.slug);
      report(page.id, 'slug');
    }
  }
}
