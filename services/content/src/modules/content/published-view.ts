import { childrenIndex, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';

const published = new WeakMap<RevisionTree, RevisionTree>();

/**
 * The tree as a published site shows it: a hidden page (`hidden: true`) is gone with its sub-pages, from the page
 * lists and trees, paths and lookups by id or path (404). Computed once per tree (trees are immutable and cached).
 */
export function withoutHiddenPages(tree: RevisionTree): RevisionTree {
  const known = published.get(tree);
  if (known) return known;
  let anyHidden = false;
  for (const p of tree.pages.values()) if (p.hidden) anyHidden = true;
  if (!anyHidden) {
    published.set(tree, tree);
    return tree;
  }
  const children = childrenIndex(tree.pages);
  const pages = new Map<string, PageRecord>();
  const walk = (parent: string | null, depth: number) => {
    for (const p of children.get(parent) ?? []) {
      if (p.hidden || depth > 64) continue;
      pages.set(p.id, p);
      walk(p.id, depth + 1);
    }
  };
  walk(null, 0);
  const view: RevisionTree = {
    revision: tree.revision,
    pages,
    files: tree.files,
    ...(tree.reusableContents && { reusableContents: tree.reusableContents }),
  };
  published.set(tree, view);
  return view;
}
