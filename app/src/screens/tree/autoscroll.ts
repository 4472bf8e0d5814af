// Scrolling while a row of a tree is dragged near the edge of what scrolls (the window, or a scrolling box).

/** How close (px) to an edge the pointer scrolls: the band at the top and at the bottom of what scrolls. */
export const EDGE = 48;
/** The most a frame scrolls (px), with the pointer on the edge itself or past it. */
export const MAX_STEP = 18;

/**
 * How far one frame scrolls for a pointer at `y`, in what shows `start`…`end` (viewport coordinates): negative (up)
 * in the band `EDGE` px below `start`, positive (down) in the band above `end`, 0 elsewhere; faster the closer to the
 * edge, `MAX_STEP` on it and beyond it (a pointer let out of the window keeps scrolling), at least 1 px inside the
 * band. A box too short for two bands shares its height between them.
 */
export function scrollStep(y: number, start: number, end: number, edge = EDGE, max = MAX_STEP): number {
  const band = Math.min(edge, (end - start) / 2);
  if (band <= 0) return 0;
  const speed = (depth: number) => Math.max(1, Math.round(max * Math.min(1, depth / band)));
  if (y < start + band) return -speed(start + band - y);
  if (y > end - band) return speed(y - (end - band));
  return 0;
}

/** What can scroll vertically, from the innermost: `el`'s scrolling ancestors (overflow auto or scroll), then the page. */
function scrollersOf(el: HTMLElement): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (let n = el.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    const { overflowY } = getComputedStyle(n);
    if ((overflowY === 'auto' || overflowY === 'scroll') && n.scrollHeight > n.clientHeight) found.push(n);
  }
  return found;
}

/**
 * While a drag lasts: every animation frame, with the pointer near the top or bottom edge of the tree's scrolling box
 * or of the window, scrolls it by `scrollStep` and calls `moved` (the rows under the pointer changed). `at` gives the
 * pointer's last position; `stop()` ends it.
 */
export function autoScroll(tree: HTMLElement, at: () => { x: number; y: number } | undefined, moved: () => void) {
  const boxes = scrollersOf(tree);
  let frame = requestAnimationFrame(function tick() {
    const p = at();
    if (p) {
      let scrolled = false;
      for (const box of boxes) {
        const r = box.getBoundingClientRect();
        // Only when the pointer is over the box's columns: a box is scrolled by its own edges, clamped to the window.
        if (p.x < r.left || p.x > r.right) continue;
        const step = scrollStep(p.y, Math.max(r.top, 0), Math.min(r.bottom, innerHeight));
        const before = box.scrollTop;
        if (step) box.scrollTop += step;
        if (box.scrollTop !== before) scrolled = true;
      }
      const step = scrollStep(p.y, 0, innerHeight);
      const before = scrollY;
      if (step) scrollBy(0, step);
      if (scrollY !== before) scrolled = true;
      if (scrolled) moved();
    }
    frame = requestAnimationFrame(tick);
  });
  return { stop: () => cancelAnimationFrame(frame) };
}
