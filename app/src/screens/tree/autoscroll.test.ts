import { describe, expect, it } from 'vitest';
import { EDGE, MAX_STEP, scrollStep } from './autoscroll.ts';

describe('the scroll step of a drag near an edge', () => {
  it('is 0 away from the edges, up near the top, down near the bottom', () => {
    // A window 600 px high: bands of 48 px at the top and the bottom.
    expect(scrollStep(300, 0, 600)).toBe(0);
    expect(scrollStep(EDGE, 0, 600)).toBe(0);
    expect(scrollStep(600 - EDGE, 0, 600)).toBe(0);
    expect(scrollStep(EDGE - 1, 0, 600)).toBeLessThan(0);
    expect(scrollStep(600 - EDGE + 1, 0, 600)).toBeGreaterThan(0);
  });

  it('is faster the closer to the edge, MAX_STEP on it and past it, at least 1 px in the band', () => {
    const down = [560, 570, 580, 590, 600, 640].map((y) => scrollStep(y, 0, 600));
    expect(down).toEqual([...down].sort((a, b) => a - b));
    expect(down.at(-2)).toBe(MAX_STEP);
    expect(down.at(-1)).toBe(MAX_STEP);
    expect(scrollStep(553, 0, 600)).toBe(1);
    expect(scrollStep(0, 0, 600)).toBe(-MAX_STEP);
    expect(scrollStep(-30, 0, 600)).toBe(-MAX_STEP);
    expect(scrollStep(24, 0, 600)).toBe(-MAX_STEP / 2);
  });

  it('works in a box anywhere on the page, and shares a short box between its two bands', () => {
    expect(scrollStep(210, 200, 500)).toBeLessThan(0);
    expect(scrollStep(490, 200, 500)).toBeGreaterThan(0);
    expect(scrollStep(350, 200, 500)).toBe(0);
    // 60 px high: bands of 30 px, no dead middle.
    expect(scrollStep(105, 100, 160)).toBeLessThan(0);
    expect(scrollStep(155, 100, 160)).toBeGreaterThan(0);
    expect(scrollStep(100, 100, 100)).toBe(0);
  });
});
