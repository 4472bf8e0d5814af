/**
 * The page tree of an imported site, from the URL paths of its pages: `/docs/a/b` goes under `/docs/a` when both
 * are imported; when an intermediate page is missing (`/docs/a` was not imported, or is not a page), it goes
 * under its nearest imported ancestor (`/docs`), else at the top level. Pages keep the order they were found
 * in (the start page first, then breadth first in link order), so siblings read like the site's navigation.
 */

export interface TreeInput {
  key: string;
  /** The page's path below the site's folder (see `SiteScope.segments`). */
  segments: readonly string[];
}

export interface TreeNode {
  key: string;
  /** Key of the parent page; null at the top level. */
  parent: string | null;
  depth: number;
}

/**
 * Parents for `pages` (in the order found), listed parents first (the order a batch of inserts needs).
 * A page whose path is the folder itself (no segments) stays at the top level, as every other top-level page:
 * the start page of `/docs/` is a page of the site, not a container of all the others.
 */
export function buildPageTree(pages: readonly TreeInput[]): TreeNode[] {
  const byPath = new Map<string, string>();
  for (const page of pages) {
    const path = page.segments.join('/');
    if (!byPath.has(path)) byPath.set(path, page.key);
  }
  const parentOf = (page: TreeInput): string | null => {
    for (let n = page.segments.length - 1; n >= 1; n--) {
      const ancestor = byPath.get(page.segments.slice(0, n).join('/'));
      if (ancestor !== undefined && ancestor !== page.key) return ancestor;
    }
    return null;
  };
  const nodes = new Map<string, TreeNode>();
  const parents = new Map(pages.map((p) => [p.key, parentOf(p)]));
  const depthOf = (key: string): number => {
    const parent = parents.get(key);
    return parent == null ? 0 : depthOf(parent) + 1;
  };
  for (const page of pages)
    nodes.set(page.key, { key: page.key, parent: parents.get(page.key) ?? null, depth: depthOf(page.key) });
  // Parents before children, keeping the order found among pages of the same depth.
  return [...nodes.values()].sort((a, b) => a.depth - b.depth);
}
