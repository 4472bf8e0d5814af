import type { DocumentBlockTopLevel, JSONDocument } from '@quire/contracts/document';
import { diff3Merge } from 'node-diff3';
import { conflictMarkdown } from '../conflicts.ts';
import { documentToMarkdown } from '../markdown/document-to-markdown.ts';
import { markdownToDocument } from '../markdown/markdown-to-document.ts';
import { mergeText } from './text-merge.ts';
import type { MergeLabels } from './text-merge.ts';

type Block = DocumentBlockTopLevel;

/** The largest region (characters of markdown on each side) merged line by line. */
const MAX_LINE_MERGE = 20_000;

/** The merge of two sides of one page's markdown. */
export interface BlockMerge {
  /** The merged markdown: conflicting regions are conflict blocks holding each side's blocks whole. */
  text: string;
  /** How many conflict blocks the merge wrote. */
  conflicts: number;
}

/**
 * One side of a page: its top-level blocks and a key for each, what the diff compares (the block's JSON: the
 * parser gives equal blocks equal JSON, and the JSON is much cheaper to get than each block's markdown).
 */
interface Side {
  nodes: Block[];
  keys: string[];
}

type Segment = { kind: 'blocks'; nodes: Block[] } | { kind: 'conflict'; ours: Block[]; theirs: Block[] };

const render = (nodes: readonly Block[]): string =>
  nodes.length ? documentToMarkdown({ object: 'document', data: {}, nodes: [...nodes] } as JSONDocument) : '';

function sideOf(markdown: string): Side {
  const nodes = markdownToDocument(markdown).nodes as Block[];
  return { nodes, keys: nodes.map((n) => JSON.stringify(n)) };
}

/**
 * Three-way merge of a page's markdown, block by block: the markdown of each side is read as a document and its
 * top-level blocks (a paragraph, a whole table, a whole code block, a whole hint…) are the units diff3 compares
 * (node-diff3; lines are compared only inside a region both sides changed, as diff3 over the lines of a whole
 * page with its many blank lines is slow). A region changed on one side takes that side's blocks. A region
 * changed on both sides is first merged line by line (two edits to different rows of one table, or to different
 * lines of one code block, merge); when the lines conflict too, the region becomes a conflict block holding the whole blocks of each side, `ours`
 * first, so that each side is well-formed markdown and no block is cut in half. Nothing of either side is dropped.
 *
 * Pass `''` as the base for a two-way merge (a page added on both sides).
 */
export function mergeBlocks(base: string, ours: string, theirs: string, labels: MergeLabels): BlockMerge {
  if (ours === theirs || base === theirs) return { text: ours, conflicts: 0 };
  if (base === ours) return { text: theirs, conflicts: 0 };
  const [b, o, t] = [sideOf(base), sideOf(ours), sideOf(theirs)];
  const byKey = new Map<string, Block>();
  for (const side of [b, o, t]) side.keys.forEach((key, i) => byKey.has(key) || byKey.set(key, side.nodes[i]!));

  const segments: Segment[] = [];
  const keep = (nodes: Block[]) => {
    const last = segments.at(-1);
    if (last?.kind === 'blocks') last.nodes.push(...nodes);
    else if (nodes.length) segments.push({ kind: 'blocks', nodes: [...nodes] });
  };
  for (const region of diff3Merge(o.keys, b.keys, t.keys, { excludeFalseConflicts: true }) as Region[]) {
    if ('ok' in region) {
      keep(region.ok.map((key) => byKey.get(key)!));
      continue;
    }
    const { a, aIndex, o: baseKeys, oIndex, b: theirKeys, bIndex } = region.conflict;
    const sides: RegionSides = {
      base: b.nodes.slice(oIndex, oIndex + baseKeys.length),
      ours: o.nodes.slice(aIndex, aIndex + a.length),
      theirs: t.nodes.slice(bIndex, bIndex + theirKeys.length),
      keys: { base: baseKeys, ours: a, theirs: theirKeys },
    };
    mergeRegion(sides, labels, keep, ({ ours, theirs }) =>
      segments.push({
        kind: 'conflict',
        ours: sideBlocks(ours, labels.ours),
        theirs: sideBlocks(theirs, labels.theirs),
      }),
    );
  }
  return assemble(segments, labels);
}

/**
 * The blocks of one side of a new conflict, without the conflict blocks an earlier update left there unresolved:
 * of those, this side's own side is kept (the other side's old version is superseded by the new conflict), so
 * conflicts do not nest. A conflict block with no side of this title is kept whole.
 */
function sideBlocks(nodes: Block[], title: string): Block[] {
  return nodes.flatMap((node) => {
    if (node.type !== 'conflict') return [node];
    const own = (node.nodes as { data: { title: string }; nodes: Block[] }[]).filter(
      (side) => side.data.title === title,
    );
    return own.length ? own.flatMap((side) => side.nodes) : [node];
  });
}

interface RegionSides {
  base: Block[];
  ours: Block[];
  theirs: Block[];
  keys: { base: string[]; ours: string[]; theirs: string[] };
}

/**
 * A region both sides changed (`keys`: the blocks' keys): merged line by line as a whole; when that conflicts and the three sides have as
 * many blocks, block by block (a block only one side changed takes that side, one both changed merges by line),
 * so that only the blocks that really conflict end up in a conflict block; else the whole region conflicts.
 */
function mergeRegion(
  sides: RegionSides,
  labels: MergeLabels,
  keep: (nodes: Block[]) => void,
  conflict: (c: { ours: Block[]; theirs: Block[] }) => void,
): void {
  const texts = [render(sides.base), render(sides.ours), render(sides.theirs)] as const;
  // Lines are merged in a region of reasonable size only: diff3 over thousands of lines is slow.
  if (texts.every((text) => text.length <= MAX_LINE_MERGE)) {
    const lines = mergeText(...texts, labels);
    if (!lines.conflict) return keep(markdownToDocument(lines.text).nodes as Block[]);
  }
  const n = sides.base.length;
  if (n < 2 || sides.ours.length !== n || sides.theirs.length !== n)
    return conflict({ ours: sides.ours, theirs: sides.theirs });
  let pending: { ours: Block[]; theirs: Block[] } | undefined;
  for (let i = 0; i < n; i++) {
    const [b, o, t] = [sides.keys.base[i]!, sides.keys.ours[i]!, sides.keys.theirs[i]!];
    const one = o === t || b === t ? [sides.ours[i]!] : b === o ? [sides.theirs[i]!] : undefined;
    const merged = one ?? lineMerged([sides.base[i]!, sides.ours[i]!, sides.theirs[i]!], labels);
    if (merged) {
      if (pending) conflict(pending);
      pending = undefined;
      keep(merged);
    } else {
      pending ??= { ours: [], theirs: [] };
      pending.ours.push(sides.ours[i]!);
      pending.theirs.push(sides.theirs[i]!);
    }
  }
  if (pending) conflict(pending);
}

/** The blocks of a clean line merge of one block changed on both sides; undefined when the lines conflict. */
function lineMerged([base, ours, theirs]: [Block, Block, Block], labels: MergeLabels): Block[] | undefined {
  const lines = mergeText(render([base]), render([ours]), render([theirs]), labels);
  return lines.conflict ? undefined : (markdownToDocument(lines.text).nodes as Block[]);
}

/** A region of node-diff3's `diff3Merge`: stable, or changed differently on both sides (a, o, b: ours, base, theirs) */
type Region =
  | { ok: string[] }
  | { conflict: { a: string[]; aIndex: number; o: string[]; oIndex: number; b: string[]; bIndex: number } };

/** The merged markdown: runs of blocks rendered together (neighbouring lists stay apart), conflict blocks between. */
function assemble(segments: Segment[], labels: MergeLabels): BlockMerge {
  const parts: string[] = [];
  let conflicts = 0;
  for (const segment of segments) {
    if (segment.kind === 'blocks') parts.push(render(segment.nodes));
    else {
      conflicts++;
      parts.push(
        conflictMarkdown([
          { title: labels.ours, markdown: render(segment.ours) },
          { title: labels.theirs, markdown: render(segment.theirs) },
        ]),
      );
    }
  }
  const text = parts
    .map((p) => p.replace(/\n+$/, ''))
    .filter((p) => p !== '')
    .join('\n\n');
  return { text: text ? `${text}\n` : '', conflicts };
}
