import type { PhrasingContent } from 'mdast';
import {
  DOCUMENT_MARK_TYPES,
  type DocumentInlineImage,
  type DocumentInlineLink,
  type DocumentMarkType,
  type DocumentText,
  type DocumentTextLeaf,
} from '@quire/contracts';

/**
 * Text with marks, both ways. Inside the converter a leaf is a `Run`: its characters and its marks as a bit
 * set. The canonical form of a sequence of runs, whichever side it comes from:
 * - empty runs are dropped and neighbours with the same marks are merged;
 * - bold, italic and strikethrough never start or end on whitespace (outside inline code): markdown cannot
 *   open or close emphasis next to a space, so `**a **b` is no bold at all; a space at the edge of a
 *   formatted run loses the format (invisible, except for a struck-through space);
 * - a leaf lists its marks in the order bold, italic, strikethrough, code.
 */

/** A caption (a markdown image title) is one line of plain text. */
export const captionText = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export const BOLD = 1;
export const ITALIC = 2;
export const STRIKETHROUGH = 4;
export const CODE = 8;
const BIT: Record<DocumentMarkType, number> = { bold: BOLD, italic: ITALIC, strikethrough: STRIKETHROUGH, code: CODE };
const FORMATS = [BOLD, ITALIC, STRIKETHROUGH] as const;

export interface Run {
  text: string;
  marks: number;
}

export function runsOfLeaves(leaves: DocumentTextLeaf[]): Run[] {
  return leaves.map((leaf) => ({ text: leaf.text, marks: leaf.marks.reduce((bits, mark) => bits | BIT[mark.type], 0) }));
}

function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (run.text === '') continue;
    const last = out.at(-1);
    if (last && last.marks === run.marks) last.text += run.text;
    else out.push({ ...run });
  }
  return out;
}

const WHITESPACE = /\s/u;

function unmarkEdgeWhitespace(runs: Run[]): Run[] {
  if (!runs.some((run) => run.marks & (BOLD | ITALIC | STRIKETHROUGH))) return runs;
  const chars: string[] = [];
  const marks: number[] = [];
  for (const run of runs) {
    for (const char of run.text) {
      chars.push(char);
      marks.push(run.marks);
    }
  }
  const loose = (i: number) => WHITESPACE.test(chars[i] ?? '') && !((marks[i] ?? 0) & CODE);
  for (const bit of FORMATS) {
    let i = 0;
    while (i < chars.length) {
      if (!((marks[i] ?? 0) & bit)) {
        i++;
        continue;
      }
      let end = i;
      while (end < chars.length && (marks[end] ?? 0) & bit) end++;
      let a = i;
      for (; a < end && loose(a); a++) marks[a] = (marks[a] ?? 0) & ~bit;
      for (let b = end - 1; b >= a && loose(b); b--) marks[b] = (marks[b] ?? 0) & ~bit;
      i = end;
    }
  }
  return merge(chars.map((text, i) => ({ text, marks: marks[i] ?? 0 })));
}

export function normalizeRuns(runs: Run[]): Run[] {
  return unmarkEdgeWhitespace(merge(runs));
}

export function leafOf(run: Run): DocumentTextLeaf {
  return {
    object: 'leaf',
    text: run.text,
    marks: DOCUMENT_MARK_TYPES.filter((type) => run.marks & BIT[type]).map((type) => ({ object: 'mark', type })),
  };
}

export function textNode(runs: Run[]): DocumentText {
  const leaves = normalizeRuns(runs).map(leafOf);
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [{ object: 'leaf', text: '', marks: [] }] };
}

/** A run of text, or an inline node, in the order they appear. */
export type Piece<I> = Run | I;
const isRun = <I>(piece: Piece<I>): piece is Run => typeof piece === 'object' && piece !== null && 'marks' in piece && 'text' in piece;

/**
 * Texts and inlines the way GitBook (Slate) normalises them: consecutive runs become one text node, and every
 * inline sits between two text nodes, empty ones where nothing else is (`[text, link, text]`).
 */
export function phrasingNodes<I extends DocumentInlineLink | DocumentInlineImage>(pieces: Piece<I>[]): (DocumentText | I)[] {
  const out: (DocumentText | I)[] = [];
  let runs: Run[] = [];
  for (const piece of pieces) {
    if (isRun(piece)) {
      runs.push(piece);
      continue;
    }
    out.push(textNode(runs), piece);
    runs = [];
  }
  out.push(textNode(runs));
  return out;
}

const MDAST_OF: Record<number, 'strong' | 'emphasis' | 'delete'> = { [BOLD]: 'strong', [ITALIC]: 'emphasis', [STRIKETHROUGH]: 'delete' };

/**
 * Runs (already normalised) as mdast phrasing: each format wraps the longest stretch of runs that share it,
 * so `**bold *and italic***` stays one strong node around an emphasis. Code is innermost (`inlineCode`).
 * A `\n` is a hard break — or, in table cells where markdown has no hard break, a `<br>`.
 */
export function runsToMdast(runs: Run[], lineBreak: 'break' | 'br'): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < runs.length) {
    const run = runs[i];
    if (!run) break;
    let best = 0;
    let bestEnd = i + 1;
    for (const bit of FORMATS) {
      if (!(run.marks & bit)) continue;
      let end = i;
      while (end < runs.length && (runs[end]?.marks ?? 0) & bit) end++;
      if (best === 0 || end > bestEnd) {
        best = bit;
        bestEnd = end;
      }
    }
    if (best === 0) {
      out.push(...runContent(run, lineBreak));
      i++;
      continue;
    }
    const inner = runs.slice(i, bestEnd).map((r) => ({ text: r.text, marks: r.marks & ~best }));
    const type = MDAST_OF[best];
    if (type) out.push({ type, children: runsToMdast(inner, lineBreak) });
    i = bestEnd;
  }
  return out;
}

function runContent(run: Run, lineBreak: 'break' | 'br'): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  run.text.split('\n').forEach((line, index) => {
    if (index > 0) out.push(lineBreak === 'break' ? { type: 'break' } : { type: 'html', value: '<br>' });
    if (line === '') return;
    out.push(run.marks & CODE ? { type: 'inlineCode', value: line } : { type: 'text', value: line });
  });
  return out;
}
