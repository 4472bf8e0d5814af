import { treeIndex, type PageRecord, type RevisionTree } from '../revisions/revision-tree.ts';

/** A page a PDF shows, with its depth in what is exported and the page above it there. */
export interface PdfSelectedPage {
  page: PageRecord;
  depth: number;
  parentId: string | null;
}

/**
 * The pages a PDF shows, in reading order (depth first, siblings in order): the whole content, or the page
 * `from` with its sub-pages, or `from` alone (`only`). Hidden pages (and what is below them) are left out,
 * except the page asked for by id.
 */
export function selectPdfPages(tree: RevisionTree, from?: PageRecord, only = false): PdfSelectedPage[] {
  const { children } = treeIndex(tree.pages);
  const out: PdfSelectedPage[] = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const page of children.get(parentId) ?? []) {
      if (page.hidden) continue;
      out.push({ page, depth, parentId });
      visit(page.id, depth + 1);
    }
  };
  if (!from) visit(null, 0);
  else {
    out.push({ page: from, depth: 0, parentId: null });
    if (!only) visit(from.id, 1);
  }
  return out;
}
