import { type PointerEvent as ReactPointerEvent, useRef } from 'react';
import type { RevisionPage } from '../../api/endpoints.ts';
import { autoScroll } from './autoscroll.ts';
import { dropMessage, dropMove, type Move, type Placed, type TreeNode, type Zone, zoneAt } from './placed.ts';

/** How far (px) a pointer moves, button down, before a press becomes a drag (a shorter one stays a click). */
const THRESHOLD = 5;

/** Which tree: the attribute naming a row's node (`data-page`), and what a node holds (for the messages). */
export interface TreeKind {
  /** `page`: rows are `.row[data-page="<id>"]`. */
  attr: string;
  /** `pages`: "cannot go into itself or its own pages". */
  own: string;
}
const PAGES: TreeKind = { attr: 'page', own: 'pages' };

/** What the drag needs from the screen, read when it acts (the tree may have been loaded again meanwhile). */
interface Host {
  placed: Map<string, Placed<TreeNode>>;
  onMove(node: string, move: Move): void;
  say(text: string): void;
}

/** Swallows the click a drag ends with (the pointer let go over a link or a button): once, in this task. */
function swallowNextClick() {
  const stop = (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('click', stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener('click', stop, { capture: true }), 0);
}

/** One press on a row, followed until the pointer is let go: a drag once it moved far enough. */
class TreeDrag {
  private started = false;
  private cancelled = false;
  private over: { row: HTMLElement; zone: Zone; result: Move | 'same' | 'refused' } | undefined;
  /** The pointer's last position, and the scrolling near the edges while the drag lasts (autoscroll.ts). */
  private at: { x: number; y: number } | undefined;
  private scroll: { stop(): void } | undefined;
  private readonly dragged: string;
  private readonly down: PointerEvent;
  private readonly row: HTMLElement;
  private readonly tree: HTMLElement;
  private readonly host: () => Host;
  private readonly kind: TreeKind;

  constructor(down: PointerEvent, row: HTMLElement, tree: HTMLElement, host: () => Host, kind: TreeKind) {
    this.down = down;
    this.row = row;
    this.tree = tree;
    this.host = host;
    this.kind = kind;
    this.dragged = row.dataset[kind.attr]!;
    window.addEventListener('pointermove', this.onMove);
    window.addEventListener('pointerup', this.onUp);
    window.addEventListener('pointercancel', this.onCancel);
    window.addEventListener('keydown', this.onKey, true);
  }

  private title = (id: string) => this.host().placed.get(id)?.page.title ?? '';

  private onMove = (e: PointerEvent) => {
    if (e.pointerId !== this.down.pointerId || this.cancelled) return;
    if (!this.started) {
      if (Math.hypot(e.clientX - this.down.clientX, e.clientY - this.down.clientY) < THRESHOLD) return;
      this.started = true;
      this.row.dataset.dragging = '';
      this.tree.dataset.dragging = '';
      this.host().say(`Dragging ${this.title(this.dragged)}. Escape cancels.`);
      this.scroll = autoScroll(
        this.tree,
        () => this.at,
        () => this.at && this.point(this.at.x, this.at.y),
      );
    }
    e.preventDefault();
    this.at = { x: e.clientX, y: e.clientY };
    this.point(e.clientX, e.clientY);
  };

  /** Marks the row under the pointer with where a drop would put the page, and says it. */
  private point(x: number, y: number) {
    const hit = document.elementFromPoint(x, y)?.closest<HTMLElement>(`.row[data-${this.kind.attr}]`);
    if (!hit || !this.tree.contains(hit)) return this.unmark();
    const target = hit.dataset[this.kind.attr]!;
    const box = hit.getBoundingClientRect();
    const zone = zoneAt(y, box.top, box.height, this.host().placed.get(target)?.children !== undefined);
    if (this.over?.row === hit && this.over.zone === zone) return;
    this.unmark();
    const result = dropMove(this.host().placed, this.dragged, target, zone);
    this.over = { row: hit, zone, result };
    if (result !== 'same') hit.dataset.drop = result === 'refused' ? 'refused' : zone;
    this.host().say(dropMessage(this.title(this.dragged), this.title(target), zone, result, false, this.kind.own));
  }

  private unmark() {
    if (this.over) delete this.over.row.dataset.drop;
    this.over = undefined;
  }

  private onUp = (e: PointerEvent) => {
    if (e.pointerId !== this.down.pointerId) return;
    const at = this.over;
    this.end();
    if (!this.started) return;
    swallowNextClick();
    if (this.cancelled) return;
    if (!at) return this.host().say(`${this.title(this.dragged)} not moved`);
    const target = this.title(at.row.dataset[this.kind.attr]!);
    this.host().say(dropMessage(this.title(this.dragged), target, at.zone, at.result, true, this.kind.own));
    if (typeof at.result !== 'string') this.host().onMove(this.dragged, at.result);
  };

  private onCancel = (e: PointerEvent) => {
    if (e.pointerId !== this.down.pointerId) return;
    this.end();
    if (this.started && !this.cancelled) this.host().say('Move cancelled');
  };

  /** Escape drops nothing: the marks go, and the click the pointer ends with (later) is still swallowed. */
  private onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !this.started || this.cancelled) return;
    e.preventDefault();
    this.cancelled = true;
    this.stopScrolling();
    this.unmark();
    delete this.row.dataset.dragging;
    delete this.tree.dataset.dragging;
    this.host().say('Move cancelled');
  };

  private stopScrolling() {
    this.scroll?.stop();
    this.scroll = undefined;
    this.at = undefined;
  }

  private end() {
    this.stopScrolling();
    this.unmark();
    delete this.row.dataset.dragging;
    delete this.tree.dataset.dragging;
    window.removeEventListener('pointermove', this.onMove);
    window.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('pointercancel', this.onCancel);
    window.removeEventListener('keydown', this.onKey, true);
  }
}

/**
 * Drag and drop in a tree with pointer events (mouse, touch, pen): a mouse drags a row from anywhere but its
 * controls, a finger from the row's grip (the rest of the tree still scrolls). Over a row, its upper third puts the
 * node before it, its lower third after it, its middle nests it as its last child (a row nothing nests in is split
 * in halves); the row shows where (`data-drop`), a drop into the node's own descendants is refused, and the live
 * region says it all. Escape cancels. Near the top or bottom edge of the window or of the tree's scrolling box, the
 * view scrolls (autoscroll.ts) and the row under the pointer is found again. The rows' marks are set on the DOM, not
 * in React state: a move of the pointer draws no part of the tree again. Rows are
 * `.row[data-<kind.attr>="<id of the node in placed>"]`.
 */
export function useTreeDrag<N extends TreeNode>(
  placed: Map<string, Placed<N>>,
  busy: boolean,
  onMove: (node: string, move: Move) => void,
  kind: TreeKind,
) {
  const live = useRef<HTMLParagraphElement>(null);
  const say = (text: string) => {
    if (live.current) live.current.textContent = text;
  };
  const host = { placed: placed as unknown as Map<string, Placed<TreeNode>>, busy, onMove, say };
  const latest = useRef<Host & { busy: boolean }>(host);
  latest.current = host;

  const onPointerDown = (e: ReactPointerEvent<HTMLElement>) => {
    const el = e.target as HTMLElement;
    const row = el.closest<HTMLElement>(`.row[data-${kind.attr}]`);
    if (e.button !== 0 || latest.current.busy || !row || !e.currentTarget.contains(row)) return;
    const fromControl = el.closest('button, input, textarea, select, summary, .menu, form');
    if (e.pointerType === 'mouse' ? fromControl : !el.closest('.grip')) return;
    new TreeDrag(e.nativeEvent, row, e.currentTarget, () => latest.current, kind);
  };
  return { live, onPointerDown };
}

/** Drag and drop in a space's page tree (`.row[data-page]`): `useTreeDrag` over its pages. */
export const usePageDrag = (
  placed: Map<string, Placed<RevisionPage>>,
  busy: boolean,
  onMove: (page: string, move: Move) => void,
) => useTreeDrag(placed, busy, onMove, PAGES);
