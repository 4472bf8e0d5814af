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

/** Every heading of the document, nested ones included, in reading order. */
export function headingsOf(document: JSONDocument): DocumentHeading[] {
  const out: DocumentHeading[] = [];
  const visit = (nodes: readonly AnyBlock[]) => {
    for (const node of nodes) {
      switch (node.type) {
        case 'heading-1':
        case 'heading-2':
        case 'heading-3':
          out.push({ id: node.meta?.id ?? '', title: plainText(node.nodes), depth: node.type === 'heading-1' ? 1 : node.type === 'heading-2' ? 2 : 3 });
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
      }
    }
  };
  visit(document.nodes);
  return out;
}

/**
 * The plain text of a document, for search: one line per paragraph, heading, list item line or code line,
 * table rows with their cells separated by tabs, image alternative texts and captions included, link
 * targets and formatting left out.
 */
export function textOf(document: JSONDocument): string {
  const lines: string[] = [];
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
        case 'heading-1':
        case 'heading-2':
        case 'heading-3':
          lines.push(inline(node.nodes));
          break;
        case 'code':
          for (const line of node.nodes) lines.push(line.nodes.map((t) => t.leaves.map((l) => l.text).join('')).join(''));
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
            lines.push([image.data.alt, ...caption].filter(Boolean).join(' '));
          }
          break;
        case 'table': {
          const { view, definition, records } = node.data;
          const cells = new Map(node.fragments.map((f) => [f.fragment, f.nodes.map((p) => inline(p.nodes)).join(' ')]));
          lines.push(view.columns.map((id) => definition[id]?.title ?? '').join('\t'));
          const rows = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
          for (const row of rows) lines.push(view.columns.map((id) => cells.get(row.values[id] ?? '') ?? '').join('\t'));
          break;
        }
        case 'divider':
          break;
      }
    }
  };
  visit(document.nodes);
  return lines
    .map((line) => line.replace(/[ \t]+$/, ''))
    .filter((line) => line.trim() !== '')
    .join('\n');
}
