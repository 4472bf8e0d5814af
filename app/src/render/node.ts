// A node of the API's JSON document as the app reads it (the review's diff, comments' anchors): loosely typed, the
// contract's types being a union too wide to walk here.
interface Leaf {
  text?: string;
  marks?: { type: string }[];
}
export interface Node {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, any>;
  nodes?: Node[];
  fragments?: (Node & { fragment?: string })[];
  leaves?: Leaf[];
  text?: string;
}

/** The plain text of a node and its children. */
export function textOf(n: Node): string {
  if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('') || (n.text ?? '');
  const own = (n.nodes ?? []).map(textOf).join('');
  // an expandable's title and body, a table's cells: fragments, one after the other
  return [own, ...(n.fragments ?? []).map(textOf)].filter(Boolean).join(' ');
}
