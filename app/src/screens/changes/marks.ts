// The review draws a page's blocks with the published site's renderer (@quire/document/render), whose HTML says
// nothing of the document's blocks. To know which block a selection is in, each leaf block a comment can be on (a
// paragraph, a heading, a list item's paragraph…) gets a marker at the start of its first text before rendering: a
// few private-use characters naming its anchor (its rank in `anchorsOf`), which the app then replaces by an empty
// hidden `<span data-leaf>`. The renderer escapes text and keeps it whole, so a marker reaches the HTML as it went in.
// A page's blocks are rendered in one pass, a separator paragraph after each, and the HTML is cut at the separators.
import type { Node } from '../../render/node.ts';
import { type Anchor, plainOf } from './anchors.ts';

const OPEN = '\uE000';
const CLOSE = '\uE001';
const DIGIT = 0xe010;
/** The text of the paragraph put after each block of a side: `<p>` + this + `</p>` in the HTML. */
export const SEPARATOR = '\uE002';
const MARKER = /\uE000([\uE010-\uE01F]+)\uE001/g;
/** Any character of a marker or separator left over (a stray one is never shown). */
const STRAY = /[\uE000-\uE01F]/g;

/** The marker of the anchor of rank `i`: its digits in base 16, each a private-use character. */
export const markerOf = (i: number) =>
  OPEN + [...i.toString(16)].map((c) => String.fromCharCode(DIGIT + Number.parseInt(c, 16))).join('') + CLOSE;

const rankOf = (digits: string) =>
  Number.parseInt([...digits].map((c) => (c.charCodeAt(0) - DIGIT).toString(16)).join(''), 16);

/** The node at an anchor path under `top` (`1.f0.2`: child 1, its fragment 0, that one's block 2). */
function at(top: Node, path: string): Node | undefined {
  let n: Node | undefined = top;
  const steps = path ? path.split('.') : [];
  for (let i = 0; i < steps.length && n; i++) {
    const step = steps[i]!;
    if (step.startsWith('f')) {
      const fragment: Node | undefined = n.fragments?.[Number(step.slice(1))];
      n = fragment?.nodes?.[Number(steps[++i])];
    } else n = n.nodes?.[Number(step)];
  }
  return n;
}

/** Whether anchor `a` is `b` or one of its nested blocks. */
export const within = (a: Anchor, b: Anchor) => !b.path || a.path === b.path || a.path.startsWith(`${b.path}.`);

/**
 * The anchors that get a marker: those holding no other anchor, code blocks aside (the highlighter may cut text
 * anywhere, a selection in code goes to the block around it).
 */
export const leavesOf = (anchors: readonly Anchor[]) =>
  anchors.filter((a) => a.node.type !== 'code' && !anchors.some((b) => b !== a && within(b, a)));

/** The first text leaf at or under a node, in reading order (its blocks, then its fragments). */
function firstLeaf(n: Node): { text?: string } | undefined {
  for (const child of [...(n.nodes ?? []), ...(n.fragments ?? [])]) {
    if (child.object === 'text') {
      const leaf = child.leaves?.[0];
      if (leaf) return leaf;
      continue;
    }
    const found = firstLeaf(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * A copy of a top-level block whose leaf anchors (`anchorsOf` of it) start with their marker; a leaf with no text
 * (an image, a divider) has none. The block itself is not changed.
 */
export function withMarkers(top: Node, anchors: readonly Anchor[]): Node {
  const copy = structuredClone(top);
  for (const a of leavesOf(anchors)) {
    const n = at(copy, a.path);
    const leaf = n && firstLeaf(n);
    if (leaf) leaf.text = markerOf(anchors.indexOf(a)) + (leaf.text ?? '');
  }
  return copy;
}

/** A paragraph holding the separator only. */
export const separator = (): Node => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ text: SEPARATOR, marks: [] } as never] }],
});

/**
 * The HTML of blocks rendered with a separator after each (`separator`), cut into each block's HTML; `tail` is what
 * the renderer put after the last block (the footnotes).
 */
export function cut(html: string, count: number): { blocks: string[]; tail: string } {
  const parts = html.split(`<p>${SEPARATOR}</p>`);
  if (parts.length !== count + 1) throw new Error(`The page's ${count} blocks were rendered as ${parts.length - 1}`);
  return { blocks: parts.slice(0, count), tail: parts[count]! };
}

/**
 * Where a selected text starts in a block's text: the occurrence of `text` in `whole` nearest to `estimate` (the
 * length of the drawn text before the selection, which may count a word the renderer adds), else `estimate` kept in
 * the text.
 */
export function offsetIn(whole: string, text: string, estimate: number): number {
  let best: number | undefined;
  for (let i = whole.indexOf(text); i >= 0; i = whole.indexOf(text, i + 1))
    if (best === undefined || Math.abs(i - estimate) < Math.abs(best - estimate)) best = i;
  return best ?? Math.max(0, Math.min(estimate, whole.length));
}

/** A text without its spaces: a selection over two paragraphs has none between them. */
const squash = (s: string) => s.replace(/\s+/g, '');

/**
 * The anchor a selection is on: the deepest one holding both the anchor it starts in and the one it ends in, and
 * whose text holds the selected text (else the one around it, up to the top-level block).
 */
export function anchorOfSelection(anchors: readonly Anchor[], start: Anchor, end: Anchor, text: string): Anchor {
  const top = anchors[0]!;
  let a: Anchor | undefined = [...anchors].reverse().find((c) => within(start, c) && within(end, c)) ?? top;
  const wanted = squash(text);
  while (a && a !== top) {
    if (squash(plainOf(a.node)).includes(wanted)) return a;
    const inner: Anchor = a;
    a = [...anchors].reverse().find((c) => c !== inner && within(inner, c));
  }
  return top;
}

/** Rewrites the characters of markers and separators out of a string. */
const clean = (s: string) => s.replace(MARKER, '').replace(STRAY, '');

/**
 * The rendered HTML's markers as empty hidden `<span data-leaf="{rank}">`, and any marker character left in an
 * attribute (a heading's id and label are made of its text) taken out.
 */
export function placeMarkers(root: DocumentFragment | Element): void {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) if (STRAY.test((t as Text).data)) texts.push(t as Text);
  STRAY.lastIndex = 0;
  for (const t of texts) {
    const parts: (string | HTMLElement)[] = [];
    let last = 0;
    for (const m of t.data.matchAll(MARKER)) {
      parts.push(t.data.slice(last, m.index));
      const span = doc.createElement('span');
      span.hidden = true;
      span.dataset.leaf = String(rankOf(m[1]!));
      parts.push(span);
      last = m.index + m[0].length;
    }
    parts.push(t.data.slice(last));
    t.replaceWith(...parts.map((p) => (typeof p === 'string' ? clean(p) : p)).filter((p) => p !== ''));
  }
  for (const el of root.querySelectorAll('*'))
    for (const attr of [...el.attributes]) if (/[\uE000-\uE01F]/.test(attr.value)) attr.value = clean(attr.value);
}

let scopes = 0;

/**
 * The ids of rendered HTML made unique in the page (a block is drawn on both sides, and several pages can hold the
 * same heading), with what refers to them (labels, links to headings, ARIA) and the radio groups of tabs.
 */
export function scopeIds(root: DocumentFragment | Element): void {
  const prefix = `cr${++scopes}-`;
  const ids = new Map<string, string>();
  for (const el of root.querySelectorAll('[id]')) {
    ids.set(el.id, prefix + el.id);
    el.id = prefix + el.id;
  }
  const swap = (v: string) => ids.get(v) ?? v;
  for (const el of root.querySelectorAll('[for],[aria-controls],[aria-labelledby],[aria-describedby],a[href^="#"]')) {
    for (const name of ['for', 'aria-controls', 'aria-labelledby', 'aria-describedby']) {
      const v = el.getAttribute(name);
      if (v) el.setAttribute(name, v.split(/\s+/).map(swap).join(' '));
    }
    const href = el.getAttribute('href');
    if (href?.startsWith('#')) el.setAttribute('href', `#${swap(decodeURIComponent(href.slice(1)))}`);
  }
  for (const el of root.querySelectorAll('input[type="radio"][name]'))
    el.setAttribute('name', prefix + el.getAttribute('name'));
}

/** The leaf anchor a point of the page is in: the last marker before it in `container`, if any. */
export function leafAt(container: Element, node: globalThis.Node, offset: number): number | undefined {
  const point = container.ownerDocument.createRange();
  point.setStart(node, offset);
  point.collapse(true);
  let found: number | undefined;
  for (const span of container.querySelectorAll<HTMLElement>('span[data-leaf]')) {
    if (point.comparePoint(span, 0) > 0) break;
    found = Number(span.dataset.leaf);
  }
  return found;
}
