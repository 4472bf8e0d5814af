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
