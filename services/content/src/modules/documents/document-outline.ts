import type { DocumentBlockParagraph, DocumentBlockTopLevel, JSONDocument } from '@quire/contracts';
import { plainText } from './markdown-to-document.ts';

type AnyBlock = DocumentBlockTopLevel | Extract<DocumentBlockTopLevel, { type: 'list-ordered' }>['nodes'][number]['nodes'][number];

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

const headingDepth = (type: 'heading-1' | 'heading-2' | 'heading-3') => (type === 'heading-1' ? 1 : type === 'heading-2' ? 2 : 3);

/**
 * The text of a document line by line, in reading order: one line per paragraph, heading, list item line or
 * code line, table rows with their cells separated by tabs, image alternative texts and captions included,
 * link targets and formatting left out. Headings are told apart (`heading` set), for sections.
 */
function linesOf(document: JSONDocument): { text: string; heading?: DocumentHeading }[] {
  const lines: { text: string; heading?: DocumentHeading }[] = [];
  const inline = (nodes: DocumentBlockParagraph['nodes']): string =>
    nodes
      .map((node) => {
        if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
        if (node.type === 'link') return inline(node.nodes);
        return [node.data.alt, node.data.caption].filter(Boolean).join(' ');
      })
      .join('');
  const visit = (nodes: readonly AnyBlock[]) => {
    for (const node of nodes) {
      switch (node.type) {
        case 'paragraph':
          lines.push({ text: inline(node.nodes) });
          break;
        case 'heading-1':
        case 'heading-2':
        case 'heading-3':
          lines.push({ text: inline(node.nodes), heading: { id: node.meta?.id ?? '', title: plainText(node.nodes), depth: headingDepth(node.type) } });
          break;
        case 'code':
          for (const line of node.nodes) lines.push({ text: line.nodes.map((t) => t.leaves.map((l) => l.text).join('')).join('') });
          break;
        case 'blockquote':
        case 'hint':
          visit(node.nodes);
          break;
        case 'list-ordered':
        case 'list-unordered':
        case 'list-tasks':
          for (const item of node.nodes) visit(item.nodes);
          break;
        case 'images':
          for (const image of node.nodes) {
            const caption = image.fragments.flatMap((f) => f.nodes).map((p) => inline(p.nodes));
            lines.push({ text: [image.data.alt, ...caption].filter(Boolean).join(' ') });
          }
          break;
        case 'table': {
          const { view, definition, records } = node.data;
          const cells = new Map(node.fragments.map((f) => [f.fragment, f.nodes.map((p) => inline(p.nodes)).join(' ')]));
          lines.push({ text: view.columns.map((id) => definition[id]?.title ?? '').join('\t') });
          const rows = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
          for (const row of rows) lines.push({ text: view.columns.map((id) => cells.get(row.values[id] ?? '') ?? '').join('\t') });
          break;
        }
        case 'divider':
          break;
      }
    }
  };
  visit(document.nodes);
  for (const line of lines) line.text = line.text.replace(/[ \t]+$/, '');
  return lines;
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
export function textOf(document: JSONDocument): string {
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
