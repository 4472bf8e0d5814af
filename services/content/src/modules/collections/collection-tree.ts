import type { DefaultLevel } from '@quire/contracts';
import type { ContentAccessFacts, Grant } from '../access/access.policy.ts';

/** An organization's explicit grants, by space and by collection id. */
export interface GrantIndex {
  spaces: ReadonlyMap<string, readonly Grant[]>;
  collections: ReadonlyMap<string, readonly Grant[]>;
}
export const NO_GRANTS: GrantIndex = { spaces: new Map(), collections: new Map() };

export interface CollectionNode {
  id: string;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

/**
 * An organization's collections in memory (they are few next to spaces), for lists: the levels a space or
 * collection inherits, and the sub-trees that move together. Cycles cannot be stored (moves refuse them);
 * walks stop at a repeated node anyway.
 */
export class CollectionTree {
  readonly #nodes = new Map<string, CollectionNode>();
  readonly #children = new Map<string, string[]>();
  readonly #grants: GrantIndex;

  constructor(nodes: Iterable<CollectionNode>, grants: GrantIndex = NO_GRANTS) {
    this.#grants = grants;
    for (const n of nodes) this.#nodes.set(n.id, n);
    for (const n of this.#nodes.values()) {
      if (n.parentId === null) continue;
      const list = this.#children.get(n.parentId) ?? [];
      list.push(n.id);
      this.#children.set(n.parentId, list);
    }
  }

  get ids(): string[] {
    return [...this.#nodes.keys()];
  }

  has(id: string): boolean {
    return this.#nodes.has(id);
  }

  get(id: string): CollectionNode | undefined {
    return this.#nodes.get(id);
  }

  /** Levels of `id` and of each ancestor, nearest first ([] at the top level): what content directly in `id` inherits. */
  levelsFrom(id: string | null | undefined): DefaultLevel[] {
    const levels: DefaultLevel[] = [];
    const seen = new Set<string>();
    for (let cur = id ?? null; cur !== null && !seen.has(cur); ) {
      seen.add(cur);
      const node = this.#nodes.get(cur);
      if (!node) break;
      levels.push(node.defaultLevel);
      cur = node.parentId;
    }
    return levels;
  }

  /** Grants of `id` and of each ancestor, nearest first (aligned with `levelsFrom`). */
  grantsFrom(id: string | null | undefined): (readonly Grant[])[] {
    const out: (readonly Grant[])[] = [];
    const seen = new Set<string>();
    for (let cur = id ?? null; cur !== null && !seen.has(cur); ) {
      seen.add(cur);
      const node = this.#nodes.get(cur);
      if (!node) break;
      out.push(this.#grants.collections.get(cur) ?? []);
      cur = node.parentId;
    }
    return out;
  }

  /** The spaces with explicit grants (for lists: who they reach is decided by the policy). */
  get grantedSpaceIds(): string[] {
    return [...this.#grants.spaces.keys()];
  }

  /**
   * The access facts of a space of this organization (its own grants when `id` is given, none for new content),
   * from the tree (no query).
   */
  factsOf(item: {
    id?: string;
    organizationId: string;
    defaultLevel?: DefaultLevel | undefined;
    parentId?: string | null | undefined;
  }): ContentAccessFacts {
    const own = item.id ? (this.#grants.spaces.get(item.id) ?? []) : [];
    return {
      organizationId: item.organizationId,
      ...(item.id ? { space: item.id } : {}),
      defaultLevel: item.defaultLevel ?? null,
      ancestors: this.levelsFrom(item.parentId),
      grants: [own, ...this.grantsFrom(item.parentId)],
    };
  }

  /** The access facts of a collection of this organization (no query). */
  collectionFacts(organizationId: string, id: string): ContentAccessFacts {
    const [own = null, ...ancestors] = this.levelsFrom(id);
    return { organizationId, defaultLevel: own, ancestors, grants: this.grantsFrom(id) };
  }

  /** Every collection below `id` (not `id` itself). */
  descendants(id: string): string[] {
    const out: string[] = [];
    const stack = [...(this.#children.get(id) ?? [])];
    const seen = new Set<string>([id]);
    while (stack.length) {
      const cur = stack.pop()!;
      if (seen.has(cur)) continue;
      seen.add(cur);
      out.push(cur);
      stack.push(...(this.#children.get(cur) ?? []));
    }
    return out;
  }
}
