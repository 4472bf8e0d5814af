import type { PhrasingContent, Root } from 'mdast';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import type {
  DocumentAnnotationChild,
  DocumentBlockParagraph,
  DocumentInline,
  DocumentInlineAnnotation,
  DocumentInlineButton,
  DocumentInlineImage,
  DocumentTextColor,
} from '@quire/contracts/document';
import { TEXT_COLORS } from '@quire/contracts/document';
import {
  BOLD,
  CODE,
  COLOR,
  ITALIC,
  KEYBOARD,
  STRIKETHROUGH,
  SUBSCRIPT,
  SUPERSCRIPT,
  captionText,
  colorKey,
  phrasingNodes,
  textNode,
  type Piece,
  type Run,
} from './leaves.ts';
import {
  attribute,
  decodeEntities,
  emptyParagraph,
  paragraph,
  sourceBetween,
  sourceOf,
  type Ctx,
} from './md-context.ts';
import { holds } from './containment.ts';
import { contentRefFromUrl, refFromUrl } from '../refs.ts';

/**
 * Markdown phrasing → GitBook texts and inlines. Besides CommonMark/GFM (emphasis, code, links, images,
 * breaks), GitBook's inline syntax:
 * - marks as HTML: `<kbd>`, `<sup>`, `<sub>`, `<mark style="color:…;background-color:…;">`;
 * - `$$E=mc^2$$` inline math; footnotes `text[^1]` + `[^1]: note` as annotations (the note's blocks);
 * - `[Page](gitbook-page:id "mention")`, a link titled "mention", as a mention;
 * - `<code class="expression">space.vars.x</code>` (expression), `<i class="fa-gear">:gear:</i>` (icon),
 *   `<a href="…" class="button primary">Label</a>` (button), `<button type="button" class="button primary"
 *   data-action="ask" data-query="…">Label</button>` (a button running an action); emoji characters as emoji inlines.
 * HTML tags pair among siblings (nested at most MAX_INLINE_DEPTH deep); anything unpaired or unknown is text.
 */

export type Inline = DocumentInline;
export const isRun = (piece: Piece<Inline>): piece is Run => !('object' in piece);

/** Soft line breaks are spaces, as they render. */
const unwrap = (text: string) => text.replace(/[ \t]*\n[ \t]*/g, ' ');
const BR = /^<br\s*\/?>$/i;
const MAX_INLINE_DEPTH = 32;

interface HtmlTag {
  kind: 'open' | 'close';
  name: string;
  attributes: string;
}
const TAG = /^<(\/?)([a-z]+)((?:\s[^<>]*)?)>$/i;
const PAIRED = new Set(['kbd', 'sup', 'sub', 'mark', 'code', 'i', 'a', 'button']);

function htmlTag(node: PhrasingContent): HtmlTag | null {
  if (node.type !== 'html') return null;
  const match = TAG.exec(node.value.trim());
  const name = match?.[2]?.toLowerCase();
  if (!match || !name || !PAIRED.has(name) || (match[1] === '/' && match[3]?.trim())) return null;
  return { kind: match[1] === '/' ? 'close' : 'open', name, attributes: match[3] ?? '' };
}

/** Index of the closing tag of each opening tag among siblings, innermost pairs first (linear, a stack). */
function pairTags(nodes: PhrasingContent[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: { name: string; index: number }[] = [];
  nodes.forEach((node, index) => {
    const tag = htmlTag(node);
    if (!tag) return;
    if (tag.kind === 'open') {
      if (stack.length < MAX_INLINE_DEPTH) stack.push({ name: tag.name, index });
      return;
    }
    let at = stack.length - 1;
    while (at >= 0 && stack[at]?.name !== tag.name) at--;
    if (at < 0) return;
    const open = stack[at];
    stack.length = at;
    if (open) pairs.set(open.index, index);
  });
  return pairs;
}

const MARK_OF: Record<string, number> = { kbd: KEYBOARD, sup: SUPERSCRIPT, sub: SUBSCRIPT };

function colorOf(style: string | undefined): string | null {
  if (style === undefined) return null;
  const read = (property: string): DocumentTextColor | null | undefined => {
    const value = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+?)\\s*(?:;|$)`).exec(style)?.[1];
    if (value === undefined) return undefined;
    return TEXT_COLORS.find((c) => c === value) ?? null;
  };
  const text = read('color');
  const background = read('background-color');
  if (text === null || background === null || (text === undefined && background === undefined)) return null;
  return colorKey(text ?? 'default', background ?? 'default');
}

export function pieces(
  nodes: PhrasingContent[],
  marks: number,
  ctx: Ctx,
  inLink = false,
  color?: string,
): Piece<Inline>[] {
  const out: Piece<Inline>[] = [];
  const pairs = pairTags(nodes);
  const run = (text: string, bits = marks): Run =>
    bits & COLOR ? { text, marks: bits, color } : { text, marks: bits };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (!node) continue;
    const close = pairs.get(i);
    const tag = close === undefined ? null : htmlTag(node);
    const closing = close === undefined ? undefined : nodes[close];
    if (tag && close !== undefined && closing) {
      const made = paired(tag, nodes.slice(i + 1, close), [node, closing], marks, ctx, inLink, color);
      if (made) {
        out.push(...made);
        i = close;
        continue;
      }
    }
    out.push(...nodePieces(node, marks, ctx, inLink, color, run));
  }
  return out;
}

/** The pieces of one phrasing node outside an HTML pair; `run` makes a text run with the marks around it. */
function nodePieces(
  node: PhrasingContent,
  marks: number,
  ctx: Ctx,
  inLink: boolean,
  color: string | undefined,
  run: (text: string, bits?: number) => Run,
): Piece<Inline>[] {
  switch (node.type) {
    case 'text':
      return inLink || marks & CODE ? [run(unwrap(node.value))] : emojiPieces(unwrap(node.value), run);
    case 'strong':
      return pieces(node.children, marks | BOLD, ctx, inLink, color);
    case 'emphasis':
      return pieces(node.children, marks | ITALIC, ctx, inLink, color);
    case 'delete':
      return pieces(node.children, marks | STRIKETHROUGH, ctx, inLink, color);
    case 'inlineCode':
      return [run(node.value.replaceAll('\n', ' '), marks | CODE)]; // CommonMark: line endings in code spans are spaces
    case 'break':
      return [run('\n')];
    case 'link':
      return link(node.url, node.title, node.children, marks, ctx, inLink, color);
    case 'linkReference': {
      const definition = ctx.definitions.get(node.identifier);
      if (definition) return link(definition.url, definition.title, node.children, marks, ctx, inLink, color);
      return raw(sourceOf(node, ctx), run, ctx, inLink);
    }
    case 'image':
      return [inlineImage(node.url, node.alt, node.title)];
    case 'imageReference': {
      const definition = ctx.definitions.get(node.identifier);
      if (definition) return [inlineImage(definition.url, node.alt, definition.title)];
      return raw(sourceOf(node, ctx), run, ctx, inLink);
    }
    case 'inlineMath':
      if (inLink) return [run(sourceOf(node, ctx))];
      return [{ object: 'inline', type: 'inline-math', data: { formula: node.value }, isVoid: true }];
    case 'footnoteReference': {
      const note = inLink ? undefined : annotation(node.identifier, ctx);
      return note ? [note] : raw(sourceOf(node, ctx), run, ctx, inLink);
    }
    case 'html':
      if (BR.test(node.value.trim())) return [run('\n')];
      return raw(node.value, run, ctx, inLink);
    default:
      // anything else inline GitBook has no node for: its source text
      return raw(sourceOf(node, ctx), run, ctx, inLink);
  }
}

/** The inline an HTML pair makes, or null when the pair is not one GitBook writes (then it stays text). */
function paired(
  tag: HtmlTag,
  inner: PhrasingContent[],
  [open, close]: [PhrasingContent, PhrasingContent],
  marks: number,
  ctx: Ctx,
  inLink: boolean,
  color: string | undefined,
): Piece<Inline>[] | null {
  const mark = MARK_OF[tag.name];
  if (mark !== undefined) return pieces(inner, marks | mark, ctx, inLink, color);
  if (tag.name === 'mark') {
    const key = colorOf(attribute(tag.attributes, 'style'));
    return key === null ? null : pieces(inner, marks | COLOR, ctx, inLink, key);
  }
  if (inLink) return null;
  const text = decodeEntities(sourceBetween(open, close, ctx));
  const classes = (attribute(tag.attributes, 'class') ?? '').split(/\s+/);
  if (tag.name === 'code' && classes.includes('expression')) {
    return [{ object: 'inline', type: 'expression', data: { expression: text }, isVoid: true }];
  }
  const icon = classes.find((c) => c.startsWith('fa-'))?.slice(3);
  if (tag.name === 'i' && icon) {
    const key = colorOf(attribute(tag.attributes, 'style'));
    const iconColor = key?.split('|')[0] as DocumentTextColor | undefined;
    const data = { icon, ...(iconColor && iconColor !== 'default' ? { color: iconColor } : {}) };
    return [{ object: 'inline', type: 'icon', data, isVoid: true }];
  }
  const button = buttonInline(tag.name, tag.attributes, text);
  return button ? [button] : null;
}

/**
 * GitBook's button: `<a href="…" class="button primary|secondary [small|medium|large]" data-icon="…">`, or
 * `<button type="button" class="button …" data-action="…">` (an action); null for any other element.
 */
export function buttonInline(name: string, attributes: string, label: string): DocumentInlineButton | null {
  const classes = (attribute(attributes, 'class') ?? '').split(/\s+/);
  if (classes[0] !== 'button') return null;
  const kind = classes[1] === 'secondary' ? 'secondary' : 'primary';
  const size = classes.find((c): c is 'small' | 'medium' | 'large' => c === 'small' || c === 'medium' || c === 'large');
  const iconName = attribute(attributes, 'data-icon');
  const look = { label, kind, ...(size ? { size } : {}), ...(iconName ? { icon: iconName } : {}) } as const;
  const href = attribute(attributes, 'href');
  if (name === 'a' && href !== undefined)
    return { object: 'inline', type: 'button', data: { ...look, ref: contentRefFromUrl(href) }, isVoid: true };
  const action = name === 'button' ? buttonAction(attributes) : null;
  return action ? { object: 'inline', type: 'button', data: { ...look, action }, isVoid: true } : null;
}

type DocumentAction = Extract<DocumentInlineButton['data'], { action: unknown }>['action'];

/** GitBook's button action (`data-action="ask|search"` with `data-query`, `select` with `data-slug`). */
function buttonAction(attributes: string): DocumentAction | null {
  const action = attribute(attributes, 'data-action');
  const query = attribute(attributes, 'data-query');
  if (action === 'ask' || action === 'search') return { action, ...(query !== undefined ? { query } : {}) };
  const slug = attribute(attributes, 'data-slug');
  return action === 'select' && slug !== undefined ? { action, slug } : null;
}

/** Emoji shown as pictures (not text-style symbols such as ©), with their modifiers and joined sequences. */
const EMOJI =
  /(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F)(?:\p{Emoji_Modifier}|\uFE0F|\u200D(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F?))*/gu;

function emojiPieces(text: string, run: (text: string) => Run): Piece<Inline>[] {
  if (!/[^\u0000-\u00ff]/.test(text)) return [run(text)];
  const out: Piece<Inline>[] = [];
  let last = 0;
  for (const match of text.matchAll(EMOJI)) {
    const at = match.index;
    if (at > last) out.push(run(text.slice(last, at)));
    const code = [...match[0]].map((c) => c.codePointAt(0)?.toString(16) ?? '').join('-');
    out.push({ object: 'inline', type: 'emoji', data: { code }, isVoid: true });
    last = at + match[0].length;
  }
  if (last < text.length) out.push(run(text.slice(last)));
  return out;
}

/** The emoji an emoji inline's code stands for. */
export const emojiText = (code: string) =>
  code
    .split('-')
    .map((hex) => {
      const point = parseInt(hex, 16);
      return Number.isInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : '';
    })
    .join('');

const [findLiteralLinks] = gfmAutolinkLiteralFromMarkdown().transforms ?? [];

/** Text taken verbatim from the source: remark finds `www.`/`https://` URLs and e-mail addresses in it as in any text. */
export function rawPieces(children: PhrasingContent[], marks: number, ctx: Ctx): Piece<Inline>[] {
  const root: Root = { type: 'root', children: [{ type: 'paragraph', children }] };
  findLiteralLinks?.(root);
  const paragraphNode = root.children[0];
  return pieces(paragraphNode?.type === 'paragraph' ? paragraphNode.children : children, marks, ctx);
}

function raw(text: string, run: (text: string) => Run, ctx: Ctx, inLink: boolean): Piece<Inline>[] {
  const made = run(text);
  return inLink ? [run(unwrap(text))] : rawPieces([{ type: 'text', value: text }], made.marks, ctx);
}

function link(
  url: string,
  title: string | null | undefined,
  children: PhrasingContent[],
  marks: number,
  ctx: Ctx,
  inLink: boolean,
  color: string | undefined,
): Piece<Inline>[] {
  const content = pieces(children, marks, ctx, true, color);
  if (inLink) return content; // markdown has no link inside a link; kept for completeness
  const ref = contentRefFromUrl(url);
  if (title === 'mention') return [{ object: 'inline', type: 'mention', data: { ref }, isVoid: true }];
  const nodes = phrasingNodes(content.flatMap((p) => (isRun(p) || p.type === 'inline-image' ? [p] : [])));
  return [{ object: 'inline', type: 'link', data: { ref }, nodes }];
}

export function inlineImage(
  url: string,
  alt: string | null | undefined,
  title: string | null | undefined,
): DocumentInlineImage {
  const caption = captionText(title);
  return {
    object: 'inline',
    type: 'inline-image',
    data: { ref: refFromUrl(url), ...(alt ? { alt } : {}), ...(caption ? { caption } : {}) },
    isVoid: true,
  };
}

/** A footnote reference as an annotation holding its note's blocks (those an annotation may hold). */
function annotation(identifier: string, ctx: Ctx): DocumentInlineAnnotation | null {
  const definition = ctx.footnotes.get(identifier);
  if (!definition) return null;
  const blocks = ctx.flow(definition.children, 'annotation', ctx);
  const nodes = blocks.filter((b): b is DocumentAnnotationChild => holds('annotation', b.type));
  return {
    object: 'inline',
    type: 'annotation',
    nodes: [textNode([])],
    fragments: [
      {
        object: 'fragment',
        fragment: 'annotation-body',
        type: 'annotation-body',
        nodes: nodes.length > 0 ? nodes : [emptyParagraph()],
      },
    ],
    isVoid: false,
  };
}

/** The characters of texts and links (other inlines excluded), as GitHub reads a heading to make its anchor. */
export function plainText(nodes: DocumentBlockParagraph['nodes']): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
      if (node.type === 'link') return plainText(node.nodes);
      return '';
    })
    .join('');
}

/**
 * Raw text as a plain paragraph, one line per line (indentation and trailing spaces do not survive markdown).
 * URLs and e-mail addresses in it become links, as they will when its markdown is read again.
 */
export function rawParagraph(raw: string, ctx: Ctx): DocumentBlockParagraph {
  const lines = raw.trim().split('\n');
  const children = lines.flatMap((line, i): PhrasingContent[] => [
    ...(i > 0 ? [{ type: 'break' as const }] : []),
    { type: 'text', value: line.trim() },
  ]);
  return paragraph(phrasingNodes(rawPieces(children, 0, ctx)));
}
