import type { MergeLabels } from '@quire/document/model';

/**
 * The data model of a revision's page tree as the merge sees it. A revision is immutable; its tree is a flat map
 * of pages by id, the shape given by `parentId` + `order`. Documents are content-addressed: `documentHash` names
 * the markdown, and `loadMarkdown` turns a hash back into text.
 */

export type PageKind = 'document' | 'group' | 'link';

/** One page of a revision's tree, flat (the tree is given by parentId + order). */
export interface PageSnapshot {
  id: string;
  /** null: top level. */
  parentId: string | null;
  /** A sortable key among siblings (fractional index string, compared with `<` on strings). */
  order: string;
  kind: PageKind;
  title: string;
  slug: string;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  layout: Record<string, unknown> | null;
  cover: Record<string, unknown> | null;
  /** Link pages. */
  href: string | null;
  /** Content-addressed markdown of document pages (null for groups/links or an empty doc). */
  documentHash: string | null;
}

export type TreeSnapshot = ReadonlyMap<string, PageSnapshot>;

export type { MergeLabels };

export interface MergeInput {
  /** The merge base. */
  base: TreeSnapshot;
  /** The target being merged into (main for a merge; the change request for an update). */
  ours: TreeSnapshot;
  /** The incoming side. */
  theirs: TreeSnapshot;
  /** Markdown of a document hash (documents are content-addressed). */
  loadMarkdown(hash: string): Promise<string>;
  /** Titles of the sides of conflict blocks; `ours` / `theirs` when omitted. */
  labels?: MergeLabels | undefined;
  /**
   * Also write page-level conflicts (a deletion against an edit, an attribute changed differently on both sides)
   * into the pages' documents as conflict blocks (an update does; a merge, which writes nothing on conflict, not).
   */
  conflictBlocks?: boolean | undefined;
}

/**
 * A field a conflict names: a page attribute, `document` for its markdown, or `deleted` when the page was
 * deleted on one side and edited on the other (it is kept, with the edit).
 */
export type MergeField = AttributeField | 'document' | 'deleted';

export interface MergeConflict {
  pageId: string;
  /** The fields in conflict, in `MERGE_FIELDS` order. */
  fields: MergeField[];
}

export interface MergeResult {
  /** The merged tree. */
  tree: Map<string, PageSnapshot>;
  /** New documents the result references (hash → markdown), e.g. merged text or text with conflict blocks. */
  documents: Map<string, string>;
  /** Pages whose merge had a conflict (kept with both sides), by page id. */
  conflicts: MergeConflict[];
}

/** The attributes merged three-way one by one (the document is merged as text apart). */
export const ATTRIBUTE_FIELDS = [
  'kind',
  'parentId',
  'order',
  'title',
  'slug',
  'emoji',
  'icon',
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'layout',
  'cover',
  'href',
] as const satisfies readonly (keyof PageSnapshot)[];
export type AttributeField = (typeof ATTRIBUTE_FIELDS)[number];

/** Every field a conflict can name, in the order conflicts list them. */
export const MERGE_FIELDS: readonly MergeField[] = ['deleted', ...ATTRIBUTE_FIELDS, 'document'];

/** Strict string order (code units), the order of `order` keys and of ids in every tie-break. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Deep equality of JSON-like values (`layout`, `cover`; scalars by `===`). Keys set to `undefined` count as absent. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const k in x) {
    if (x[k] === undefined) continue;
    keys++;
    if (!Object.hasOwn(y, k) || !sameValue(x[k], y[k])) return false;
  }
  for (const k in y) if (y[k] !== undefined) keys--;
  return keys === 0;
}

/** The fields of a page compared with `===` (every one but `layout` and `cover`, JSON), the likeliest to change first. */
export const SCALAR_FIELDS = [
  'documentHash',
  ...ATTRIBUTE_FIELDS.filter((f) => f !== 'layout' && f !== 'cover'),
] as const satisfies readonly (keyof PageSnapshot)[];

/** Whether two snapshots of one page differ in any attribute or in their document (the hot path of a merge). */
export function pageChanged(before: PageSnapshot, after: PageSnapshot): boolean {
  if (before === after) return false;
  for (const f of SCALAR_FIELDS) if (before[f] !== after[f]) return true;
  return !sameValue(before.layout, after.layout) || !sameValue(before.cover, after.cover);
}

/** A top-level document page with no title, decoration or flags but what `fields` sets (at `order`). */
export function pageSnapshot(id: string, order: string, fields: Partial<PageSnapshot> = {}): PageSnapshot {
  return {
    id,
    parentId: null,
    order,
    kind: 'document',
    title: '',
    slug: '',
    emoji: null,
    icon: null,
    description: null,
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    layout: null,
    cover: null,
    href: null,
    documentHash: null,
    ...fields,
  };
}

/** The children of every parent (`null`: the top level), each list sorted by `(order, id)`. */
export function childrenOf(tree: TreeSnapshot): Map<string | null, PageSnapshot[]> {
  const children = new Map<string | null, PageSnapshot[]>();
  for (const page of tree.values()) {
    const list = children.get(page.parentId);
    if (list) list.push(page);
    else children.set(page.parentId, [page]);
  }
  for (const list of children.values()) list.sort(bySiblingOrder);
  return children;
}

export const bySiblingOrder = (a: PageSnapshot, b: PageSnapshot): number =>
  compareStrings(a.order, b.order) || compareStrings(a.id, b.id);

/** The pages of a tree in reading order (depth first, siblings by `(order, id)`); pages outside the tree (a parent that does not exist, a cycle) follow, by id. */
export function inTreeOrder(tree: TreeSnapshot): PageSnapshot[] {
  return readingOrder(childrenOf(tree), tree);
}

/** `inTreeOrder` from the children lists, each already sorted. */
export function readingOrder(
  children: ReadonlyMap<string | null, readonly PageSnapshot[]>,
  tree: TreeSnapshot,
): PageSnapshot[] {
  const out: PageSnapshot[] = [];
  const seen = new Set<string>();
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length) {
    const page = stack.pop()!;
    if (seen.has(page.id)) continue;
    seen.add(page.id);
    out.push(page);
    const kids = children.get(page.id);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  if (out.length < tree.size)
    out.push(...[...tree.values()].filter((p) => !seen.has(p.id)).sort((a, b) => compareStrings(a.id, b.id)));
  return out;
}

/** A page's path: the slugs of its ancestors and its own, joined by `/` (memoized per tree by the caller's cache). */
export function pathOf(tree: TreeSnapshot, id: string, cache: Map<string, string> = new Map()): string | undefined {
  const chain: PageSnapshot[] = [];
  const onChain = new Set<string>();
  let prefix = '';
  for (let cur = tree.get(id); cur; cur = cur.parentId === null ? undefined : tree.get(cur.parentId)) {
    const known = cache.get(cur.id);
    if (known !== undefined) {
      prefix = known;
      break;
    }
    if (onChain.has(cur.id)) break; // a cycle in a broken tree: stop rather than loop
    onChain.add(cur.id);
    chain.push(cur);
  }
  if (!chain.length && !prefix) return undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const page = chain[i]!;
    prefix = prefix && page.slug ? `${prefix}/${page.slug}` : prefix || page.slug;
    cache.set(page.id, prefix);
  }
  return cache.get(id);
}
