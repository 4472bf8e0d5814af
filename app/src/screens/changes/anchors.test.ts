import { describe, expect, it } from 'vitest';
import type { Node } from '../../render/node.ts';
import { anchorsOf, labelOf, textAnchorOf, topOf } from './anchors.ts';

const text = (t: string): Node => ({ object: 'text', leaves: [{ text: t }] });
const para = (t: string): Node => ({ object: 'block', type: 'paragraph', nodes: [text(t)] });
const item = (...blocks: Node[]): Node => ({ object: 'block', type: 'list-item', nodes: blocks });
const hint: Node = {
  object: 'block',
  type: 'hint',
  data: { style: 'info' },
  nodes: [para('First'), para('Second one')],
};
const list: Node = {
  object: 'block',
  type: 'list-tasks',
  nodes: [
    { ...item(para('Buy milk')), data: { checked: true } },
    { ...item(para('Walk the dog')), data: { checked: false } },
  ],
};
const tabs: Node = {
  object: 'block',
  type: 'tabs',
  nodes: [{ object: 'block', type: 'tabs-item', data: { title: 'Linux' }, nodes: [para('apt install')] }],
};
const expandable: Node = {
  object: 'block',
  type: 'expandable',
  fragments: [
    { object: 'fragment', fragment: 'title', nodes: [para('More')] },
    { object: 'fragment', fragment: 'body', nodes: [para('Hidden text')] },
  ],
};

describe('anchorsOf', () => {
  it('names the block, then its nested blocks in reading order, by path under its id', () => {
    expect(anchorsOf(hint, 'b1.0').map((a) => [a.id, a.label, a.depth])).toEqual([
      ['b1.0', 'Hint “First Second one”', 0],
      ['b1.0/0', 'Paragraph “First”', 1],
      ['b1.0/1', 'Paragraph “Second one”', 1],
    ]);
    expect(anchorsOf(list, 'L').map((a) => a.id)).toEqual(['L', 'L/0', 'L/0.0', 'L/1', 'L/1.0']);
    expect(anchorsOf(tabs, 'T').map((a) => a.label)).toEqual([
      'Tabs “apt install”',
      'Tab “Linux”',
      'Paragraph “apt install”',
    ]);
  });

  it('reaches the blocks of fragments (an expandable’s title and body) as f + the fragment’s index', () => {
    expect(anchorsOf(expandable, 'E').map((a) => a.id)).toEqual(['E', 'E/f0.0', 'E/f1.0']);
  });

  it('leaves out a code block’s lines and shortens long labels', () => {
    const code: Node = {
      object: 'block',
      type: 'code',
      nodes: [{ object: 'block', type: 'code-line', nodes: [text('x')] }],
    };
    expect(anchorsOf(code, 'C').map((a) => a.id)).toEqual(['C']);
    expect(labelOf(para('a'.repeat(60)))).toBe(`Paragraph “${'a'.repeat(39)}…”`);
  });
});

describe('topOf', () => {
  it('is the top-level block’s id of a nested id, and a top-level id itself', () => {
    expect(topOf('bx1.0/0.2')).toBe('bx1.0');
    expect(topOf('bx1.0')).toBe('bx1.0');
  });
});

describe('textAnchorOf', () => {
  it('is the rank-th nested block holding only that text, else undefined', () => {
    const twice: Node = { object: 'block', type: 'hint', nodes: [para('Same'), para('Other'), para('Same')] };
    expect(textAnchorOf(twice, 'H', 'Same', 0)?.id).toBe('H/0');
    expect(textAnchorOf(twice, 'H', 'Same', 1)?.id).toBe('H/2');
    expect(textAnchorOf(twice, 'H', 'Same', 2)).toBeUndefined();
    // a list item holds a paragraph: the paragraph is the block of the text, not the item
    expect(textAnchorOf(list, 'L', 'Walk the dog', 0)?.id).toBe('L/1.0');
    expect(textAnchorOf(expandable, 'E', 'Hidden text', 0)?.id).toBe('E/f1.0');
    expect(textAnchorOf(hint, 'b', 'Nowhere', 0)).toBeUndefined();
  });
});
