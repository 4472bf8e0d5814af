import type { DefaultLevel } from '@quire/contracts';
import type { ContentAccessFacts } from '../access/access.policy.ts';

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

  constructor(nodes: Iterable<CollectionNode>) {
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

  /** The access facts of a space or collection of this organization, from the tree (no query). */
  factsOf(item: { organizationId: string; defaultLevel?: DefaultLevel | undefined; parentId?: string | null | undefined }): ContentAccessFacts {
    return { organizationId: item.organizationId, defaultLevel: item.defaultLevel ?? null, ancestors: this.levelsFrom(item.parentId) };
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
