import type { PageSnapshot } from '../merge/tree.ts';
import type { IRevision } from '../spaces/space.entity.ts';

/** A page of a revision as stored: the merge's snapshot and when it was created and last changed. */
export interface PageRecord extends PageSnapshot {
  createdAt: Date;
  updatedAt: Date;
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

/** A revision with its whole tree in memory (revisions are immutable, so trees are cached by revision id). */
export interface RevisionTree {
  revision: IRevision;
  pages: ReadonlyMap<string, PageRecord>;
  files: ReadonlyMap<string, FileRecord>;
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
  for (const list of out.values()) list.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : 1));
  return out;
}

/** The path of each page: its slug and its ancestors', joined by `/` (link pages have none). */
export function pagePaths(pages: ReadonlyMap<string, PageRecord>): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string, depth = 0): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const page = pages.get(id)!;
    const parent = page.parentId !== null && pages.has(page.parentId) && depth < 256 ? pathOf(page.parentId, depth + 1) : '';
    const path = parent ? `${parent}/${page.slug}` : page.slug;
    paths.set(id, path);
    return path;
  };
  for (const id of pages.keys()) pathOf(id);
  return paths;
}

export interface TreeIndex {
  paths: Map<string, string>;
  children: Map<string | null, PageRecord[]>;
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
    index = { paths, children: childrenByParent(pages), byPath };
    indexes.set(pages, index);
  }
  return index;
}
