import { type PointerEvent as ReactPointerEvent, useRef } from 'react';
import { dropMessage, dropMove, type Move, type Placed, type Zone, zoneAt } from './placed.ts';

/** How far (px) a pointer moves, button down, before a press becomes a drag (a shorter one stays a click). */
const THRESHOLD = 5;

/** What the drag needs from the screen, read when it acts (the tree may have been loaded again meanwhile). */
interface Host {
  placed: Map<string, Placed>;
  onMove(page: string, move: Move): void;
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
class PageDrag {
  private started = false;
  private cancelled = false;
  private over: { row: HTMLElement; zone: Zone; result: Move | 'same' | 'refused' } | undefined;
  private readonly dragged: string;
  private readonly down: PointerEvent;
  private readonly row: HTMLElement;
  private readonly tree: HTMLElement;
  private readonly host: () => Host;

  constructor(down: PointerEvent, row: HTMLElement, tree: HTMLElement, host: () => Host) {
    this.down = down;
    this.row = row;
    this.tree = tree;
    this.host = host;
    this.dragged = row.dataset.page!;
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
    }
    e.preventDefault();
    this.point(e.clientX, e.clientY);
  };

  /** Marks the row under the pointer with where a drop would put the page, and says it. */
  private point(x: number, y: number) {
    const hit = document.elementFromPoint(x, y)?.closest<HTMLElement>('.row[data-page]');
    if (!hit || !this.tree.contains(hit)) return this.unmark();
    const box = hit.getBoundingClientRect();
    const zone = zoneAt(y, box.top, box.height);
    if (this.over?.row === hit && this.over.zone === zone) return;
    this.unmark();
    const target = hit.dataset.page!;
    const result = dropMove(this.host().placed, this.dragged, target, zone);
    this.over = { row: hit, zone, result };
    if (result !== 'same') hit.dataset.drop = result === 'refused' ? 'refused' : zone;
    this.host().say(dropMessage(this.title(this.dragged), this.title(target), zone, result));
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
    const target = this.title(at.row.dataset.page!);
    this.host().say(dropMessage(this.title(this.dragged), target, at.zone, at.result, true));
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
    this.unmark();
    delete this.row.dataset.dragging;
    delete this.tree.dataset.dragging;
    this.host().say('Move cancelled');
  };

  private end() {
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
 * Drag and drop in the page tree with pointer events (mouse, touch, pen): a mouse drags a row from anywhere but its
 * controls, a finger from the row's grip (the rest of the tree still scrolls). Over a row, its upper third puts the
 * page before it, its lower third after it, its middle nests it as its last child; the row shows where
 * (`data-drop`), a drop into the page's own descendants is refused, and the live region says it all. Escape cancels.
 * The rows' marks are set on the DOM, not in React state: a move of the pointer draws no part of the tree again.
 */
export function usePageDrag(placed: Map<string, Placed>, busy: boolean, onMove: (page: string, move: Move) => void) {
  const live = useRef<HTMLParagraphElement>(null);
  const say = (text: string) => {
    if (live.current) live.current.textContent = text;
  };
  const latest = useRef<Host & { busy: boolean }>({ placed, busy, onMove, say });
  latest.current = { placed, busy, onMove, say };

  const onPointerDown = (e: ReactPointerEvent<HTMLElement>) => {
    const el = e.target as HTMLElement;
    const row = el.closest<HTMLElement>('.row[data-page]');
    if (e.button !== 0 || latest.current.busy || !row || !e.currentTarget.contains(row)) return;
    const fromControl = el.closest('button, input, textarea, summary, .menu, form');
    if (e.pointerType === 'mouse' ? fromControl : !el.closest('.grip')) return;
    new PageDrag(e.nativeEvent, row, e.currentTarget, () => latest.current);
  };
  return { live, onPointerDown };
}
