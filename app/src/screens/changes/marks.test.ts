// @vitest-environment happy-dom
import type { JSONDocument } from '@quire/document/render';
import { describe, expect, it } from 'vitest';
import { renderPageHtml, toNodes } from '../../render/page.ts';
import type { Node } from '../../render/node.ts';
import { anchorsOf } from './anchors.ts';
import {
  anchorOfSelection,
  cut,
  leafAt,
  leavesOf,
  markerOf,
  offsetIn,
  placeMarkers,
  scopeIds,
  separator,
  withMarkers,
} from './marks.ts';

const text = (t: string): Node => ({ object: 'text', leaves: [{ text: t, marks: [] } as never] });
const para = (t: string): Node => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(t)] });
const hint: Node = {
  object: 'block',
  type: 'hint',
  data: { style: 'info' },
  nodes: [para('First advice.'), para('Install the synergistic toolkit first.')],
};
const heading: Node = { object: 'block', type: 'heading-1', data: {}, nodes: [text('Set up')] };
const list: Node = {
  object: 'block',
  type: 'list-unordered',
  data: {},
  nodes: ['Alpha', 'Beta'].map((t) => ({ object: 'block', type: 'list-item', data: {}, nodes: [para(t)] })),
};

/** Blocks drawn as the review draws the change request's side: marked, one pass, cut at the separators. */
async function drawn(blocks: Node[]) {
  const nodes = blocks.flatMap((b) => [withMarkers(b, anchorsOf(b, '')), separator()]);
  const document = { object: 'document', data: {}, nodes } as unknown as JSONDocument;
  const html = await renderPageHtml({ document, path: 'guide', pages: [], files: [], base: '/o/a/s/b' });
  return cut(html, blocks.length).blocks.map((h) => {
    const box = window.document.createElement('div');
    box.append(toNodes(h));
    placeMarkers(box);
    return box;
  });
}

describe('markers of leaf blocks', () => {
  it('marks the first text of each leaf block, not the block itself nor a code block', () => {
    const anchors = anchorsOf(hint, 'H');
    expect(leavesOf(anchors).map((a) => a.path)).toEqual(['0', '1']);
    const marked = withMarkers(hint, anchors);
    expect(marked.nodes![1]!.nodes![0]!.leaves![0]!.text).toBe(`${markerOf(2)}Install the synergistic toolkit first.`);
    // the page's own block is left as it was
    expect(hint.nodes![1]!.nodes![0]!.leaves![0]!.text).toBe('Install the synergistic toolkit first.');
    const code: Node = {
      object: 'block',
      type: 'code',
      nodes: [{ object: 'block', type: 'code-line', nodes: [text('x')] }],
    };
    expect(leavesOf(anchorsOf(code, 'C'))).toEqual([]);
  });

  it('go through the site renderer whole: each block cut out, its leaves found again, nothing of them shown', async () => {
    const [h, l, s] = await drawn([hint, list, heading]);
    expect(h!.textContent).toBe('InfoFirst advice.Install the synergistic toolkit first.');
    expect([...h!.querySelectorAll('span[data-leaf]')].map((x) => (x as HTMLElement).dataset.leaf)).toEqual(['1', '2']);
    expect(l!.querySelectorAll('li').length).toBe(2);
    // a heading's id and label are made of its text: no marker is left in them
    const h2 = s!.querySelector('h2')!;
    expect(h2.id).toBe('set-up');
    expect(s!.innerHTML).not.toMatch(/[\uE000-\uE01F]/);
    expect(h2.querySelector('a')!.getAttribute('aria-label')).toBe('Link to Set up');
  });

  it('find the block a selection is in, and where it starts in that block’s text', async () => {
    const [box] = await drawn([hint]);
    const anchors = anchorsOf(hint, 'H');
    const second = [...box!.querySelectorAll('p')].find((p) => p.textContent?.startsWith('Install'))!;
    const t = [...second.childNodes].find((n) => n.nodeType === 3) as Text;
    const at = t.data.indexOf('synergistic');
    const leaf = anchors[leafAt(box!, t, at)!]!;
    expect(leaf.id).toBe('H/1');
    expect(anchorOfSelection(anchors, leaf, leaf, 'synergistic').id).toBe('H/1');
    // over both paragraphs: the hint; over the hint's label only: the hint too
    const first = anchors[leafAt(box!, box!.querySelector('p')!.nextSibling!.firstChild!, 0)!]!;
    expect(anchorOfSelection(anchors, first, leaf, 'First advice.Install').id).toBe('H');
    expect(anchorOfSelection(anchors, first, first, 'Info')).toBe(anchors[0]);
    expect(leafAt(box!, box!.querySelector('.hint-label')!.firstChild!, 0)).toBeUndefined();
  });
});

describe('offsetIn', () => {
  it('is the occurrence nearest to where the selection was drawn, else that place in the text', () => {
    expect(offsetIn('a b a b', 'a', 0)).toBe(0);
    expect(offsetIn('a b a b', 'a', 3)).toBe(4);
    expect(offsetIn('abc', 'zz', 7)).toBe(3);
  });
});

describe('scopeIds', () => {
  it('makes ids unique with what points at them, and tabs’ radio groups their own', () => {
    const box = document.createElement('div');
    box.innerHTML =
      '<h2 id="a">A<a href="#a">#</a></h2><input type="radio" name="tabs-1" id="tabs-1-0"><label for="tabs-1-0">T</label><a href="#elsewhere">x</a>';
    scopeIds(box);
    const id = box.querySelector('h2')!.id;
    expect(id).toMatch(/^cr\d+-a$/);
    expect(box.querySelector('h2 a')!.getAttribute('href')).toBe(`#${id}`);
    expect(box.querySelector('label')!.htmlFor).toBe(box.querySelector('input')!.id);
    expect(box.querySelector('input')!.name).toMatch(/^cr\d+-tabs-1$/);
    expect(box.querySelector('a[href="#elsewhere"]')).not.toBeNull();
  });
});
