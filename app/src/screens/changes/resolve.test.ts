import { describe, expect, it } from 'vitest';
import { conflictsIn, resolveConflict, sidesOf } from './resolve.ts';

const p = (text: string, key: string) => ({
  object: 'block',
  type: 'paragraph',
  key,
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const conflict = (key: string) => ({
  object: 'block',
  type: 'conflict',
  key,
  data: {},
  nodes: [
    { object: 'block', type: 'conflict-side', key: `${key}m`, data: { title: 'main' }, nodes: [p('from main', 'a')] },
    {
      object: 'block',
      type: 'conflict-side',
      key: `${key}c`,
      data: { title: 'change request #2' },
      nodes: [p('from the change request', 'b'), p('and more', 'c')],
    },
  ],
});
const doc = () => ({
  object: 'document',
  data: {},
  nodes: [
    p('before', 'x'),
    conflict('k1'),
    {
      object: 'block',
      type: 'hint',
      key: 'h',
      data: { style: 'info' },
      nodes: [conflict('k2')],
    },
  ],
});
const texts = (d: { nodes?: unknown[] } | undefined) =>
  JSON.stringify(d)
    .match(/"text":"[^"]*"/g)
    ?.map((t) => t.slice(8, -1));

describe('resolving a conflict block', () => {
  it('names its sides', () => {
    expect(sidesOf(conflict('k')).map((s) => s.title)).toEqual(['main', 'change request #2']);
  });

  it('keeps the side chosen, in place of the block, and leaves the other conflicts', () => {
    const main = resolveConflict(doc(), 0, conflict('k1'), { side: 0 });
    expect(texts(main)).toEqual(['before', 'from main', 'from main', 'from the change request', 'and more']);
    expect(conflictsIn(main?.nodes as never)).toBe(1);
    const mine = resolveConflict(doc(), 0, conflict('k1'), { side: 1 });
    expect(texts(mine)?.slice(0, 3)).toEqual(['before', 'from the change request', 'and more']);
  });

  it('resolves a conflict inside a container, and keeps every side in order when asked', () => {
    const all = resolveConflict(doc(), 1, conflict('k2'), 'all');
    expect(all?.nodes?.[2]).toMatchObject({ type: 'hint', nodes: [{ key: 'a' }, { key: 'b' }, { key: 'c' }] });
    expect(conflictsIn(all?.nodes as never)).toBe(1);
  });

  it('answers nothing for a conflict that is not there any more, and leaves the input as it was', () => {
    const d = doc();
    const before = JSON.stringify(d);
    expect(resolveConflict(d, 2, conflict('k1'), { side: 0 })).toBeUndefined();
    // the first conflict is not the one shown (the page changed meanwhile)
    expect(resolveConflict(d, 0, conflict('k2'), { side: 0 })).toBeUndefined();
    resolveConflict(d, 0, conflict('k1'), { side: 1 });
    expect(JSON.stringify(d)).toBe(before);
  });
});
