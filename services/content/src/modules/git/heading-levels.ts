import type { Node } from '@quire/document/syntax';
import { parseMarkdown, visit } from '@quire/document/syntax';

/**
 * GitBook's Git Sync writes a page's title as its `# heading` and the document's headings one level below it:
 * heading-1 `##`, heading-2 `###`, heading-3 `####` (GitBook has three heading levels). A page's markdown in Quire
 * holds the document alone (the title is the page's), heading-1 `#` to heading-3 `###`, so a page's headings move
 * one level on the way in and back on the way out: `####` stays `####` through an import and an export.
 *
 * GitBook's aligned headings, written as HTML (`<h2 align="center">…</h2>` for its heading-1), move the same way.
 * Each heading is edited in place, at the offset the parser gave it (GitBook's syntax included: headings inside
 * hints, tabs, steps, lists and quotes; never a `#` in code), so every other byte is kept.
 */

interface Heading extends Node {
  depth: number;
}

const isHeading = (node: Node): node is Heading =>
  node.type === 'heading' && typeof (node as Heading).depth === 'number';

/** GitBook's aligned heading, written as HTML (`<h3 align="center">Title</h3>`, see aligned-html.ts). */
const ALIGNED = /^<h([1-6]) align="(?:left|center|right)">[^\n]*<\/h\1>$/;

/** The edits moving an aligned HTML heading `by` levels (its opening and closing tags' digits). */
function alignedEdits(node: Node, source: string, level: (depth: number) => number): Edit[] {
  if (node.type !== 'html' || !node.position) return [];
  const start = node.position.start.offset ?? 0;
  const text = source.slice(start, node.position.end.offset ?? start);
  const m = ALIGNED.exec(text);
  if (!m) return [];
  const depth = Number(m[1]);
  const next = String(level(depth));
  if (next === m[1]) return [];
  const close = start + text.length - 2; // the digit of `</hN>`
  return [
    { at: start + 2, remove: 1, insert: next },
    { at: close, remove: 1, insert: next },
  ];
}

/** Nothing to do: no line can hold a heading (fast path for pages without any). */
const noHeading = (markdown: string) =>
  !/(^|\n)[ \t>*+\-\d.]*(#|[-=]{2,}[ \t]*(\n|$))/.test(markdown) && !/<h[1-6] align=/.test(markdown);

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

function applyEdits(source: string, edits: Edit[]): string {
  let out = source;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
  return out;
}

/**
 * A page body read from Git as Quire stores it: `#` and `##` are heading-1 (`#`), `###` heading-2, `####` and deeper
 * heading-3 and below (`###`… — the canonical form then writes `####`–`######` as `###`). A setext `---` heading
 * (level 2) becomes a `===` one (level 1).
 */
export function headingsFromGitbook(markdown: string): string {
  if (noHeading(markdown)) return markdown;
  const { tree, source } = parseMarkdown(markdown);
  const edits: Edit[] = [];
  visit(tree as Node, (node) => {
    edits.push(...alignedEdits(node, source, (d) => Math.max(1, d - 1)));
    if (!isHeading(node) || node.depth < 2 || !node.position) return;
    const start = node.position.start.offset ?? 0;
    const end = node.position.end.offset ?? start;
    if (source[start] === '#') {
      edits.push({ at: start, remove: 1, insert: '' });
      return;
    }
    // setext: its underline is the last line of the heading
    const line = source.lastIndexOf('\n', end - 1) + 1;
    const underline = source.slice(line, end);
    if (node.depth === 2) edits.push({ at: line, remove: underline.length, insert: underline.replace(/-/g, '=') });
  });
  return applyEdits(source, edits);
}

/** A page body as Quire stores it, written as GitBook's Git Sync writes it: every heading one level deeper. */
export function headingsToGitbook(markdown: string): string {
  if (noHeading(markdown)) return markdown;
  const { tree, source } = parseMarkdown(markdown);
  const edits: Edit[] = [];
  visit(tree as Node, (node) => {
    edits.push(...alignedEdits(node, source, (d) => Math.min(6, d + 1)));
    if (!isHeading(node) || node.depth > 5 || !node.position) return;
    const start = node.position.start.offset ?? 0;
    // the stored form is ATX (`normalizeMarkdown`); a setext heading is left as it is
    if (source[start] === '#') edits.push({ at: start, remove: 0, insert: '#' });
  });
  return applyEdits(source, edits);
}
