import type { PhrasingContent } from 'mdast';
import {
  DOCUMENT_MARK_TYPES,
  type DocumentInline,
  type DocumentMarkType,
  type DocumentText,
  type DocumentTextColor,
  type DocumentTextLeaf,
  type DocumentTextMark,
} from '@quire/contracts/document';

/**
 * Text with marks, both ways. Inside the converter a leaf is a `Run`: its characters and its marks as a bit
 * set. The canonical form of a sequence of runs, whichever side it comes from:
 * - empty runs are dropped and neighbours with the same marks are merged;
 * - bold, italic and strikethrough never start or end on whitespace (outside inline code): markdown cannot
 *   open or close emphasis next to a space, so `**a **b` is no bold at all; a space at the edge of a
 *   formatted run loses the format (invisible, except for a struck-through space);
 * - a leaf lists its marks in the order bold, italic, strikethrough, code, keyboard, superscript, subscript,
 *   color.
 * Keyboard, superscript, subscript and color are written as HTML (`<kbd>`, `<sup>`, `<sub>`,
 * `<mark style="color:red;background-color:blue;">`), which may open and close anywhere.
 */

/** A caption (a markdown image title) is one line of plain text. */
export const captionText = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export const BOLD = 1;
export const ITALIC = 2;
export const STRIKETHROUGH = 4;
export const CODE = 8;
export const KEYBOARD = 16;
export const SUPERSCRIPT = 32;
export const SUBSCRIPT = 64;
export const COLOR = 128;
const BIT: Record<DocumentMarkType, number> = {
  bold: BOLD,
  italic: ITALIC,
  strikethrough: STRIKETHROUGH,
  code: CODE,
  keyboard: KEYBOARD,
  superscript: SUPERSCRIPT,
  subscript: SUBSCRIPT,
};
const FORMATS = [BOLD, ITALIC, STRIKETHROUGH] as const;
/** Formats written as HTML elements, outermost first when they cover the same stretch. */
const HTML_FORMATS = [COLOR, KEYBOARD, SUPERSCRIPT, SUBSCRIPT] as const;

export interface Run {
  text: string;
  marks: number;
  /** With the COLOR mark: `text|background`. */
  color?: string | undefined;
}

export const colorKey = (text: DocumentTextColor, background: DocumentTextColor) => `${text}|${background}`;

export function runsOfLeaves(leaves: DocumentTextLeaf[]): Run[] {
  return leaves.map((leaf) => {
    let marks = 0;
    let color: string | undefined;
    for (const mark of leaf.marks) {
      if (mark.type === 'color') {
        marks |= COLOR;
        color = colorKey(mark.data.text, mark.data.background);
      } else marks |= BIT[mark.type];
    }
    return color === undefined ? { text: leaf.text, marks } : { text: leaf.text, marks, color };
  });
}

const sameFormat = (a: Run, b: Run) => a.marks === b.marks && (!(a.marks & COLOR) || a.color === b.color);

function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (run.text === '') continue;
    const last = out.at(-1);
    if (last && sameFormat(last, run)) last.text += run.text;
    else out.push({ ...run });
  }
  return out;
}

const WHITESPACE = /\s/u;

function unmarkEdgeWhitespace(runs: Run[]): Run[] {
  if (!runs.some((run) => run.marks & (BOLD | ITALIC | STRIKETHROUGH))) return runs;
  const chars: string[] = [];
  const marks: number[] = [];
  const colorAt: (string | undefined)[] = [];
  for (const run of runs) {
    for (const char of run.text) {
      chars.push(char);
      marks.push(run.marks);
      colorAt.push(run.color);
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
  return merge(
    chars.map((text, i) => ({ text, marks: marks[i] ?? 0, ...((marks[i] ?? 0) & COLOR ? { color: colorAt[i] } : {}) })),
  );
}

export function normalizeRuns(runs: Run[]): Run[] {
  return unmarkEdgeWhitespace(merge(runs));
}

export function leafOf(run: Run): DocumentTextLeaf {
  const marks: DocumentTextMark[] = DOCUMENT_MARK_TYPES.filter((type) => run.marks & BIT[type]).map((type) => ({
    object: 'mark',
    type,
  }));
  if (run.marks & COLOR && run.color) {
    const [text, background] = run.color.split('|') as [DocumentTextColor, DocumentTextColor];
    marks.push({ object: 'mark', type: 'color', data: { text, background } });
  }
  return { object: 'leaf', text: run.text, marks };
}

export function textNode(runs: Run[]): DocumentText {
  const leaves = normalizeRuns(runs).map(leafOf);
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [{ object: 'leaf', text: '', marks: [] }] };
}

/** A run of text, or an inline node, in the order they appear. */
export type Piece<I> = Run | I;
const isRun = <I>(piece: Piece<I>): piece is Run =>
  typeof piece === 'object' && piece !== null && 'marks' in piece && 'text' in piece;

/**
 * Texts and inlines the way GitBook (Slate) normalises them: consecutive runs become one text node, and every
 * inline sits between two text nodes, empty ones where nothing else is (`[text, link, text]`).
 */
export function phrasingNodes<I extends DocumentInline>(pieces: Piece<I>[]): (DocumentText | I)[] {
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

const MDAST_OF: Record<number, 'strong' | 'emphasis' | 'delete'> = {
  [BOLD]: 'strong',
  [ITALIC]: 'emphasis',
  [STRIKETHROUGH]: 'delete',
};
const HTML_TAG: Record<number, string> = {
  [KEYBOARD]: 'kbd',
  [SUPERSCRIPT]: 'sup',
  [SUBSCRIPT]: 'sub',
  [COLOR]: 'mark',
};

/** The opening HTML tag of a format written as HTML. */
function openTag(bit: number, run: Run): string {
  if (bit !== COLOR) return `<${HTML_TAG[bit]}>`;
  const [text = 'default', background = 'default'] = (run.color ?? '').split('|');
  const style = [
    ...(text !== 'default' || background === 'default' ? [`color:${text};`] : []),
    ...(background !== 'default' ? [`background-color:${background};`] : []),
  ].join('');
  return `<mark style="${style}">`;
}

const shares = (bit: number, first: Run) => (run: Run | undefined) =>
  run !== undefined && (run.marks & bit) !== 0 && (bit !== COLOR || run.color === first.color);

/**
 * Runs (already normalised) as mdast phrasing: each format wraps the longest stretch of runs that share it,
 * so `**bold *and italic***` stays one strong node around an emphasis; HTML formats wrap outside markdown ones.
 * Code is innermost (`inlineCode`). A `\n` is a hard break — or, in table cells where markdown has no hard
 * break, a `<br>`.
 */
export function runsToMdast(runs: Run[], lineBreak: 'break' | 'br', rawHtml = false): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < runs.length) {
    const run = runs[i];
    if (!run) break;
    let best = 0;
    let bestEnd = i + 1;
    for (const bit of [...HTML_FORMATS, ...FORMATS]) {
      if (!(run.marks & bit)) continue;
      let end = i;
      while (shares(bit, run)(runs[end])) end++;
      if (best === 0 || end > bestEnd) {
        best = bit;
        bestEnd = end;
      }
    }
    if (best === 0) {
      out.push(...runContent(run, lineBreak, rawHtml));
      i++;
      continue;
    }
    const inner = runs.slice(i, bestEnd).map((r) => ({ ...r, marks: r.marks & ~best }));
    const type = MDAST_OF[best];
    const content = runsToMdast(inner, lineBreak, rawHtml);
    if (type) out.push({ type, children: content });
    else
      out.push({ type: 'html', value: openTag(best, run) }, ...content, {
        type: 'html',
        value: `</${HTML_TAG[best]}>`,
      });
    i = bestEnd;
  }
  return out;
}

/** Text that looks like an HTML tag or comment, which `rawHtml` writes as it is. */
const HTML_LIKE = /<\/?[A-Za-z][^<>]*>|<!--[\s\S]*?-->/g;

function runContent(run: Run, lineBreak: 'break' | 'br', rawHtml: boolean): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  run.text.split('\n').forEach((line, index) => {
    if (index > 0) out.push(lineBreak === 'break' ? { type: 'break' } : { type: 'html', value: '<br>' });
    if (line === '') return;
    if (run.marks & CODE) out.push({ type: 'inlineCode', value: line });
    else if (rawHtml && line.includes('<')) out.push(...withRawHtml(line));
    else out.push({ type: 'text', value: line });
  });
  return out;
}

function withRawHtml(line: string): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let last = 0;
  for (const match of line.matchAll(HTML_LIKE)) {
    if (match.index > last) out.push({ type: 'text', value: line.slice(last, match.index) });
    out.push({ type: 'html', value: match[0] });
    last = match.index + match[0].length;
  }
  if (last < line.length) out.push({ type: 'text', value: line.slice(last) });
  return out;
}
