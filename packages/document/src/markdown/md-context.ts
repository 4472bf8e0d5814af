import type { Definition, FootnoteDefinition, Node, RootContent } from 'mdast';
import type { DocumentBlockParagraph, DocumentBlockTopLevel } from '@quire/contracts/document';
import { textNode } from './leaves.ts';

/** Where blocks are being read: decides what may be made there (images blocks only where GitBook has them). */
export type Container =
  | 'document'
  | 'list-item'
  | 'blockquote'
  | 'hint'
  | 'tabs-item'
  | 'stepper-step'
  | 'update'
  | 'column'
  | 'expandable'
  | 'annotation'
  | 'if'
  | 'conflict-side';

/** What reading one markdown text needs. */
export interface Ctx {
  source: string;
  definitions: Map<string, Definition>;
  footnotes: Map<string, FootnoteDefinition>;
  slugger: { slug(value: string): string };
  /** How many containers deep the blocks being read are (see MAX_NESTING). */
  depth: number;
  /** The blocks of a list of mdast siblings (markdown-to-document's flow). */
  flow(children: RootContent[], container: Container, ctx: Ctx): DocumentBlockTopLevel[];
}

export function sourceOf(node: Node, ctx: Ctx): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start === undefined || end === undefined ? '' : ctx.source.slice(start, end);
}

/** The source between two nodes (after the end of `from`, before the start of `to`). */
export function sourceBetween(from: Node, to: Node, ctx: Ctx): string {
  const start = from.position?.end.offset;
  const end = to.position?.start.offset;
  return start === undefined || end === undefined ? '' : ctx.source.slice(start, end);
}

export const paragraph = (nodes: DocumentBlockParagraph['nodes']): DocumentBlockParagraph => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes,
});
export const emptyParagraph = () => paragraph([textNode([])]);
export const textParagraph = (text: string) => paragraph([textNode([{ text, marks: 0 }])]);
export const isEmptyParagraph = (p: DocumentBlockParagraph) =>
  p.nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.text === ''));

/** The value of `name="…"` in an HTML tag's attributes, entities decoded. */
export function attribute(attributes: string, name: string): string | undefined {
  const value = new RegExp(`(?:^|\\s)${name}="([^"]*)"`, 'i').exec(attributes)?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    const hex = name[1] === 'x' || name[1] === 'X';
    const code = name[0] !== '#' ? undefined : hex ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Text as HTML text or attribute value. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Text in GitBook's HTML (its tables, aligned paragraphs, figures' captions, buttons…) as GitBook's Git Sync writes it
 * (hast's serializer): `&` as `&#x26;`, `<` as `&#x3C;`, nothing else (`>` stays as it is).
 */
export const gitbookHtmlText = (text: string) => text.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;');

/** An attribute's value (in double quotes) in GitBook's HTML, as GitBook writes it: `&` as `&#x26;`, `"` as `&#x22;`. */
export const gitbookHtmlAttribute = (value: string) => value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;');

/**
 * HTML with each character reference written as GitBook writes it (`gitbookHtmlText` in text, `gitbookHtmlAttribute` in
 * a tag: `&amp;`, `&#38;` → `&#x26;`; `&lt;` → `&#x3C;` in text; `&quot;` → `&#x22;` in a tag; any other → the
 * character): the same HTML, meaning unchanged, so a block read from it is kept when writing it back gives it in this
 * form (what an older writer wrote `&amp;` is now `&#x26;`).
 */
export function gitbookEntities(html: string): string {
  if (!html.includes('&')) return html;
  return html.replace(/<[^<>]*>|[^<]+|</g, (part) => {
    const tag = part.startsWith('<');
    return part.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole) => {
      const c = decodeEntities(whole);
      if (c === whole) return whole;
      return c === '&' ? '&#x26;' : c === '<' && !tag ? '&#x3C;' : c === '"' && tag ? '&#x22;' : c;
    });
  });
}
