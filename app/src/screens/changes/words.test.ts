// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { changedRanges, markRanges } from './words.ts';

const words = (text: string, ranges: [number, number][]) => ranges.map(([s, e]) => text.slice(s, e));

describe('changedRanges', () => {
  it('is the words one version has and the other not, next ones joined', () => {
    const before = 'Install the toolkit first.';
    const after = 'Install the synergistic new toolkit now.';
    expect(words(after, changedRanges(after, before))).toEqual(['synergistic new', 'now']);
    expect(words(before, changedRanges(before, after))).toEqual(['first']);
  });

  it('is nothing when the versions share no word, or are the same', () => {
    expect(changedRanges('Old ending.', 'New start!')).toEqual([]);
    expect(changedRanges('Same text.', 'Same text.')).toEqual([]);
  });
});

describe('markRanges', () => {
  it('marks the ranges across the drawn text nodes, the text unchanged', () => {
    const p = document.createElement('p');
    p.innerHTML = 'Say <strong>new things</strong> twice';
    markRanges(p, [
      [4, 7],
      [15, 21],
    ]);
    expect(p.textContent).toBe('Say new things twice');
    expect([...p.querySelectorAll('mark.cr-words')].map((m) => m.textContent)).toEqual(['new', 'twice']);
    expect(p.querySelector('strong mark')?.textContent).toBe('new');
  });
});
