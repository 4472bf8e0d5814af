// The rows of a page's comparison: the block diff (blocks.ts) with an edited block paired with its earlier version,
// so that the review marks it "changed" rather than "removed" and "added", and draws both versions side by side.
import type { Node } from '../../render/node.ts';
import type { BlockDiff } from './blocks.ts';

/**
 * A row of the comparison: the block before (at the merge base) and after (in the change request), either missing
 * for a block added or removed. `same` rows hold the same block twice; `changed` rows an edited block's two versions.
 */
export type Row =
  | { kind: 'same'; before: BlockDiff; after: BlockDiff }
  | { kind: 'changed'; before: BlockDiff; after: BlockDiff }
  | { kind: 'removed'; before: BlockDiff; after?: undefined }
  | { kind: 'added'; before?: undefined; after: BlockDiff };

/** The kind of a block for pairing: two versions of a block are of the same type (a paragraph edited stays one). */
const typeOf = (n: Node) => n.type ?? n.object ?? '';

/**
 * The rows of a block diff, in reading order. Between two unchanged blocks, the blocks removed and those added are
 * paired in order when they are of the same type (the first removed paragraph with the first added paragraph…):
 * each pair is a `changed` row, at the place of the added block; what is left unpaired stays removed or added. A
 * conflict block is never paired (it is what an update added, not an edit).
 */
export function rowsOf(diff: readonly BlockDiff[]): Row[] {
  const rows: Row[] = [];
  let run: BlockDiff[] = [];
  const flush = () => {
    const removed = run.filter((d) => d.kind === 'removed');
    const added = run.filter((d) => d.kind === 'added');
    const partner = new Map<BlockDiff, BlockDiff>();
    let from = 0;
    for (const a of added) {
      if (a.node.type === 'conflict') continue;
      const i = removed.findIndex((r, k) => k >= from && typeOf(r.node) === typeOf(a.node));
      if (i < 0) continue;
      partner.set(a, removed[i]!);
      partner.set(removed[i]!, a);
      from = i + 1;
    }
    for (const d of run) {
      const other = partner.get(d);
      if (d.kind === 'added')
        rows.push(other ? { kind: 'changed', before: other, after: d } : { kind: 'added', after: d });
      else if (!other) rows.push({ kind: 'removed', before: d });
    }
    run = [];
  };
  for (const d of diff) {
    if (d.kind !== 'same') {
      run.push(d);
      continue;
    }
    flush();
    rows.push({ kind: 'same', before: d, after: d });
  }
  flush();
  return rows;
}

/** How many blocks a comparison adds, changes and removes, in words ("1 block changed, 2 added."). */
export function summaryOf(rows: readonly Row[]): string {
  const count = (kind: Row['kind']) => rows.filter((r) => r.kind === kind).length;
  const parts = (
    [
      ['changed', count('changed')],
      ['added', count('added')],
      ['removed', count('removed')],
    ] as const
  ).filter(([, n]) => n > 0);
  if (!parts.length) return 'No block changed.';
  const [first, ...rest] = parts;
  const head = `${first![1]} block${first![1] === 1 ? '' : 's'} ${first![0]}`;
  return `${[head, ...rest.map(([w, n]) => `${n} ${w}`)].join(', ')}.`;
}
