import type { Node } from '@quire/document/syntax';
import { parseMarkdown, visit } from '@quire/document/syntax';

/**
 * GitBook's Git Sync writes a page's title as its `# heading` and the document's headings one level below it:
 * heading-1 `##`, heading-2 `###`, heading-3 `####` (GitBook has three heading levels). A page's markdown in Quire
 * holds the document alone (the title is the page's), heading-1 `#` to heading-3 `###`, so a page's headings move
 * one level on the way in and back on the way out: `####` stays `####` through an import and an export.
 *
 * Each heading is edited in place, at the offset the parser gave it (GitBook's syntax included: headings inside
 * hints, tabs, steps, lists and quotes; never a `#` in code), so every other byte is kept.
 */

interface Heading extends Node {
  depth: number;
}

const isHeading = (node: Node): node is Heading => node.type === 'heading' && typeof (node as Heading).depth === 'number';

/** Nothing to do: no line can hold a heading (fast path for pages without any). */
const noHeading = (markdown: string) => !/(^|\n)[ \t>*+\-\d.]*(#|[-=]{2,}[ \t]*(\n|$))/.test(markdown);

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
    if (!isHeading(node) || node.depth > 5 || !node.position) return;
    const start = node.position.start.offset ?? 0;
    // the stored form is ATX (`normalizeMarkdown`); a setext heading is left as it is
    if (source[start] === '#') edits.push({ at: start, remove: 0, insert: '#' });
  });
  return applyEdits(source, edits);
}
