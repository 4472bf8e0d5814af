import type { Html, Link, Parents, Root, RootContent } from 'mdast';
import { frontmatterFromMarkdown, frontmatterToMarkdown } from 'mdast-util-frontmatter';
import { mathFromMarkdown, mathToMarkdown } from 'mdast-util-math';
import { defaultHandlers, type Handle, type Join, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { frontmatter } from 'micromark-extension-frontmatter';
import { math } from 'micromark-extension-math';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified, type Processor } from 'unified';
import { liquidTagFromMarkdown, liquidTagSyntax, liquidTagToMarkdown } from './liquid-syntax.ts';
import { pairTags, tagBlockToMarkdown } from './tag-blocks.ts';

/**
 * The markdown dialect pages are stored in: GitHub-flavoured markdown (CommonMark + GFM tables, task lists,
 * strikethrough, autolink literals, footnotes) parsed and written by remark, plus GitBook's own syntax as its
 * Git Sync writes it, through real parser extensions:
 * - tag lines `{% name attrs %}` (liquid-syntax.ts), paired with their `{% endname %}` into blocks after
 *   parsing, like the HTML blocks GitBook wraps around markdown (`<details>`; tag-blocks.ts);
 * - math, `$$` blocks and `$$…$$` inline (micromark-extension-math; a single `$` is text, prices stay prices);
 * - YAML front matter (micromark-extension-frontmatter).
 */

/** The remark plugin adding GitBook's syntax to the parser and the serializer. */
function remarkGitbook(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(liquidTagSyntax, math({ singleDollarTextMath: false }), frontmatter(['yaml']));
  (data.fromMarkdownExtensions ??= []).push(
    liquidTagFromMarkdown,
    mathFromMarkdown(),
    frontmatterFromMarkdown(['yaml']),
  );
  (data.toMarkdownExtensions ??= []).push(
    liquidTagToMarkdown,
    tagBlockToMarkdown,
    mathToMarkdown({ singleDollarTextMath: false }),
    frontmatterToMarkdown(['yaml']),
  );
}

/** remark with GFM and GitBook's syntax, as every reader of stored markdown parses it (tags not yet paired). */
export const markdownParser = unified().use(remarkParse).use(remarkGfm).use(remarkGitbook).freeze();

/** Parses markdown into mdast with GitBook's tags paired into blocks. Line endings become `\n`. */
export function parseMarkdown(markdown: string): { tree: Root; source: string } {
  const source = markdown.replace(/\r\n?/g, '\n');
  const tree = markdownParser.parse(source);
  splitHtmlAtTags(tree, source);
  pairTags(tree);
  return { tree, source };
}

/** The containers whose children are blocks (an HTML node there is an HTML block). */
const FLOW = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * An HTML block runs until a blank line, so GitBook's `<figure>…</figure>` right above `{% endcolumn %}` would
 * swallow the tag: each line of an HTML block that is a tag line (isTagLine) is made a tag of its own, the HTML
 * around it kept as HTML blocks (positions kept, so the link rewriter still finds every attribute; inside a quote
 * or an indented list item, where the value is not the source, the parts have none).
 */
function splitHtmlAtTags(tree: Root, source: string): void {
  const work: Parents[] = [tree];
  for (let parent = work.pop(); parent; parent = work.pop()) {
    const children = parent.children as RootContent[];
    // a list is not a flow container, but its items are: descend through it all the same
    if (FLOW.has(parent.type) && children.some((c) => c.type === 'html' && c.value.includes('{%')))
      (parent as { children: RootContent[] }).children = children.flatMap((c) =>
        c.type === 'html' ? splitHtml(c, source) : [c],
      );
    for (const child of parent.children as RootContent[]) if ('children' in child) work.push(child as Parents);
  }
}

function splitHtml(node: Html, source: string): RootContent[] {
  const start = node.position?.start.offset;
  if (start === undefined || !node.value.includes('{%')) return [node];
  // comments, `<pre>`, `<script>`… end at their own end marker, not at a blank line: kept whole
  if (/^ {0,3}<(?:!|\?|(?:pre|script|style|textarea)(?:\s|>|$))/i.test(node.value)) return [node];
  // only the tag lines that end the block (what follows a tag line in the middle would be read as HTML)
  const lines = node.value.split('\n');
  let keep = lines.length;
  while (keep > 1 && /^ {0,3}\{%/.test(lines[keep - 1]!) && isTagLine(lines[keep - 1]!.trim())) keep--;
  if (keep === lines.length) return [node];
  // inside a quote or an indented item the value is not the source: the parts get no position
  if (source.slice(start, start + node.value.length) !== node.value)
    return [
      { type: 'html', value: lines.slice(0, keep).join('\n') },
      ...lines.slice(keep).map((line): RootContent => ({ type: 'liquidTag', value: line.trim() })),
    ];
  const line0 = node.position!.start.line;
  const at = (offset: number, line: number) => ({ offset, line, column: 1 });
  const value = lines.slice(0, keep).join('\n');
  const out: RootContent[] = [
    { type: 'html', value, position: { start: at(start, line0), end: at(start + value.length, line0 + keep - 1) } },
  ];
  let offset = start + value.length + 1;
  lines.slice(keep).forEach((text, i) => {
    const tag = text.trim();
    const from = offset + text.indexOf(tag);
    const line = line0 + keep + i;
    out.push({ type: 'liquidTag', value: tag, position: { start: at(from, line), end: at(from + tag.length, line) } });
    offset += text.length + 1;
  });
  return out;
}

/**
 * The empty paragraph that carries the checkbox of an empty task (`- [ ] &#x20;`) is followed by a blank
 * line: a nested list right under it could otherwise not start with an empty item.
 */
const emptyTaskJoin: Join = (left) => (left.type === 'paragraph' && left.children.length === 0 ? 1 : undefined);

/**
 * remark writes a link whose text is its address as an autolink (`<https://…>`, `<a@b.co>`), but GFM finds
 * e-mail addresses CommonMark's `<…>` does not take (`_a@b.co_a`): those are written `[a](mailto:a)`. A link
 * marked `data.resource` (the spec link of GitBook's swagger block) is written `[url](url)` as GitBook does.
 */
const EMAIL_AUTOLINK =
  /^mailto:[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const link: Handle = (node: Link, parent, state, info) => {
  const resource = (node.data as { resource?: boolean } | undefined)?.resource === true;
  if (!resource && (!node.url.startsWith('mailto:') || EMAIL_AUTOLINK.test(node.url)))
    return defaultHandlers.link(node, parent, state, info);
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
  // GitBook's Git Sync writes `*` bullets (a list right after another one gets `-`)
  bullet: '*',
  bulletOther: '-',
  bulletOrdered: '.',
  emphasis: '_',
  strong: '*',
  rule: '*',
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  incrementListMarker: true,
  setext: false,
  closeAtx: false,
  resourceLink: false,
  join: [emptyTaskJoin],
  handlers: { link },
  unsafe: [
    // text that looks like a tag line is not one: `\{% hint … %}`
    { character: '{', after: '%', atBreak: true },
    // remark escapes `<` before a letter, `/`, `!` or `?`, but `<{@a>` is an e-mail autolink too: escape `<`
    // before anything but a space
    {
      character: '<',
      after: '\\S',
      inConstruct: 'phrasing',
      notInConstruct: [
        'autolink',
        'destinationLiteral',
        'destinationRaw',
        'reference',
        'titleQuote',
        'titleApostrophe',
      ],
    },
  ],
};

/**
 * Tables are stored unpadded (`| - |`): a cell edit then changes one line, so change requests merge table rows
 * line by line. GitBook's Git Sync pads them; an export writes them so (`padTables`, see `gitbookMarkdown`).
 */
const serializer = unified()
  .use(remarkGfm, { tablePipeAlign: false, tableCellPadding: true })
  .use(remarkGitbook)
  .use(remarkStringify, STRINGIFY_OPTIONS)
  .freeze();
const paddingSerializer = unified()
  .use(remarkGfm, { tablePipeAlign: true, tableCellPadding: true })
  .use(remarkGitbook)
  .use(remarkStringify, STRINGIFY_OPTIONS)
  .freeze();

export function stringifyMarkdown(tree: Root, padTables = false): string {
  return (padTables ? paddingSerializer : serializer).stringify(tree);
}

/**
 * Whether `text` is exactly one tag line (`{% … %}`) as the parser reads it (liquid-syntax.ts): the same rules,
 * scanned directly (a parse per paragraph would be too slow for pages of many raw tag lines).
 */
export function isTagLine(text: string): boolean {
  if (!text.startsWith('{%') || !text.endsWith('%}')) return false;
  let quoted = false;
  for (let i = 2; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') return false;
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '%' && text[i + 1] === '}') return i + 2 === text.length;
  }
  return false;
}
