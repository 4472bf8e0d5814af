/** A node of a JSON document, as far as inlining reusable contents is concerned. */
interface Node {
  object?: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: Node[];
  fragments?: Node[];
}

/** How deep reusable contents including reusable contents are expanded (a cycle stops there too). */
export const MAX_INCLUDE_DEPTH = 8;

/** The reusable content a `reusable-content` block of this space includes (another space's, or not one: undefined). */
function includedId(node: Node, spaceId: string): string | undefined {
  if (node.object !== 'block' || node.type !== 'reusable-content') return undefined;
  const ref = node.data?.ref as { reusableContent?: unknown; space?: unknown } | undefined;
  if (typeof ref?.reusableContent !== 'string') return undefined;
  return ref.space === undefined || ref.space === spaceId ? ref.reusableContent : undefined;
}

/** The ids of the reusable contents of this space a document includes, at any depth of its blocks. */
export function includedIds(document: object, spaceId: string, out = new Set<string>()): Set<string> {
  const { nodes, fragments } = document as Node;
  for (const child of [...(nodes ?? []), ...(fragments ?? [])]) {
    const id = includedId(child, spaceId);
    if (id !== undefined) out.add(id);
    else includedIds(child, spaceId, out);
  }
  return out;
}

type Resolve = (id: string) => object | undefined;

function inlineNodes(nodes: Node[], spaceId: string, resolve: Resolve, seen: readonly string[]): Node[] {
  return nodes.flatMap((node) => {
    const id = includedId(node, spaceId);
    if (id !== undefined) {
      const included = resolve(id) as Node | undefined;
      if (!included || seen.includes(id) || seen.length >= MAX_INCLUDE_DEPTH) return [node];
      return inlineNodes(included.nodes ?? [], spaceId, resolve, [...seen, id]);
    }
    if (!node.nodes && !node.fragments) return [node];
    return [inlineChildren(node, spaceId, resolve, seen)];
  });
}

function inlineChildren(node: Node, spaceId: string, resolve: Resolve, seen: readonly string[]): Node {
  return {
    ...node,
    ...(node.nodes && { nodes: inlineNodes(node.nodes, spaceId, resolve, seen) }),
    ...(node.fragments && { fragments: inlineNodes(node.fragments, spaceId, resolve, seen) }),
  };
}

/**
 * GitBook's `dereferenced` (`true` or `reusable-contents`): each `reusable-content` block of the document that
 * includes a reusable content of this space is replaced by that reusable content's blocks (expanded the same way, to
 * `MAX_INCLUDE_DEPTH`; a cycle stops). A block whose reusable content `resolve` does not know (gone, or another
 * space's) is kept as it is. The document is not changed: a new one is returned (cached documents are frozen).
 */
export function inlineReusableContents<T extends object>(document: T, spaceId: string, resolve: Resolve): T {
  if (!includedIds(document, spaceId).size) return document;
  return inlineChildren(document as Node, spaceId, resolve, []) as T;
}
