import type { DocumentBlockHeading, DocumentBlockParagraph, DocumentInlineButton } from '@quire/contracts/document';
import {
  BOLD,
  CODE,
  ITALIC,
  KEYBOARD,
  STRIKETHROUGH,
  SUBSCRIPT,
  SUPERSCRIPT,
  phrasingNodes,
  runsOfLeaves,
  type Piece,
  type Run,
} from './leaves.ts';
import { decodeEntities, gitbookEntities, gitbookHtmlText } from './md-context.ts';
import { buttonInline } from './md-inlines.ts';
import { buttonHtml } from './write-inlines.ts';

/**
 * GitBook writes an aligned paragraph or heading as HTML: `<p align="center">Text <strong>bold</strong></p>`,
 * `<h2 align="right">Title</h2>`, `<p align="center"><button type="button" class="button primary" data-action="ask">Ask
 * …</button></p>`. Read into the paragraph's or heading's `data.align` when its content is text with bold, italic,
 * struck, code, keyboard, superscript and subscript marks and line breaks (and GitBook's buttons, in a paragraph),
 * and only when writing it back gives exactly the same HTML (so the round trip is byte for byte; character references
 * compared as GitBook writes them, `gitbookEntities`); anything else stays an `html` block.
 */

type AlignValue = 'start' | 'center' | 'end';
const ALIGN_IN: Record<string, AlignValue> = { left: 'start', center: 'center', right: 'end' };
const ALIGN_OUT: Record<AlignValue, string> = { start: 'left', center: 'center', end: 'right' };
const TAGS: Record<string, number> = {
  strong: BOLD,
  em: ITALIC,
  s: STRIKETHROUGH,
  code: CODE,
  kbd: KEYBOARD,
  sup: SUPERSCRIPT,
  sub: SUBSCRIPT,
};
/** Marks as elements, outermost first. */
const ORDER: [number, string][] = [
  [BOLD, 'strong'],
  [ITALIC, 'em'],
  [STRIKETHROUGH, 's'],
  [CODE, 'code'],
  [KEYBOARD, 'kbd'],
  [SUPERSCRIPT, 'sup'],
  [SUBSCRIPT, 'sub'],
];

const tagOf = (mark: number) => ORDER.find(([m]) => m === mark)![1];

const ALIGNED = /^<(p|h1|h2|h3) align="(left|center|right)">([^\n]*)<\/\1>$/;

export function alignedBlock(html: string): DocumentBlockParagraph | DocumentBlockHeading | null {
  const m = ALIGNED.exec(html);
  if (!m) return null;
  const pieces = piecesOf(m[3]!);
  if (!pieces) return null;
  const align = ALIGN_IN[m[2]!]!;
  const nodes = phrasingNodes(pieces);
  const block: DocumentBlockParagraph | DocumentBlockHeading =
    m[1] === 'p'
      ? { object: 'block', type: 'paragraph', data: { align }, nodes }
      : { object: 'block', type: `heading-${m[1]!.slice(1)}` as DocumentBlockHeading['type'], data: { align }, nodes };
  return alignedHtml(block) === gitbookEntities(html) ? block : null;
}

/** GitBook's buttons (`<a class="button …">`, `<button data-action>`) with nothing but text inside. */
const BUTTON = /<(a|button)(\s[^<>]*)>([^<]*)<\/\1>/g;

/** The texts and buttons of GitBook's inline HTML (see `runsOf`); null when it holds anything else. */
function piecesOf(inner: string): Piece<DocumentInlineButton>[] | null {
  const out: Piece<DocumentInlineButton>[] = [];
  let last = 0;
  for (const m of inner.matchAll(BUTTON)) {
    const button = buttonInline(m[1]!, m[2]!, decodeEntities(m[3]!));
    const runs = runsOf(inner.slice(last, m.index));
    if (!button || !runs) return null;
    out.push(...runs, button);
    last = m.index + m[0].length;
  }
  const runs = runsOf(inner.slice(last));
  return runs ? [...out, ...runs] : null;
}

/** The runs of GitBook's inline HTML: text, `<strong>`, `<em>`, `<s>`, `<code>` (nested, balanced), `<br>`. */
function runsOf(inner: string): Run[] | null {
  const runs: Run[] = [];
  const open: number[] = [];
  let marks = 0;
  for (const part of inner.split(/(<[^>]*>)/)) {
    if (part === '') continue;
    const tag = /^<(\/?)([a-z]+)>$/.exec(part);
    if (!tag) {
      if (part.startsWith('<')) return null;
      runs.push({ text: decodeEntities(part), marks });
    } else if (tag[2] === 'br' && !tag[1]) runs.push({ text: '\n', marks });
    else {
      const mark = TAGS[tag[2]!];
      if (mark === undefined) return null;
      if (!tag[1]) {
        if (marks & mark) return null;
        open.push(mark);
        marks |= mark;
      } else {
        if (open.pop() !== mark) return null;
        marks &= ~mark;
      }
    }
  }
  return open.length === 0 ? runs : null;
}

/** An aligned paragraph or heading as GitBook writes it; null when it has no alignment or holds an inline. */
export function alignedHtml(block: DocumentBlockParagraph | DocumentBlockHeading): string | null {
  const align = block.data?.align;
  if (!align || align === 'start') return null;
  if (!block.nodes.every((n) => n.object === 'text' || (n.type === 'button' && block.type === 'paragraph')))
    return null;
  const name = block.type === 'paragraph' ? 'p' : `h${block.type.slice(-1)}`;
  let out = '';
  for (const node of block.nodes) {
    const html =
      node.object === 'text'
        ? runsHtml(runsOfLeaves(node.leaves))
        : node.type === 'button'
          ? buttonHtml(node.data)
          : null;
    if (html === null) return null;
    out += html;
  }
  return `<${name} align="${ALIGN_OUT[align]}">${out}</${name}>`;
}

/** Text runs as GitBook's inline HTML (marks as elements); null when a run has a mark HTML does not carry. */
function runsHtml(runs: Run[]): string | null {
  const known = BOLD | ITALIC | STRIKETHROUGH | CODE | KEYBOARD | SUPERSCRIPT | SUBSCRIPT;
  if (runs.some((r) => r.color !== undefined || r.marks & ~known)) return null;
  let out = '';
  let marks = 0;
  const stack: number[] = [];
  for (const run of runs) {
    // close from the outermost mark this run does not have (innermost first), then open what it adds
    const from = stack.findIndex((mark) => !(run.marks & mark));
    while (from >= 0 && stack.length > from) {
      const mark = stack.pop()!;
      out += `</${tagOf(mark)}>`;
      marks &= ~mark;
    }
    for (const [mark, tag] of ORDER)
      if (run.marks & mark && !(marks & mark)) {
        out += `<${tag}>`;
        stack.push(mark);
        marks |= mark;
      }
    out += run.text.split('\n').map(gitbookHtmlText).join('<br>');
  }
  for (let mark = stack.pop(); mark !== undefined; mark = stack.pop()) out += `</${tagOf(mark)}>`;
  return out;
}
