import type { RevisionPage } from '../../api/endpoints.ts';

/** A page of the tree with where it sits: its parent and index among its siblings. */
export interface Placed {
  page: RevisionPage;
  parent: string | null;
  index: number;
  siblings: RevisionPage[];
}

export const childrenOf = (p: RevisionPage) => ('pages' in p ? p.pages : []) as RevisionPage[];

/** Every page of the tree by its id, with where it sits. */
export function place(pages: RevisionPage[], parent: string | null = null, out = new Map<string, Placed>()) {
  pages.forEach((page, index) => {
    out.set(page.id, { page, parent, index, siblings: pages });
    place(childrenOf(page), page.id, out);
  });
  return out;
}

/** Where a dropped page goes, next to the page it is dropped on: before it, after it, or inside (its last child). */
export type Zone = 'before' | 'after' | 'inside';

/** The zone of a row a pointer is at: its upper third puts the page before, its lower third after, its middle nests. */
export function zoneAt(y: number, top: number, height: number): Zone {
  const f = height > 0 ? (y - top) / height : 0.5;
  return f < 1 / 3 ? 'before' : f > 2 / 3 ? 'after' : 'inside';
}

/** Whether the page `id` is `ancestor` or one of its descendants. */
export function within(placed: Map<string, Placed>, id: string, ancestor: string): boolean {
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
 * `'refused'` when the target is the page itself or one of its descendants (a page cannot go into itself).
 */
export function dropMove(
  placed: Map<string, Placed>,
  dragged: string,
  target: string,
  zone: Zone,
): Move | 'same' | 'refused' {
  const from = placed.get(dragged);
  const to = placed.get(target);
  if (!from || !to || within(placed, target, dragged)) return 'refused';
  const others = (pages: RevisionPage[]) => pages.filter((p) => p.id !== dragged);
  const move: Move =
    zone === 'inside'
      ? { into: target, at: others(childrenOf(to.page)).length }
      : { into: to.parent, at: others(to.siblings).findIndex((p) => p.id === target) + (zone === 'after' ? 1 : 0) };
  return move.into === from.parent && move.at === from.index ? 'same' : move;
}

/** What a screen reader hears while a page is dragged over a row (`done`: once it is dropped there). */
export function dropMessage(
  dragged: string,
  target: string,
  zone: Zone,
  result: Move | 'same' | 'refused',
  done = false,
): string {
  if (result === 'refused') return `${dragged} cannot go into itself or its own pages${done ? ': not moved' : ''}`;
  if (result === 'same') return `${dragged} stays where it is`;
  if (zone === 'inside') return `${done ? 'Nested' : 'Nest'} ${dragged} under ${target}`;
  return `${done ? 'Moved' : 'Put'} ${dragged} ${zone} ${target}`;
}
