import type { Html, Link, Root, RootContent } from 'mdast';
import { defaultHandlers, type Handle, type Join, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { HINT_STYLES, type DocumentHintStyle } from '@quire/contracts';

/**
 * The markdown dialect pages are stored in: GitHub-flavoured markdown (CommonMark + GFM tables, task lists,
 * strikethrough, autolink literals, footnotes) parsed and written by remark, plus GitBook's hint blocks as
 * GitBook's own markdown export writes them:
 *
 *     {% hint style="info" %}
 *     Any markdown, **formatted**.
 *     {% endhint %}
 *
 * (`style` is one of info, warning, danger, success). Each marker stands alone on its line; the content
 * between them may start and end right next to the markers, as GitBook writes it.
 */

const HINT_OPEN = /^\{%\s*hint\s+style="([a-z]+)"\s*%\}$/;
const HINT_CLOSE = /^\{%\s*endhint\s*%\}$/;

export const hintOpenLine = (style: DocumentHintStyle) => `{% hint style="${style}" %}`;
export const HINT_CLOSE_LINE = '{% endhint %}';

const isHintStyle = (s: string): s is DocumentHintStyle => HINT_STYLES.some((h) => h === s);

/** The style of a hint-opening marker line (trimmed), or null when the line is not one. */
export function hintOpenStyle(line: string): DocumentHintStyle | null {
  const style = HINT_OPEN.exec(line.trim())?.[1];
  return style !== undefined && isHintStyle(style) ? style : null;
}
export const isHintClose = (line: string) => HINT_CLOSE.test(line.trim());

/** remark with GFM, as every reader of stored markdown parses it (positions refer to the text given). */
export const markdownParser = unified().use(remarkParse).use(remarkGfm).freeze();

/**
 * Parses markdown into mdast. Line endings become `\n`. Hint marker lines are first set apart by blank
 * lines that stay in the same blockquote or list item (a marker may also follow a list bullet), so that
 * each parses as a paragraph of its own, whatever it touches: without that, `- item\n{% endhint %}` would
 * be a lazy continuation of the item, `| a |\n{% endhint %}` a table row and `<figure>…\n{% endhint %}`
 * part of the HTML. Lines inside code blocks, and inside the HTML blocks that only a closing tag ends
 * (comments, `<pre>`…), are left alone.
 * Positions in the tree refer to the returned `source`.
 */
export function parseMarkdown(markdown: string): { tree: Root; source: string } {
  const text = markdown.replace(/\r\n?/g, '\n');
  if (!text.includes('{%')) return { tree: markdownParser.parse(text), source: text };
  // One parse in the common case: guess which lines are code by their fences, then check the guess
  // against the tree; when it was wrong, parse once to know, and again with the markers set apart.
  const guess = isolateHintMarkers(text, guessVerbatimLines(text));
  const tree = markdownParser.parse(guess.source);
  const verbatim = verbatimLines(tree);
  const right =
    guess.isolated.every((line) => !verbatim.has(line)) &&
    guess.inserted.every((line) => !verbatim.has(line)) &&
    guess.skipped.every((line) => verbatim.has(line));
  if (right) return { tree, source: guess.source };
  const { source } = isolateHintMarkers(text, verbatimLines(markdownParser.parse(text)));
  return { tree: markdownParser.parse(source), source };
}

const CLOSED_HTML = /^<(?:(?:script|pre|style|textarea)[\s>]|!--|\?|![A-Za-z]|!\[CDATA\[)/i;

/** Line numbers (1-based) whose text is taken verbatim: code blocks, and HTML blocks only a closing tag ends. */
function verbatimLines(tree: Root): Set<number> {
  const lines = new Set<number>();
  const visit = (node: Root | RootContent) => {
    if (node.type === 'code' || (node.type === 'html' && CLOSED_HTML.test(node.value))) {
      const from = node.position?.start.line ?? 0;
      const to = node.position?.end.line ?? -1;
      for (let line = from; line <= to; line++) lines.add(line);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return lines;
}

const CONTAINER_MARKS = /^(?:[ \t]*>[ \t]?|[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+)*[ \t]*/;
const FENCE_OPEN = /^(`{3,}|~{3,})/;
const FENCE_CLOSE = /^(`{3,}|~{3,})[ \t]*$/;

/** The lines inside fenced code, by their fences alone (quotes and list markers before a fence are skipped). */
function guessVerbatimLines(text: string): Set<number> {
  const lines = new Set<number>();
  let fence: string | null = null;
  text.split('\n').forEach((line, index) => {
    const rest = line.slice(CONTAINER_MARKS.exec(line)?.[0].length ?? 0);
    if (fence === null) {
      fence = FENCE_OPEN.exec(rest)?.[1] ?? null;
      if (fence !== null) lines.add(index + 1);
      return;
    }
    lines.add(index + 1);
    const closing = FENCE_CLOSE.exec(rest)?.[1];
    if (closing !== undefined && closing[0] === fence[0] && closing.length >= fence.length) fence = null;
  });
  return lines;
}

const LIST_MARK = /(^|[ \t>])([-+*]|\d{1,9}[.)])(?=[ \t])/g;
const OPENS_ITEM = /(?:^|[ \t>])(?:[-+*]|\d{1,9}[.)])[ \t]/;

/** Sets apart the marker lines that are not verbatim; says which lines (in the result) it touched or left. */
function isolateHintMarkers(markdown: string, verbatim: Set<number>) {
  const out: string[] = [];
  const isolated: number[] = [];
  const inserted: number[] = [];
  const skipped: number[] = [];
  markdown.split('\n').forEach((line, index) => {
    const prefix = CONTAINER_MARKS.exec(line)?.[0] ?? '';
    const rest = line.slice(prefix.length);
    const marker = hintOpenStyle(rest) !== null || isHintClose(rest);
    if (!marker || verbatim.has(index + 1)) {
      out.push(line);
      if (marker) skipped.push(out.length);
      return;
    }
    // a blank line that stays in the same containers: `>` kept, list markers as the indentation they set;
    // none before a marker that starts a list item (nothing precedes it in that item)
    const blank = prefix.replace(LIST_MARK, (_, before: string, mark: string) => before + ' '.repeat(mark.length)).trimEnd();
    if (!OPENS_ITEM.test(prefix)) {
      out.push(blank);
      inserted.push(out.length);
    }
    out.push(line);
    isolated.push(out.length);
    out.push(blank);
    inserted.push(out.length);
  });
  return { source: out.join('\n'), isolated, inserted, skipped };
}

/** The two marker lines as raw mdast nodes (html nodes are written verbatim). */
export const hintMarkers = (style: DocumentHintStyle): [Html, Html] => [
  { type: 'html', value: hintOpenLine(style) },
  { type: 'html', value: HINT_CLOSE_LINE },
];
const isOpenMarker = (node: RootContent | Root) => node.type === 'html' && hintOpenStyle(node.value) !== null;
const isCloseMarker = (node: RootContent | Root) => node.type === 'html' && isHintClose(node.value);

/** Hint content sits right under its opening marker and right above its closing one, as GitBook writes it. */
const hintJoin: Join = (left, right) => (isOpenMarker(left) || isCloseMarker(right) ? 0 : undefined);

/**
 * The empty paragraph that carries the checkbox of an empty task (`- [ ] &#x20;`) is followed by a blank
 * line: a nested list right under it could otherwise not start with an empty item.
 */
const emptyTaskJoin: Join = (left) => (left.type === 'paragraph' && left.children.length === 0 ? 1 : undefined);

/**
 * remark writes a link whose text is its address as an autolink (`<https://…>`, `<a@b.co>`), but GFM finds
 * e-mail addresses CommonMark's `<…>` does not take (`_a@b.co_a`): those are written `[a](mailto:a)`.
 */
const EMAIL_AUTOLINK =
  /^mailto:[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const link: Handle = (node: Link, parent, state, info) => {
  if (!node.url.startsWith('mailto:') || EMAIL_AUTOLINK.test(node.url)) return defaultHandlers.link(node, parent, state, info);
  const resourceLink = state.options.resourceLink;
  state.options.resourceLink = true;
  try {
    return defaultHandlers.link(node, parent, state, info);
  } finally {
    state.options.resourceLink = resourceLink;
  }
};
Object.assign(link, { peek: defaultHandlers.link.peek });

/** How stored markdown is written: one fixed style, so that equal documents give equal text. */
const STRINGIFY_OPTIONS: ToMarkdownOptions = {
  bullet: '-',
  bulletOther: '*',
  bulletOrdered: '.',
  emphasis: '*',
  strong: '*',
  rule: '-',
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  incrementListMarker: true,
  setext: false,
  closeAtx: false,
  resourceLink: false,
  join: [hintJoin, emptyTaskJoin],
  handlers: { link },
  unsafe: [
    // text that looks like a hint marker line is not one: `\{% hint … %}`
    { character: '{', after: '%', atBreak: true },
    // remark escapes `<` before a letter, `/`, `!` or `?`, but `<{@a>` is an e-mail autolink too: escape `<`
    // before anything but a space
    {
      character: '<',
      after: '\\S',
      inConstruct: 'phrasing',
      notInConstruct: ['autolink', 'destinationLiteral', 'destinationRaw', 'reference', 'titleQuote', 'titleApostrophe'],
    },
  ],
};

const serializer = unified()
  .use(remarkGfm, { tablePipeAlign: false, tableCellPadding: true })
  .use(remarkStringify, STRINGIFY_OPTIONS)
  .freeze();

export function stringifyMarkdown(tree: Root): string {
  return serializer.stringify(tree);
}
