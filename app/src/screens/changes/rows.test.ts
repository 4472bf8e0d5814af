import { describe, expect, it } from 'vitest';
import { diffBlocks } from './blocks.ts';
import { rowsOf, summaryOf } from './rows.ts';

const block = (type: string, text: string) => ({
  object: 'block',
  type,
  nodes: [{ object: 'text', leaves: [{ text }] }],
});
const p = (text: string) => block('paragraph', text);
const h = (text: string) => block('heading-1', text);
const conflict = { object: 'block', type: 'conflict', nodes: [] };

const shape = (before: object[], after: object[]) =>
  rowsOf(diffBlocks(before, after)).map(
    (r) =>
      `${r.kind}:${(r.before?.node.nodes?.[0]?.leaves?.[0]?.text ?? '') || '-'}>${r.after?.node.nodes?.[0]?.leaves?.[0]?.text ?? '-'}`,
  );

describe('rowsOf', () => {
  it('pairs an edited block with its earlier version, between unchanged ones', () => {
    expect(shape([p('a'), p('b'), p('c')], [p('a'), p('B'), p('c')])).toEqual(['same:a>a', 'changed:b>B', 'same:c>c']);
  });

  it('pairs blocks of the same type in order, and leaves the others removed or added', () => {
    expect(shape([h('T'), p('x'), p('y')], [p('X'), h('New'), p('z')])).toEqual([
      'removed:T>-',
      'changed:x>X',
      'added:->New',
      'changed:y>z',
    ]);
  });

  it('never pairs a conflict block, nor blocks across an unchanged one', () => {
    expect(shape([p('a'), p('k'), p('b')], [conflict, p('k'), p('B')]).map((r) => r.split(':')[0])).toEqual([
      'removed',
      'added',
      'same',
      'changed',
    ]);
  });

  it('is all added for a new page, all removed for a deleted one', () => {
    expect(shape([], [p('a')])).toEqual(['added:->a']);
    expect(shape([p('a')], [])).toEqual(['removed:a>-']);
  });
});

describe('summaryOf', () => {
  it('says what changed, in words', () => {
    const rows = (before: object[], after: object[]) => rowsOf(diffBlocks(before, after));
    expect(summaryOf(rows([p('a'), p('b')], [p('a'), p('B')]))).toBe('1 block changed.');
    expect(summaryOf(rows([h('T'), p('b')], [p('B'), p('c'), p('d')]))).toBe('1 block changed, 2 added, 1 removed.');
    expect(summaryOf(rows([], [p('a'), p('b')]))).toBe('2 blocks added.');
    expect(summaryOf(rows([p('a')], [p('a')]))).toBe('No block changed.');
  });
});
