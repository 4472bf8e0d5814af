import type {
  DocumentBlock,
  DocumentInline,
  DocumentTableCellFragment,
  DocumentText,
  JSONDocument,
} from '@quire/contracts/document';

/** Any node of a document: the document, a block, an inline, a text, or a fragment (a caption, a table cell…). */
export type DocumentNode =
  | JSONDocument
  | DocumentBlock
  | DocumentInline
  | DocumentText
  | DocumentTableCellFragment
  | { object: 'fragment'; fragment: string; nodes: readonly unknown[] };

/** What `walk` calls for each node; `false` skips the node's children. */
export type Visitor = (node: DocumentNode, parent: DocumentNode | null, depth: number) => unknown;

const childrenOf = (node: DocumentNode): readonly DocumentNode[] => {
  const n = node as { nodes?: readonly DocumentNode[]; fragments?: readonly DocumentNode[] };
  if (!n.fragments) return n.nodes ?? [];
  return n.nodes ? [...n.nodes, ...n.fragments] : n.fragments;
};

/**
 * Visits a node and everything under it depth first, in reading order: a node, its `nodes`, then its `fragments`
 * (an expandable's title and body, an image's caption, a table's cells, an annotation's note). Iterative, so a deep
 * document cannot overflow the stack.
 */
export function walk(root: DocumentNode, visit: Visitor): void {
  const stack: [DocumentNode, DocumentNode | null, number][] = [[root, null, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [node, parent, depth] = top;
    if (visit(node, parent, depth) === false) continue;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, node, depth + 1]);
  }
}
