// Where a comment points inside a top-level block: the block itself, or one of its nested blocks (a paragraph in a
// hint, a list item, a tab, a table cell's content…). A nested block's id is its top-level block's id (`nodeIdsOf`)
// + `/` + its path there: child indexes, a fragment's as `f` + its index (`bx1.0/0.2`, `bx1.0/f1.0`). Stored pages
// carry no node keys, so a path is what names a nested block; it holds while the top-level block is unchanged, and
// an edited top-level block gets a new id anyway (its comments then show as on a block changed since).
import { type Node, textOf } from '../../render/node.ts';

/** A block a comment can be on: its id, its path under the top-level block, the node and a name for people. */
export interface Anchor {
  id: string;
  path: string;
  node: Node;
  label: string;
  depth: number;
}

const NAMES: Record<string, string> = {
  paragraph: 'Paragraph',
  'heading-1': 'Heading',
  'heading-2': 'Heading',
  'heading-3': 'Heading',
  'list-item': 'List item',
  'list-unordered': 'List',
  'list-ordered': 'List',
  'list-tasks': 'Task list',
  blockquote: 'Quote',
  hint: 'Hint',
  code: 'Code',
  'code-line': 'Code line',
  tabs: 'Tabs',
  'tabs-item': 'Tab',
  expandable: 'Expandable',
  stepper: 'Stepper',
  'stepper-step': 'Step',
  columns: 'Columns',
  column: 'Column',
  table: 'Table',
  images: 'Images',
};

const short = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The text of a block, its blocks' texts apart (a hint's two paragraphs are two sentences, not one word). */
export const plainOf = (n: Node): string =>
  (n.nodes ?? []).some((c) => c.object === 'block') || n.fragments?.length
    ? [...(n.nodes ?? []), ...(n.fragments ?? [])].map(plainOf).filter(Boolean).join(' ')
    : textOf(n);

/** A name for a block: its kind and the start of its text (a tab's or a step's title when it has one). */
export function labelOf(n: Node): string {
  const kind = NAMES[n.type ?? ''] ?? (n.type ? n.type[0]!.toUpperCase() + n.type.slice(1) : 'Block');
  const title = typeof n.data?.title === 'string' ? n.data.title : '';
  const text = short((title || plainOf(n)).replace(/\s+/g, ' ').trim());
  return text ? `${kind} “${text}”` : kind;
}

const isBlock = (n: Node) => n.object === undefined || n.object === 'block';

/**
 * The blocks a comment can be on in a top-level block (`id` its id): the block first, then its nested blocks in
 * reading order (children, then fragments such as an expandable's body or a table's cells).
 */
export function anchorsOf(top: Node, id: string): Anchor[] {
  const out: Anchor[] = [{ id, path: '', node: top, label: labelOf(top), depth: 0 }];
  const walk = (n: Node, path: string[], depth: number) => {
    const visit = (child: Node, steps: string[]) => {
      if (!isBlock(child)) return;
      const p = [...path, ...steps].join('.');
      // a code block's lines are not blocks a reader names
      if (child.type !== 'code-line')
        out.push({ id: `${id}/${p}`, path: p, node: child, label: labelOf(child), depth });
      walk(child, [...path, ...steps], depth + 1);
    };
    (n.nodes ?? []).forEach((c, i) => visit(c, [String(i)]));
    // a fragment is a list of blocks of its own (an expandable's body, a table's cell): `f` + its index, then theirs
    (n.fragments ?? []).forEach((f, i) => (f.nodes ?? []).forEach((c, j) => visit(c, [`f${i}`, String(j)])));
  };
  walk(top, [], 1);
  return out;
}

/** The top-level block's id of a comment's node id (itself for a top-level block). */
export const topOf = (nodeId: string) => {
  const slash = nodeId.indexOf('/');
  return slash < 0 ? nodeId : nodeId.slice(0, slash);
};

/** A block holding text only (a paragraph, a heading): no block inside it, no fragment. */
const holdsText = (n: Node) => !n.fragments?.length && !(n.nodes ?? []).some((c) => isBlock(c) && c.object === 'block');

/**
 * The nested block of a top-level block (`id` its id) holding text `text`, the `rank`-th such one in reading order
 * (the editor gives the text of the caret's paragraph and how many paragraphs of the same text come before it in
 * the block); undefined when none matches (the comment then goes on the top-level block).
 */
export function textAnchorOf(top: Node, id: string, text: string, rank: number): Anchor | undefined {
  const same = anchorsOf(top, id).filter((a) => a.depth > 0 && holdsText(a.node) && textOf(a.node) === text);
  return same[rank];
}
