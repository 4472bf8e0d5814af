import type { BlockContent, Image, ListItem, PhrasingContent, TableCell, TableRow } from 'mdast';
import type {
  DocumentBlockCode,
  DocumentBlockImage,
  DocumentBlockListItem,
  DocumentBlockListOrdered,
  DocumentBlockListTasks,
  DocumentBlockListUnordered,
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentBlockTopLevel,
  DocumentInlineImage,
  DocumentText,
  JSONDocument,
} from '@quire/contracts';
import { captionText, normalizeRuns, runsOfLeaves, runsToMdast, type Run } from './leaves.ts';
import { hintMarkers, stringifyMarkdown } from './markdown-syntax.ts';
import { urlFromRef } from './refs.ts';

/**
 * GitBook JSON document → markdown, in the one canonical style of `markdown-syntax.ts` (the inverse of
 * `markdownToDocument`, see there for the mapping). What markdown cannot say is left out: empty paragraphs
 * (except where a container would be empty), heading anchors (recomputed from the text), the table header's
 * visibility, a line break in a heading (a space). Text in a table cell is one line: `\n` is written `<br>`.
 */
export function documentToMarkdown(document: JSONDocument): string {
  return stringifyMarkdown({ type: 'root', children: blocks(document.nodes) });
}

type AnyBlock = DocumentBlockTopLevel | DocumentBlockListItem['nodes'][number];

function blocks(nodes: readonly AnyBlock[]): BlockContent[] {
  return nodes.flatMap(block);
}

function block(node: AnyBlock): BlockContent[] {
  switch (node.type) {
    case 'paragraph': {
      const children = phrasing(node.nodes, 'break');
      while (children.at(-1)?.type === 'break') children.pop(); // markdown has no line break at the end of a paragraph
      return children.length > 0 ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [{ type: 'heading', depth: node.type === 'heading-1' ? 1 : node.type === 'heading-2' ? 2 : 3, children: phrasing(node.nodes, 'break') }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'code':
      return [code(node)];
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(node.nodes) }];
    case 'hint': {
      const [open, close] = hintMarkers(node.data.style);
      return [open, ...blocks(node.nodes), close];
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return [list(node)];
    case 'images':
      return [{ type: 'paragraph', children: node.nodes.flatMap((image, i): PhrasingContent[] => (i > 0 ? [{ type: 'text', value: '\n' }, picture(image)] : [picture(image)])) }];
    case 'table':
      return [table(node)];
  }
}

function code(node: DocumentBlockCode): BlockContent {
  const title = node.data.title;
  return {
    type: 'code',
    lang: node.data.syntax || null,
    meta: title ? `title="${title.replace(/[\\"]/g, '\\$&')}"` : null,
    value: node.nodes.map((line) => line.nodes.map(textOf).join('')).join('\n'),
  };
}

function list(node: DocumentBlockListOrdered | DocumentBlockListUnordered | DocumentBlockListTasks): BlockContent {
  const tasks = node.type === 'list-tasks';
  const items = node.nodes.map((item): ListItem => {
    const children = blocks(item.nodes);
    // a task's checkbox is written before its first paragraph: keep an empty one to carry it
    if (tasks && children[0]?.type !== 'paragraph') children.unshift({ type: 'paragraph', children: [] });
    // a tight item only when it is one block, or a paragraph and its sub-list: any other block would be
    // read as a lazy continuation of the one before
    const [first, second] = children;
    const tight = children.length === 1 || (children.length === 2 && first?.type === 'paragraph' && second?.type === 'list');
    return { type: 'listItem', spread: !tight, checked: tasks ? item.data?.checked === true : null, children };
  });
  return node.type === 'list-ordered'
    ? { type: 'list', ordered: true, start: node.data.start ?? 1, spread: false, children: items }
    : { type: 'list', ordered: false, spread: false, children: items };
}

function table(node: DocumentBlockTable): BlockContent {
  const columns = node.data.view.columns.flatMap((id) => {
    const column = node.data.definition[id];
    return column ? [column] : [];
  });
  const fragments = new Map(node.fragments.map((f) => [f.fragment, f]));
  const records = Object.entries(node.data.records).sort(([idA, a], [idB, b]) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0,
  );
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((column): TableCell => ({ type: 'tableCell', children: runsToMdast(normalizeRuns([{ text: column.title.trim(), marks: 0 }]), 'br') })),
  };
  const rows = records.map(([, record]): TableRow => ({
    type: 'tableRow',
    children: columns.map((column): TableCell => {
      const name = record.values[column.id];
      const paragraphs = (name === undefined ? undefined : fragments.get(name))?.nodes ?? [];
      const children = paragraphs
        .map((p) => phrasing(p.nodes, 'br'))
        .filter((content) => content.length > 0)
        .flatMap((content, i): PhrasingContent[] => (i > 0 ? [{ type: 'html', value: '<br>' }, ...content] : content));
      return { type: 'tableCell', children: trimCell(children) };
    }),
  }));
  return {
    type: 'table',
    align: columns.map((column) => (column.textAlignment === 'left' ? null : column.textAlignment)),
    children: [header, ...rows],
  };
}

/** GFM trims the spaces around a cell's content. */
function trimCell(children: PhrasingContent[]): PhrasingContent[] {
  const out = [...children];
  const first = out[0];
  if (first?.type === 'text') out[0] = { type: 'text', value: first.value.trimStart() };
  const last = out.at(-1);
  if (last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value.trimEnd() };
  return out.filter((node) => node.type !== 'text' || node.value !== '');
}

// ── Inline content ──────────────────────────────────────────────────────────────────────────────────────

const textOf = (text: DocumentText) => text.leaves.map((leaf) => leaf.text).join('');

/** Texts, links and images as mdast phrasing; consecutive text nodes are read as one. */
function phrasing(nodes: DocumentBlockParagraph['nodes'], lineBreak: 'break' | 'br'): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let runs: Run[] = [];
  const flush = () => {
    out.push(...runsToMdast(normalizeRuns(runs), lineBreak));
    runs = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') {
      runs.push(...runsOfLeaves(node.leaves));
      continue;
    }
    flush();
    if (node.type === 'link') out.push({ type: 'link', url: urlFromRef(node.data.ref), title: null, children: phrasing(node.nodes, lineBreak) });
    else out.push(inlinePicture(node));
  }
  flush();
  return out;
}

const inlinePicture = (node: DocumentInlineImage): Image => ({
  type: 'image',
  url: urlFromRef(node.data.ref),
  alt: node.data.alt ?? '',
  title: captionText(node.data.caption) || null,
});

function picture(image: DocumentBlockImage): Image {
  const caption = captionText(
    image.fragments
      .flatMap((f) => f.nodes)
      .map((p) => p.nodes.map((n) => (n.object === 'text' ? textOf(n) : '')).join(''))
      .join(' '),
  );
  return { type: 'image', url: urlFromRef(image.data.ref), alt: image.data.alt ?? '', title: caption || null };
}

