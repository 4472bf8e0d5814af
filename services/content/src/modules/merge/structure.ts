import { orderKeysBetween } from '@quire/document/model';
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
export function repairStructure(
  pages: MergedPages,
  sides: Sides,
  report: ReportConflict,
): Map<string | null, PageSnapshot[]> {
  const survivor = nearestSurvivor((id) => pages.has(id), sides);
  reattachOrphans(pages, survivor, report);
  const access = { get: (id: string) => pages.get(id), own: (id: string) => pages.get(id)! };
  breakCycles(access, sides, survivor, report, () => movedFromOurs(pages, sides.ours));
  const groups = siblingGroups(pages);
  for (const group of groups.values()) distinctOrders(group);
  for (const [parentId, group] of groups) distinctSlugs(parentId, group, sides.ours, report);
  return groups;
}

/**
 * `survivor(id)`: `id` when it is in the merged tree, else its nearest ancestor that is, else null (top level).
 * A deleted page's ancestors are read from the side that still has it (ours, then theirs, then the base).
 */
function nearestSurvivor(merged: (id: string) => boolean, sides: Sides): (id: string | null) => string | null {
  const memo = new Map<string, string | null>();
  return (start) => {
    const walked: string[] = [];
    const seen = new Set<string>();
    let id = start;
    let found: string | null = null;
    while (id !== null) {
      if (merged(id)) {
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

function reattachOrphans(
  pages: MergedPages,
  survivor: (id: string | null) => string | null,
  report: ReportConflict,
): void {
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
export function findCycles(
  pages: Pick<ReadonlyMap<string, PageSnapshot>, 'get'> & Partial<Pick<ReadonlyMap<string, PageSnapshot>, 'keys'>>,
  starts: Iterable<string> = pages.keys?.() ?? [],
): string[][] {
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
function breakCycles(
  pages: MergedAccess,
  sides: Sides,
  survivor: (id: string | null) => string | null,
  report: ReportConflict,
  moved: () => Iterable<string>,
): void {
  const settled = new Set<string>();
  for (let cycles = findCycles(pages, moved()); cycles.length; cycles = findCycles(pages, moved())) {
    for (const cycle of cycles) {
      const sorted = [...cycle].sort(compareStrings);
      const pick = sorted.find(
        (id) => !settled.has(id) && sides.ours.has(id) && sides.ours.get(id)!.parentId !== pages.get(id)!.parentId,
      );
      const id = pick ?? sorted.find((id) => !settled.has(id)) ?? sorted[0]!;
      const page = pages.own(id);
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

/** How the repair reads the merged pages and changes one (`own`: the merge's own copy, made on first change). */
interface MergedAccess {
  get(id: string): PageSnapshot | undefined;
  own(id: string): PageSnapshot;
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
      keys = orderKeysBetween(group[start]!.order, group[end]?.order ?? null, end - start - 1);
    } catch {
      keys = orderKeysBetween(null, null, group.length);
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
function distinctSlugs(
  parentId: string | null,
  group: PageSnapshot[],
  ours: TreeSnapshot,
  report: ReportConflict,
): void {
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

/**
 * `repairStructure` for a merge that merged only the pages that may differ between the base and either side (in
 * `merged` when they are in the merged tree, in `removed` when not), every other page being ours' page as it is. When
 * ours is well formed (`isWellFormed`) it does to the merged tree exactly what `repairStructure` does to the whole of
 * it, looking only at those pages and their siblings: an orphan is then a merged page or a child (in ours, from
 * `oursChildren`) of a removed one, the search for cycles starts from merged pages only in both, and a sibling group
 * without a merged page is one of ours' groups, which holds no two equal orders or slugs. A page of ours it changes is
 * copied into `merged` first (ours' pages are never changed). Returns the sibling groups it looked at, in order.
 */
export function repairChanged(
  merged: MergedPages,
  removed: ReadonlySet<string>,
  sides: Sides,
  oursChildren: ReadonlyMap<string | null, readonly PageSnapshot[]>,
  report: ReportConflict,
): Map<string | null, PageSnapshot[]> {
  const untouched = (id: string) => !merged.has(id) && !removed.has(id);
  const get = (id: string) => merged.get(id) ?? (removed.has(id) ? undefined : sides.ours.get(id));
  const own = (id: string) => {
    let page = merged.get(id);
    if (!page) merged.set(id, (page = { ...sides.ours.get(id)! }));
    return page;
  };
  const survivor = nearestSurvivor((id) => get(id) !== undefined, sides);
  const orphans: string[] = [];
  for (const page of merged.values()) if (page.parentId !== null && !get(page.parentId)) orphans.push(page.id);
  for (const id of removed)
    for (const child of oursChildren.get(id) ?? []) if (untouched(child.id)) orphans.push(child.id);
  for (const id of orphans) {
    const page = own(id);
    page.parentId = survivor(page.parentId);
    report(id, 'parentId');
  }
  const moved = () => {
    const out: string[] = [];
    for (const page of merged.values()) if (sides.ours.get(page.id)?.parentId !== page.parentId) out.push(page.id);
    return out;
  };
  breakCycles({ get, own }, sides, survivor, report, moved);
  const byParent = siblingGroups(merged);
  const groups = new Map<string | null, PageSnapshot[]>();
  for (const [parentId, changed] of byParent) {
    let group = [...changed, ...(oursChildren.get(parentId) ?? []).filter((p) => untouched(p.id))];
    if (hasDuplicates(group)) group = group.map((p) => own(p.id));
    distinctOrders(group);
    distinctSlugs(parentId, group, sides.ours, report);
    groups.set(parentId, group);
  }
  return groups;
}

/** Whether siblings share an order, or a slug (links and empty slugs aside): what `distinctOrders`/`distinctSlugs` change. */
function hasDuplicates(group: readonly PageSnapshot[]): boolean {
  const orders = new Set<string>();
  const slugs = new Set<string>();
  for (const page of group) {
    if (orders.has(page.order)) return true;
    orders.add(page.order);
    if (page.kind === 'link' || page.slug === '') continue;
    if (slugs.has(page.slug)) return true;
    slugs.add(page.slug);
  }
  return false;
}

const wellFormed = new WeakMap<TreeSnapshot, boolean>();

/**
 * Whether a tree is what a merge leaves (`repairStructure` would change none of its pages): no page whose parent is
 * not in the tree, no two siblings with one order or one slug (links and empty slugs aside). One pass over the tree,
 * once per (immutable) tree.
 */
export function isWellFormed(tree: TreeSnapshot): boolean {
  let known = wellFormed.get(tree);
  if (known === undefined) wellFormed.set(tree, (known = checkWellFormed(tree)));
  return known;
}

/** Records that a tree is well formed (a merge's result from a well-formed tree: every group it touched repaired). */
export function markWellFormed(tree: TreeSnapshot): void {
  wellFormed.set(tree, true);
}

function checkWellFormed(tree: TreeSnapshot): boolean {
  const groups = new Map<string | null, { orders: Set<string>; slugs: Set<string> }>();
  for (const page of tree.values()) {
    if (page.parentId !== null && !tree.has(page.parentId)) return false;
    let group = groups.get(page.parentId);
    if (!group) groups.set(page.parentId, (group = { orders: new Set(), slugs: new Set() }));
    if (group.orders.has(page.order)) return false;
    group.orders.add(page.order);
    if (page.kind === 'link' || page.slug === '') continue;
    if (group.slugs.has(page.slug)) return false;
    group.slugs.add(page.slug);
  }
  return true;
}
