import { bySiblingOrder, SCALAR_FIELDS, type PageSnapshot } from '../merge/tree.ts';
import type { IRevision } from '../spaces/space.entity.ts';

/** A page of a revision as stored: the merge's snapshot and when it was created and last changed. */
export interface PageRecord extends PageSnapshot {
  createdAt: Date;
  updatedAt: Date;
}

/** Whether a page record (none: no) holds the same page as another: every field but the dates. */
export function samePage(a: PageRecord | undefined, b: PageRecord): boolean {
  if (!a) return false;
  for (const f of SCALAR_FIELDS) if (a[f] !== b[f]) return false;
  return JSON.stringify(a.layout) === JSON.stringify(b.layout) && JSON.stringify(a.cover) === JSON.stringify(b.cover);
}

/** A file of a revision: its bytes are a blob (content-addressed by `blobKey`). */
export interface FileRecord {
  id: string;
  name: string;
  contentType: string;
  size: number;
  blobKey: string;
  width: number | null;
  height: number | null;
  createdAt: Date;
}

/** A reusable content of a revision: a titled document that pages include (`{% include "<id>" %}`). */
export interface ReusableContentRecord {
  id: string;
  title: string;
  /** Its document's content hash (null: empty). */
  documentHash: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whether a reusable content record (none: no) holds the same content as another: every field but the dates. */
export const sameReusableContent = (a: ReusableContentRecord | undefined, b: ReusableContentRecord): boolean =>
  !!a && a.title === b.title && a.documentHash === b.documentHash;

const NO_REUSABLE_CONTENTS: ReadonlyMap<string, ReusableContentRecord> = new Map();

/** The reusable contents of a tree (none when the tree was built without them). */
export const reusableContentsOf = (tree: Pick<RevisionTree, 'reusableContents'>) =>
  tree.reusableContents ?? NO_REUSABLE_CONTENTS;

/** How a revision is stored: the rows of its lineage's snapshot, and of the deltas written after it (its own included). */
export interface StoredRows {
  snapshot: number;
  deltas: number;
}

/** The ids of the pages and files that may differ between two trees (every other one is the same in both). */
export interface ChangedIds {
  pages: ReadonlySet<string>;
  files: ReadonlySet<string>;
}

/** A revision with its whole tree in memory (revisions are immutable, so trees are cached by revision id). */
export interface RevisionTree {
  revision: IRevision;
  pages: ReadonlyMap<string, PageRecord>;
  files: ReadonlyMap<string, FileRecord>;
  /** Its reusable contents, by id (absent: none). */
  reusableContents?: ReadonlyMap<string, ReusableContentRecord>;
  /** The rows its lineage is made of (when known: read from the database, or just written), for the snapshot cadence. */
  stored?: StoredRows;
}

/** The children of every page (and of the top level, key `null`), in tree order: `order`, then id. */
export function childrenByParent(pages: ReadonlyMap<string, PageRecord>): Map<string | null, PageRecord[]> {
  const out = new Map<string | null, PageRecord[]>();
  for (const page of pages.values()) {
    const parent = page.parentId !== null && pages.has(page.parentId) ? page.parentId : null;
    const list = out.get(parent);
    if (list) list.push(page);
    else out.set(parent, [page]);
  }
  for (const list of out.values()) list.sort(bySiblingOrder);
  return out;
}

const childIndexes = new WeakMap<ReadonlyMap<string, PageRecord>, ReadonlyMap<string | null, readonly PageRecord[]>>();

/** `childrenByParent` of an (immutable) tree, computed once per tree; never mutate what it returns. */
export function childrenIndex(
  pages: ReadonlyMap<string, PageRecord>,
): ReadonlyMap<string | null, readonly PageRecord[]> {
  let children = childIndexes.get(pages);
  if (!children) childIndexes.set(pages, (children = childrenByParent(pages)));
  return children;
}

/**
 * Records the children lists of a tree a command just built from another one (what `childrenByParent(pages)` would
 * compute, kept up to date change by change), so the next edit of it does not sort the whole tree again.
 */
export function rememberChildren(
  pages: ReadonlyMap<string, PageRecord>,
  children: ReadonlyMap<string | null, readonly PageRecord[]>,
): void {
  childIndexes.set(pages, children);
}

/**
 * The children lists of a tree being edited: shared with the tree it started from until a list changes (then that list
 * is copied), each kept in sibling order, so an edit costs what it changes and not the size of the tree. A page's
 * parent is its `parentId` when that page is in the tree, the top level otherwise (as `childrenByParent`).
 */
export class SiblingLists {
  readonly #base: ReadonlyMap<string | null, readonly PageRecord[]>;
  readonly #own = new Map<string | null, PageRecord[]>();
  readonly #pages: ReadonlyMap<string, PageRecord>;

  /** `base`: the children lists `pages` has now (`childrenByParent(pages)`, or the cached ones of the tree it copies). */
  constructor(pages: ReadonlyMap<string, PageRecord>, base: ReadonlyMap<string | null, readonly PageRecord[]>) {
    this.#pages = pages;
    this.#base = base;
  }

  /** The parent a page is listed under. */
  parentOf(page: PageRecord): string | null {
    return page.parentId !== null && this.#pages.has(page.parentId) ? page.parentId : null;
  }

  /** The children of a parent (`null`: the top level), in order. */
  of(parentId: string | null): readonly PageRecord[] {
    return this.#own.get(parentId) ?? this.#base.get(parentId) ?? [];
  }

  /** The parents whose children changed. */
  changedParents(): Iterable<string | null> {
    return this.#own.keys();
  }

  #mutable(parentId: string | null): PageRecord[] {
    let list = this.#own.get(parentId);
    if (!list) this.#own.set(parentId, (list = [...(this.#base.get(parentId) ?? [])]));
    return list;
  }

  /** Where `page` goes in `list` (the first entry after it in sibling order). */
  static #at(list: readonly PageRecord[], page: PageRecord): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bySiblingOrder(list[mid]!, page) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Lists a page (call after it is in the tree, its parent too). */
  add(page: PageRecord): void {
    const list = this.#mutable(this.parentOf(page));
    list.splice(SiblingLists.#at(list, page), 0, page);
  }

  /** Unlists a page as it was listed (call while its parent is still in the tree). */
  remove(page: PageRecord): void {
    const list = this.#mutable(this.parentOf(page));
    let i = SiblingLists.#at(list, page);
    if (list[i]?.id !== page.id) i = list.findIndex((p) => p.id === page.id);
    if (i >= 0) list.splice(i, 1);
  }

  /** The children lists of the tree as it is now (lists that did not change shared with the base). */
  result(): Map<string | null, readonly PageRecord[]> {
    const out = new Map<string | null, readonly PageRecord[]>(this.#base);
    for (const [parentId, list] of this.#own) {
      if (list.length) out.set(parentId, list);
      else out.delete(parentId);
    }
    return out;
  }
}

/** The path of each page: its slug and its ancestors', joined by `/` (link pages have none). */
export function pagePaths(pages: ReadonlyMap<string, PageRecord>): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string, depth = 0): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const page = pages.get(id)!;
    const parent =
      page.parentId !== null && pages.has(page.parentId) && depth < 256 ? pathOf(page.parentId, depth + 1) : '';
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    paths.set(id, path);
    return path;
  };
  for (const id of pages.keys()) pathOf(id);
  return paths;
}

export interface TreeIndex {
  paths: Map<string, string>;
  children: ReadonlyMap<string | null, readonly PageRecord[]>;
  /** Page id by path (link pages have no path). */
  byPath: Map<string, string>;
}

const indexes = new WeakMap<ReadonlyMap<string, PageRecord>, TreeIndex>();

/** Paths, children and the path index of a tree, computed once per (immutable) tree. */
export function treeIndex(pages: ReadonlyMap<string, PageRecord>): TreeIndex {
  let index = indexes.get(pages);
  if (!index) {
    const paths = pagePaths(pages);
    const byPath = new Map<string, string>();
    for (const [id, path] of paths) if (pages.get(id)!.kind !== 'link' && !byPath.has(path)) byPath.set(path, id);
    index = { paths, children: childrenIndex(pages), byPath };
    indexes.set(pages, index);
  }
  return index;
}
