// Resolving a merge conflict left in a change request's page: the conflict block (Quire's `conflict`, holding one
// `conflict-side` per version) is replaced by the blocks of the side the writer keeps, or of every side in order.
// Pure: the screen reads the page's document, resolves, and writes the document back through the API.

interface Block {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: Block[];
  fragments?: Block[];
}

/** Which version to keep: the index of a side, or every side, one after the other. */
export type Keep = { side: number } | 'all';

/** The sides of a conflict block: their titles (`main`, `change request #3`) and their blocks. */
export function sidesOf(conflict: Block): { title: string; nodes: Block[] }[] {
  return (conflict.nodes ?? [])
    .filter((n) => n.type === 'conflict-side')
    .map((side, i) => ({ title: String(side.data?.title ?? `Version ${i + 1}`), nodes: side.nodes ?? [] }));
}

/**
 * The document with its `ordinal`-th conflict block (0-based, in document order: depth first, as `conflictsIn`
 * counts) replaced by what `keep` says, wherever it is (top level, or in a container's blocks or fragments). Stored
 * documents carry no block keys, so the block is found by its place and checked against `shown` (what the writer
 * saw): `undefined` when it is not that block any more (the page changed meanwhile) — the screen then reloads rather
 * than write over it.
 */
export function resolveConflict<D extends { nodes?: unknown[] }>(
  document: D,
  ordinal: number,
  shown: unknown,
  keep: Keep,
): D | undefined {
  let seen = 0;
  let found = false;
  const visit = (list: Block[]): Block[] =>
    list.flatMap((node) => {
      if (node.type === 'conflict' && seen++ === ordinal) {
        if (JSON.stringify(node) !== JSON.stringify(shown)) return [node];
        found = true;
        const sides = sidesOf(node);
        if (keep === 'all') return sides.flatMap((s) => s.nodes);
        const side = sides[keep.side];
        if (!side) throw new RangeError(`the conflict has no side ${keep.side}`);
        return side.nodes;
      }
      if (node.object === 'text' || node.object === 'inline') return [node];
      const out: Block = { ...node };
      if (node.nodes) out.nodes = visit(node.nodes);
      if (node.fragments) out.fragments = visit(node.fragments);
      return [out];
    });
  const nodes = visit((document.nodes ?? []) as Block[]);
  return found ? { ...document, nodes } : undefined;
}

/** How many conflict blocks a document still holds (the page is resolved at 0). */
export function conflictsIn(list: readonly Block[] | undefined): number {
  let n = 0;
  for (const node of list ?? []) {
    if (node.type === 'conflict') n++;
    n += conflictsIn(node.nodes) + conflictsIn(node.fragments);
  }
  return n;
}
