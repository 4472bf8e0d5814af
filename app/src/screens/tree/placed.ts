import type { RevisionPage } from '../../api/endpoints.ts';

/** What the drag needs of a node of a tree: its id and its title (a page; a space or a collection). */
export interface TreeNode {
  id: string;
  title: string;
}

/**
 * A node of a tree with where it sits: its parent and index among its siblings, and what is nested in it. The page
 * tree's nodes are pages; the organization's (org-placed.ts), its collections and spaces.
 */
export interface Placed<N extends TreeNode = RevisionPage> {
  /** The node (named for the page tree, the first user). */
  page: N;
  parent: string | null;
  index: number;
  siblings: N[];
  /** The nodes nested in it, in order; undefined when nothing can be (a space in the organization's tree). */
  children?: N[] | undefined;
}

export const childrenOf = (p: RevisionPage) => ('pages' in p ? p.pages : []) as RevisionPage[];

/** Every page of the tree by its id, with where it sits. */
export function place(pages: RevisionPage[], parent: string | null = null, out = new Map<string, Placed>()) {
  pages.forEach((page, index) => {
    out.set(page.id, { page, parent, index, siblings: pages, children: childrenOf(page) });
    place(childrenOf(page), page.id, out);
  });
  return out;
}

/** Where a dropped page goes, next to the page it is dropped on: before it, after it, or inside (its last child). */
export type Zone = 'before' | 'after' | 'inside';

/**
 * The zone of a row a pointer is at: its upper third puts the page before, its lower third after, its middle nests.
 * A row nothing nests in (`nests` false) is split in halves: before, after.
 */
export function zoneAt(y: number, top: number, height: number, nests = true): Zone {
  const f = height > 0 ? (y - top) / height : 0.5;
  if (!nests) return f < 1 / 2 ? 'before' : 'after';
  return f < 1 / 3 ? 'before' : f > 2 / 3 ? 'after' : 'inside';
}

/** Whether the page `id` is `ancestor` or one of its descendants. */
export function within<N extends TreeNode>(placed: Map<string, Placed<N>>, id: string, ancestor: string): boolean {
  for (let at: string | null | undefined = id; at; at = placed.get(at)?.parent) if (at === ancestor) return true;
  return false;
}

/** A move as `update_page` takes it: the new parent (null: the top level) and the index among the new siblings. */
export interface Move {
  into: string | null;
  at: number;
}

/**
 * Where dropping `dragged` on `target`'s zone moves it: a move, `'same'` when it would stay where it is, or
 * `'refused'` when the target is the page itself or one of its descendants (a page cannot go into itself), or
 * nothing nests in it and the zone is `inside`.
 */
export function dropMove<N extends TreeNode>(
  placed: Map<string, Placed<N>>,
  dragged: string,
  target: string,
  zone: Zone,
): Move | 'same' | 'refused' {
  const from = placed.get(dragged);
  const to = placed.get(target);
  if (!from || !to || within(placed, target, dragged)) return 'refused';
  if (zone === 'inside' && !to.children) return 'refused';
  const others = (nodes: N[]) => nodes.filter((p) => p.id !== dragged);
  const move: Move =
    zone === 'inside'
      ? { into: target, at: others(to.children ?? []).length }
      : { into: to.parent, at: others(to.siblings).findIndex((p) => p.id === target) + (zone === 'after' ? 1 : 0) };
  return move.into === from.parent && move.at === from.index ? 'same' : move;
}

/**
 * What a screen reader hears while a page is dragged over a row (`done`: once it is dropped there); `own` names what
 * a node holds (`pages`; `collections` in the organization's tree).
 */
export function dropMessage(
  dragged: string,
  target: string,
  zone: Zone,
  result: Move | 'same' | 'refused',
  done = false,
  own = 'pages',
): string {
  if (result === 'refused') return `${dragged} cannot go into itself or its own ${own}${done ? ': not moved' : ''}`;
  if (result === 'same') return `${dragged} stays where it is`;
  if (zone === 'inside') return `${done ? 'Nested' : 'Nest'} ${dragged} under ${target}`;
  return `${done ? 'Moved' : 'Put'} ${dragged} ${zone} ${target}`;
}
