// Block-level comparison of two versions of a page: the top-level blocks of GitBook's JSON document, matched by
// their content (node keys are left out: a page rebuilt from markdown gets new keys for unchanged blocks).
import type { Node } from '../PageView.tsx';

/** A block of the comparison; `id` is unique in one comparison (its side and index there). */
export type BlockDiff = { kind: 'same' | 'removed' | 'added'; node: Node; id: string };

/** The content of a block, without its keys, as a string that is equal for equal blocks. */
export function signature(n: unknown): string {
  return JSON.stringify(n, (k, v) => (k === 'key' ? undefined : v));
}

/** Past this many blocks on both sides the comparison is not drawn block by block (LCS is quadratic). */
export const MAX_BLOCKS = 3000;

/**
 * The blocks of `after` against those of `before`, in reading order: kept blocks `same`, the others `removed`
 * (only before) or `added` (only after). A longest common subsequence of the block signatures, so an edited block
 * shows as its old version removed and its new version added, next to each other.
 */
export function diffBlocks(before: Node[], after: Node[]): BlockDiff[] {
  const a = before.map(signature);
  const b = after.map(signature);
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[at(i, j)] = a[i] === b[j] ? lcs[at(i + 1, j + 1)]! + 1 : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
  const out: BlockDiff[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', node: after[j]!, id: `a${j}` });
      i++;
      j++;
    } else if (lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!) out.push({ kind: 'removed', node: before[i]!, id: `b${i++}` });
    else out.push({ kind: 'added', node: after[j]!, id: `a${j++}` });
  }
  while (i < n) out.push({ kind: 'removed', node: before[i]!, id: `b${i++}` });
  while (j < m) out.push({ kind: 'added', node: after[j]!, id: `a${j++}` });
  return out;
}
