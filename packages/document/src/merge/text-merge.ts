import { merge } from 'node-diff3';

/** Titles of the two sides of a conflict block (`main`, `change request #3`), `ours` first. */
export interface MergeLabels {
  ours: string;
  theirs: string;
}

export interface TextMerge {
  /** The merged markdown; with a conflict, each conflicting region holds both sides between conflict markers. */
  text: string;
  conflict: boolean;
}

/**
 * Three-way line merge of markdown (diff3, from node-diff3), the step `mergeBlocks` takes inside a region of
 * blocks both sides changed: only a clean result is kept; with a conflict, `mergeBlocks` writes a conflict
 * block of whole blocks instead, so the markers below never reach a page. Regions changed on one side take that
 * side; regions changed identically on both merge silently; regions changed differently on both keep both texts:
 *
 *     <<<<<<< {labels.ours}
 *     ours' lines
 *     =======
 *     theirs' lines
 *     >>>>>>> {labels.theirs}
 *
 * Like diff3, changes to adjacent lines are one region: edits in different paragraphs merge, edits to
 * neighbouring lines conflict. Pass `''` as the base for a two-way merge (a document added on both sides).
 */
export function mergeText(base: string, ours: string, theirs: string, labels: MergeLabels): TextMerge {
  if (ours === theirs || base === theirs) return { text: ours, conflict: false };
  if (base === ours) return { text: theirs, conflict: false };
  const result = merge(ours.split('\n'), base.split('\n'), theirs.split('\n'), {
    excludeFalseConflicts: true,
    label: { a: labels.ours, b: labels.theirs },
  });
  return { text: result.result.join('\n'), conflict: result.conflict };
}
