// The words an edited block changed: its two versions' drawn texts compared word by word (a longest common
// subsequence of words, spaces and signs), and the words of each version that the other does not have marked in
// the drawn block (`<mark class="cr-words">`), the earlier version's removed ones, the new version's added ones.

/** A text's words, runs of spaces and other signs, one by one. */
const tokensOf = (s: string) => s.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];

/** Past this many tokens on both sides, the words are not compared (quadratic). */
const MAX_TOKENS = 4000;

/**
 * The character ranges (`[start, end)`) of `mine` holding tokens that `other` does not have at that place, next ones
 * joined (a space between two changed words is changed too); none when the texts share no word (all changed: the
 * block's own mark says it) or are too long to compare.
 */
export function changedRanges(mine: string, other: string): [number, number][] {
  const a = tokensOf(mine);
  const b = tokensOf(other);
  if (a.length + b.length > MAX_TOKENS) return [];
  const n = a.length;
  const m = b.length;
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[at(i, j)] = a[i] === b[j] ? lcs[at(i + 1, j + 1)]! + 1 : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
  const kept = new Array<boolean>(n).fill(false);
  let sharesWord = false;
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      kept[i] = true;
      if (/\S/.test(a[i]!)) sharesWord = true;
      i++;
      j++;
    } else if (lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!) i++;
    else j++;
  }
  if (!sharesWord) return [];
  const ranges: [number, number][] = [];
  let pos = 0;
  a.forEach((token, i) => {
    const end = pos + token.length;
    const space = !/\S/.test(token);
    const last = ranges[ranges.length - 1];
    if (!kept[i] && !space) {
      if (last && /^\s*$/.test(mine.slice(last[1], pos))) last[1] = end;
      else ranges.push([pos, end]);
    }
    pos = end;
  });
  return ranges;
}

/** Wraps the given character ranges of an element's text (its text nodes, in order) in `<mark class="cr-words">`. */
export function markRanges(root: Element, ranges: readonly [number, number][]): void {
  if (!ranges.length) return;
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: { node: Text; start: number }[] = [];
  let pos = 0;
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    texts.push({ node: t as Text, start: pos });
    pos += (t as Text).data.length;
  }
  for (const { node, start } of texts) {
    const end = start + node.data.length;
    // the ranges over this text node, from its end (splitting from the end keeps the earlier offsets)
    const over = ranges.filter(([s, e]) => s < end && e > start).reverse();
    for (const [s, e] of over) {
      const from = Math.max(s, start) - start;
      const to = Math.min(e, end) - start;
      if (!node.data.slice(from, to).trim()) continue;
      const tail = node.splitText(from);
      tail.splitText(to - from);
      const mark = root.ownerDocument.createElement('mark');
      mark.className = 'cr-words';
      tail.replaceWith(mark);
      mark.append(tail);
    }
  }
}
