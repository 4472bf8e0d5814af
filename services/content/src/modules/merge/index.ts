/** The three-way merge of page trees (pure: no database, no I/O beyond the `loadMarkdown` it is given). */
export { mergeChangedPages, mergeTrees, type ChangedMergeResult, type ChangedScope } from './merge-trees.ts';
export { isWellFormed, markWellFormed } from './structure.ts';
export { diffTrees, limitChanges } from './diff-trees.ts';
export {
  ATTRIBUTE_FIELDS,
  MERGE_FIELDS,
  type AttributeField,
  type MergeConflict,
  type MergeField,
  type MergeInput,
  type MergeLabels,
  type MergeResult,
  type PageKind,
  type PageSnapshot,
  type TreeSnapshot,
} from './tree.ts';
