import type {
  DocumentBlock,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentInlineImage,
  DocumentTableRecordValue,
  DocumentText,
  JSONDocument,
} from '@quire/contracts/document';
import { emojiText, plainText } from './markdown/md-inlines.ts';

export interface DocumentHeading {
  /** Anchor of the heading, as GitHub generates it (`## Getting started` → `getting-started`, repeats get `-1`, `-2`…). */
  id: string;
  /** Plain text of the heading. */
  title: string;
  /** 1 to 3, as in the document (markdown's `####` and deeper count as 3). */
  depth: 1 | 2 | 3;
}

/** A section of a document: a heading and the text up to the next heading (of any depth). */
export interface DocumentSection {
  /** The heading opening the section; null for the text before the first heading. */
  heading: DocumentHeading | null;
  /** Plain text of the section, as `textOf` gives it, the heading itself left out. */
  text: string;
}

/** A document, or any run of blocks (a fragment's, a block's children): what `textOf` reads. */
export interface Blocks {
  readonly nodes: readonly DocumentBlock[];
}

const headingDepth = (type: 'heading-1' | 'heading-2' | 'heading-3'): 1 | 2 | 3 =>
  type === 'heading-1' ? 1 : type === 'heading-2' ? 2 : 3;

/**
 * The text of a document line by line, in reading order: one line per paragraph, heading, list item line or
 * code line, table rows with their cells separated by tabs, image alternative texts and captions, tab titles,
 * expandable summaries, footnote bodies (after their line), embed and content-ref URLs included, link targets
 * and formatting left out. Headings are told apart (`heading` set), for sections.
 */
function linesOf(document: Blocks): { text: string; heading?: DocumentHeading }[] {
  const lines: { text: string; heading?: DocumentHeading }[] = [];
  const paragraphs = (nodes: readonly DocumentBlockParagraph[]) => nodes.map((p) => inlineText(p.nodes)).join(' ');
  const visit = (node: DocumentBlock) => {
    switch (node.type) {
      case 'paragraph':
        lines.push({ text: inlineText(node.nodes) });
        notesOf(node.nodes).forEach(visit);
        return;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const heading = { id: node.meta?.id ?? '', title: plainText(node.nodes), depth: headingDepth(node.type) };
        lines.push({ text: inlineText(node.nodes), heading });
        notesOf(node.nodes).forEach(visit);
        return;
      }
      case 'tabs-item':
        lines.push({ text: node.data.title ?? '' });
        node.nodes.forEach(visit);
        return;
      case 'embed':
        lines.push({ text: node.data.url });
        return;
      case 'content-ref':
        if (node.data.ref.kind === 'url') lines.push({ text: node.data.ref.url });
        return;
      case 'code':
        for (const line of node.nodes)
          lines.push({ text: line.nodes.map((t) => (t.object === 'text' ? leavesText(t) : '')).join('') });
        return;
      case 'math':
        lines.push({ text: node.data.formula });
        return;
      case 'images':
        for (const image of node.nodes)
          lines.push({
            text: [image.data.alt, paragraphs(image.fragments.flatMap((f) => f.nodes))].filter(Boolean).join(' '),
          });
        return;
      case 'file':
        if (node.data.caption) lines.push({ text: node.data.caption });
        return;
      case 'expandable':
        for (const fragment of node.fragments) {
          if (fragment.type === 'expandable-title') lines.push({ text: paragraphs(fragment.nodes) });
          else fragment.nodes.forEach(visit);
        }
        return;
      case 'table':
        tableLines(node).forEach((text) => lines.push({ text }));
        return;
      default:
        otherBlock(node, visit, (text) => lines.push({ text }));
    }
  };
  document.nodes.forEach(visit);
  for (const line of lines) line.text = line.text.replace(/[ \t]+$/, '');
  return lines;
}

/**
 * A block of any other type: its blocks visited in turn, or, a block of a type this version does not know holding
 * text rather than blocks, its text as one line.
 */
function otherBlock(node: DocumentBlock, visit: (block: DocumentBlock) => void, line: (text: string) => void): void {
  if (!('nodes' in node)) return;
  const children = node.nodes as readonly (DocumentBlock | DocumentBlockParagraph['nodes'][number])[];
  if (children.some((child) => child.object !== 'block')) line(inlineText(children as DocumentBlockParagraph['nodes']));
  else (children as readonly DocumentBlock[]).forEach(visit);
}

/** The bodies of the footnotes (annotations) of a line, links' included: lines of their own after it. */
function notesOf(nodes: DocumentBlockParagraph['nodes']): DocumentBlock[] {
  return nodes.flatMap((node): DocumentBlock[] => {
    if (node.object !== 'inline') return [];
    if (node.type === 'annotation') return node.fragments.flatMap((f) => f.nodes as DocumentBlock[]);
    return node.type === 'link' ? notesOf(node.nodes) : [];
  });
}

export const leavesText = (text: DocumentText) => text.leaves.map((leaf) => leaf.text).join('');

/** How `phrasingText` reads an inline image and an emoji: what each reader of a document's text wants of them. */
export interface PhrasingReading {
  image: (data: DocumentInlineImage['data']) => string;
  emoji: (code: string) => string;
  /** An expression's text (`space.vars.x`); its source when not given. */
  expression?: (expression: string) => string;
}

/** The plain text of phrasing nodes: texts, link and annotation texts, formulas, expressions, labels, images, emoji. */
export function phrasingText(nodes: DocumentBlockParagraph['nodes'], reading: PhrasingReading): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') return leavesText(node);
      switch (node.type) {
        case 'link':
          return phrasingText(node.nodes, reading);
        case 'inline-image':
          return reading.image(node.data);
        case 'emoji':
          return reading.emoji(node.data.code);
        case 'inline-math':
          return node.data.formula;
        case 'expression':
          return reading.expression ? reading.expression(node.data.expression) : node.data.expression;
        case 'button':
          return node.data.label;
        case 'annotation':
          return node.nodes.map(leavesText).join('');
        default:
          return '';
      }
    })
    .join('');
}

/** Texts, link texts, image alternative texts and captions, emoji, formulas and expressions of a line. */
const inlineText = (nodes: DocumentBlockParagraph['nodes']) =>
  phrasingText(nodes, { image: (data) => [data.alt, data.caption].filter(Boolean).join(' '), emoji: emojiText });

/** The header row, then each row in order, cells separated by tabs. */
function tableLines(node: DocumentBlockTable): string[] {
  const { view, definition, records } = node.data;
  const cells = new Map(node.fragments.map((f) => [f.fragment, f.nodes.map((p) => inlineText(p.nodes)).join(' ')]));
  const cell = (value: DocumentTableRecordValue | undefined) =>
    typeof value === 'string'
      ? (cells.get(value) ?? value)
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : '';
  const rows = Object.values(records).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
  return [
    view.columns.map((id) => definition[id]?.title ?? '').join('\t'),
    ...rows.map((row) => view.columns.map((id) => cell(row.values[id])).join('\t')),
  ];
}

/** Every heading of the document, nested ones included, in reading order. */
export function headingsOf(document: JSONDocument): DocumentHeading[] {
  return linesOf(document).flatMap((line) => (line.heading ? [line.heading] : []));
}

const joinText = (lines: readonly { text: string }[]) =>
  lines
    .map((line) => line.text)
    .filter((text) => text.trim() !== '')
    .join('\n');

/**
 * The plain text of a document, for search: one line per paragraph, heading, list item line or code line,
 * table rows with their cells separated by tabs, image alternative texts and captions included, link
 * targets and formatting left out.
 */
export function textOf(document: Blocks): string {
  return joinText(linesOf(document));
}

/**
 * The sections of a document, in reading order: the text before the first heading (when there is some), then
 * one per heading (nested ones included) with the text up to the next heading.
 */
export function sectionsOf(document: JSONDocument): DocumentSection[] {
  const sections: { heading: DocumentHeading | null; lines: { text: string }[] }[] = [];
  let current: (typeof sections)[number] = { heading: null, lines: [] };
  for (const line of linesOf(document)) {
    if (!line.heading) {
      current.lines.push(line);
      continue;
    }
    if (current.heading || joinText(current.lines) !== '') sections.push(current);
    current = { heading: line.heading, lines: [] };
  }
  if (current.heading || joinText(current.lines) !== '') sections.push(current);
  return sections.map((s) => ({ heading: s.heading, text: joinText(s.lines) }));
}
