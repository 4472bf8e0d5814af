// Block-level comparison of two versions of a page: the top-level blocks of GitBook's JSON document, matched by
// their content (node keys are left out: a page rebuilt from markdown gets new keys for unchanged blocks).
import type { Node } from '../../render/node.ts';

/**
 * A block of the comparison; `id` is unique in one comparison (its side and index there), `index` is its place on
 * its side (the change request's for `same` and `added`, the merge base's for `removed`).
 */
export type BlockDiff = { kind: 'same' | 'removed' | 'added'; node: Node; id: string; index: number };

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
  const removed = (k: number) => out.push({ kind: 'removed', node: before[k]!, id: `b${k}`, index: k });
  const added = (k: number) => out.push({ kind: 'added', node: after[k]!, id: `a${k}`, index: k });
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', node: after[j]!, id: `a${j}`, index: j });
      i++;
      j++;
    } else if (lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!) removed(i++);
    else added(j++);
  }
  while (i < n) removed(i++);
  while (j < m) added(j++);
  return out;
}

/** A string's 53-bit hash (cyrb53), in base 36: short, and equal for equal strings. */
function hash(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The ids a comment on a top-level block gives as its `node` (`POST …/comments` keeps it as given): the block's
 * key when it has one, else (stored pages are markdown, their JSON documents carry no keys) `b` + a hash of its
 * content and its rank among equal blocks. A block keeps its id while its content is unchanged, wherever it moves;
 * an edited block gets a new one (its comments then show as on a block changed since).
 */
export function nodeIdsOf(blocks: readonly Node[]): string[] {
  const seen = new Map<string, number>();
  return blocks.map((n) => {
    if (typeof n.key === 'string' && n.key) return n.key;
    const h = hash(signature(n));
    const rank = seen.get(h) ?? 0;
    seen.set(h, rank + 1);
    return `b${h}.${rank}`;
  });
}
