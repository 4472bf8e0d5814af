import type { Collection, Space } from '../../api/endpoints.ts';
import type { Move, Placed } from './placed.ts';

/** A node of the organization's tree: a collection or a space, keyed `collection:<id>` / `space:<id>`. */
export interface OrgNode {
  /** `collection:<id>` or `space:<id>`: the two kinds' ids never meet. */
  id: string;
  title: string;
  kind: 'collection' | 'space';
  /** The id of the collection or space. */
  of: string;
}

export const keyOf = (kind: OrgNode['kind'], id: string) => `${kind}:${id}`;

/**
 * Every collection and space of the organization by its key, with where it sits, as the screen shows them: in each
 * parent its collections, then its spaces, each kind in the API's tree order (the lists do not say how the two
 * kinds interleave). A collection's `children` are what it holds; a space holds nothing (undefined).
 */
export function placeOrg(collections: Collection[], spaces: Space[]): Map<string, Placed<OrgNode>> {
  const byParent = new Map<string | null, OrgNode[]>();
  const add = (parent: string | undefined, node: OrgNode) => {
    const key = parent ? keyOf('collection', parent) : null;
    byParent.set(key, [...(byParent.get(key) ?? []), node]);
  };
  for (const c of collections)
    add(c.parent, { id: keyOf('collection', c.id), title: c.title, kind: 'collection', of: c.id });
  for (const s of spaces)
    add(s.parent, { id: keyOf('space', s.id), title: s.title || 'Untitled space', kind: 'space', of: s.id });
  const out = new Map<string, Placed<OrgNode>>();
  for (const [parent, siblings] of byParent) {
    siblings.forEach((node, index) => {
      out.set(node.id, {
        page: node,
        parent,
        index,
        siblings,
        children: node.kind === 'collection' ? (byParent.get(node.id) ?? []) : undefined,
      });
    });
  }
  return out;
}

/** A move as `POST …/move` takes it: the new parent collection (null: the top level) and where among its items. */
export interface OrgMove {
  parent: string | null;
  position?:
    | { before: { type: 'space'; space: string } | { type: 'collection'; collection: string } }
    | {
        after: { type: 'space'; space: string } | { type: 'collection'; collection: string };
      };
}

const pointer = (n: OrgNode) =>
  n.kind === 'space' ? { type: 'space' as const, space: n.of } : { type: 'collection' as const, collection: n.of };

/**
 * The API's move of a drop (`{ into, at }` among the shown siblings of the new parent): into `into`'s collection,
 * before the item of the same kind shown next after `at`, else after the last one shown before it, else (the first
 * of its kind there) at the end. Collections show before spaces, so a space dropped among collections goes first
 * among the spaces, and a collection dropped among spaces last among the collections.
 */
export function orgMoveOf(placed: Map<string, Placed<OrgNode>>, dragged: string, { into, at }: Move): OrgMove {
  const node = placed.get(dragged)!.page;
  const parent = into ? placed.get(into)!.page.of : null;
  const siblings = into
    ? (placed.get(into)!.children ?? [])
    : ([...placed.values()].find((p) => p.parent === null)?.siblings ?? []);
  const others = siblings.filter((n) => n.id !== dragged);
  const next = others.slice(at).find((n) => n.kind === node.kind);
  if (next) return { parent, position: { before: pointer(next) } };
  const previous = others.slice(0, at).findLast((n) => n.kind === node.kind);
  if (previous) return { parent, position: { after: pointer(previous) } };
  return { parent };
}
