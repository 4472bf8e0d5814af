import type {
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockParagraph,
  DocumentBlockTopLevel,
  DocumentInlineImage,
  DocumentInlineLink,
  DocumentListItemChild,
  DocumentMarkType,
  DocumentRef,
  DocumentText,
  DocumentTextLeaf,
  JSONDocument,
} from '@quire/contracts/document';

/** Terse builders of the GitBook nodes the converter produces, for the tests' expectations. */

export const leaf = (text: string, ...marks: DocumentMarkType[]): DocumentTextLeaf => ({
  object: 'leaf',
  text,
  marks: marks.map((type) => ({ object: 'mark', type })),
});
export const text = (...leaves: (DocumentTextLeaf | string)[]): DocumentText => ({
  object: 'text',
  leaves: leaves.length === 0 ? [leaf('')] : leaves.map((l) => (typeof l === 'string' ? leaf(l) : l)),
});
export const url = (u: string): DocumentRef => ({ kind: 'url', url: u });
export const file = (id: string, space?: string): DocumentRef =>
  space === undefined ? { kind: 'file', file: id } : { kind: 'file', file: id, space };
export const link = (ref: DocumentRef, ...nodes: (DocumentText | DocumentInlineImage)[]): DocumentInlineLink => ({
  object: 'inline',
  type: 'link',
  data: { ref },
  nodes,
});
export const inlineImage = (ref: DocumentRef, data: { alt?: string; caption?: string } = {}): DocumentInlineImage => ({
  object: 'inline',
  type: 'inline-image',
  data: { ref, ...data },
  isVoid: true,
});
export const p = (...nodes: DocumentBlockParagraph['nodes']): DocumentBlockParagraph => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes,
});
export const para = (...leaves: (DocumentTextLeaf | string)[]) => p(text(...leaves));
export const heading = (
  level: 1 | 2 | 3,
  id: string,
  ...leaves: (DocumentTextLeaf | string)[]
): DocumentBlockTopLevel => ({
  object: 'block',
  type: `heading-${level}`,
  data: {},
  meta: { id },
  nodes: [text(...leaves)],
});
export const item = (...nodes: DocumentListItemChild[]) => ({
  object: 'block' as const,
  type: 'list-item' as const,
  data: {},
  nodes,
});
export const task = (checked: boolean, ...nodes: DocumentListItemChild[]) => ({
  object: 'block' as const,
  type: 'list-item' as const,
  data: { checked },
  nodes,
});
export const codeLine = (line: string) => ({
  object: 'block' as const,
  type: 'code-line' as const,
  data: {},
  nodes: [text(line)],
});
export const divider = { object: 'block', type: 'divider', data: {}, isVoid: true } as const;
export const doc = (...nodes: DocumentBlockTopLevel[]): JSONDocument => ({ object: 'document', data: {}, nodes });
/** One image of an images block: its `data` (the ref, alt…) and its caption's blocks, if any. */
export const image = (
  data: DocumentBlockImage['data'],
  ...caption: DocumentBlockImage['fragments'][number]['nodes']
): DocumentBlockImage => ({
  object: 'block',
  type: 'image',
  data,
  fragments: caption.length ? [{ object: 'fragment', fragment: 'caption', nodes: caption }] : [],
  isVoid: true,
});
export const images = (...nodes: DocumentBlockImage[]): DocumentBlockImages => ({
  object: 'block',
  type: 'images',
  data: {},
  isVoid: false,
  nodes,
});

const NODE_OBJECTS = new Set<unknown>(['block', 'inline', 'fragment']);

/** Every node type of a JSON document (blocks and inlines, fragments and data included) and its marks as `mark:<type>`. */
export function typesOf(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const child of node) typesOf(child, out);
  else if (node !== null && typeof node === 'object') {
    const o = node as { object?: unknown; type?: unknown; marks?: { type: string }[] };
    if (NODE_OBJECTS.has(o.object) && typeof o.type === 'string') out.add(o.type);
    for (const mark of o.marks ?? []) out.add(`mark:${mark.type}`);
    for (const value of Object.values(o)) if (value !== null && typeof value === 'object') typesOf(value, out);
  }
  return out;
}

/** The node types and marks a page holding every block GitBook writes in markdown yields (as `typesOf` names them). */
export const MARKDOWN_NODE_TYPES: readonly string[] = [
  'paragraph',
  'blockquote',
  'divider',
  'list-unordered',
  'list-ordered',
  'list-tasks',
  'list-item',
  'hint',
  'code',
  'code-line',
  'tabs',
  'tabs-item',
  'expandable',
  'stepper',
  'stepper-step',
  'columns',
  'column',
  'table',
  'embed',
  'content-ref',
  'file',
  'images',
  'image',
  'math',
  'reusable-content',
  'if',
  'openapi-operation',
  'link',
  'mention',
  'icon',
  'expression',
  'button',
  'inline-math',
  'annotation',
  'emoji',
  'mark:bold',
  'mark:italic',
  'mark:strikethrough',
  'mark:code',
  'mark:color',
  'mark:subscript',
  'mark:superscript',
  'mark:keyboard',
];

/** A JSON document as a client writes one, with no optional field: a `Title` heading, then `Hello **world**`. */
export const CLIENT_JSON_DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'heading-1',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [] }] }],
    },
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [
            { object: 'leaf', text: 'Hello ', marks: [] },
            { object: 'leaf', text: 'world', marks: [{ object: 'mark', type: 'bold' }] },
          ],
        },
      ],
    },
  ],
};
