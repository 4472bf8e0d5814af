// The blocks the `/` menu inserts, each as a TipTap command on the current block.
import type { Editor } from '@tiptap/core';
import type { EditorNode } from '@quire/document/editor';

export interface BlockChoice {
  id: string;
  label: string;
  hint: string;
  /** A choice the screen completes (a file to choose, a page to pick) instead of `run`. */
  action?:
    | 'image'
    | 'file'
    | 'drawing'
    | 'page'
    | 'openapi'
    | 'openapi-schemas'
    | 'openapi-webhook'
    | 'reusable'
    | 'integration'
    | 'button';
  run(editor: Editor): boolean;
}
const screenAction = (id: string, label: string, hint: string, action: BlockChoice['action']): BlockChoice => ({
  id,
  label,
  hint,
  action,
  run: () => false,
});

const p = (text?: string): EditorNode => ({
  type: 'paragraph',
  ...(text ? { content: [{ type: 'text', text }] } : {}),
});
const insert = (node: EditorNode) => (e: Editor) => e.chain().focus().insertContent(node).run();

const hint = (style: string): BlockChoice => ({
  id: `hint-${style}`,
  label: `Hint (${style})`,
  hint: 'A callout',
  run: insert({ type: 'hint', attrs: { data: { style } }, content: [p()] }),
});

const tableCell = (column: string): EditorNode => ({ type: 'tableCell', attrs: { column }, content: [p()] });

export const BLOCKS: BlockChoice[] = [
  { id: 'text', label: 'Text', hint: 'A paragraph', run: (e) => e.chain().focus().setParagraph().run() },
  ...[1, 2, 3].map((level) => ({
    id: `h${level}`,
    label: `Heading ${level}`,
    hint: `${'#'.repeat(level)} then a space`,
    run: (e: Editor) =>
      e
        .chain()
        .focus()
        .setHeading({ level: level as 1 | 2 | 3 })
        .run(),
  })),
  { id: 'ul', label: 'Bulleted list', hint: '- then a space', run: (e) => e.chain().focus().toggleBulletList().run() },
  {
    id: 'ol',
    label: 'Numbered list',
    hint: '1. then a space',
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  { id: 'tasks', label: 'Task list', hint: '[ ] then a space', run: (e) => e.chain().focus().toggleTaskList().run() },
  { id: 'quote', label: 'Quote', hint: '> then a space', run: (e) => e.chain().focus().setBlockquote().run() },
  { id: 'code', label: 'Code block', hint: '``` then a space', run: (e) => e.chain().focus().setCodeBlock().run() },
  hint('info'),
  hint('warning'),
  hint('danger'),
  hint('success'),
  { id: 'divider', label: 'Divider', hint: '--- ', run: (e) => e.chain().focus().setHorizontalRule().run() },
  {
    id: 'tabs',
    label: 'Tabs',
    hint: 'Content in tabs',
    run: insert({
      type: 'tabs',
      attrs: { data: {} },
      content: [
        { type: 'tabsItem', attrs: { data: { title: 'First tab' } }, content: [p()] },
        { type: 'tabsItem', attrs: { data: { title: 'Second tab' } }, content: [p()] },
      ],
    }),
  },
  {
    id: 'expandable',
    label: 'Expandable',
    hint: 'A title that opens',
    run: insert({
      type: 'expandable',
      attrs: { data: {} },
      content: [
        { type: 'expandableTitle', content: [p('Title')] },
        { type: 'expandableBody', content: [p()] },
      ],
    }),
  },
  {
    id: 'stepper',
    label: 'Stepper',
    hint: 'Numbered steps',
    run: insert({
      type: 'stepper',
      attrs: { data: {} },
      content: [
        { type: 'stepperStep', attrs: { data: {} }, content: [p()] },
        { type: 'stepperStep', attrs: { data: {} }, content: [p()] },
      ],
    }),
  },
  {
    id: 'columns',
    label: 'Columns',
    hint: 'Two columns side by side',
    run: insert({
      type: 'columns',
      attrs: { data: {} },
      content: [
        { type: 'column', attrs: { data: {} }, content: [p()] },
        { type: 'column', attrs: { data: {} }, content: [p()] },
      ],
    }),
  },
  screenAction('image', 'Image', 'Upload a picture (at most 1 MiB)', 'image'),
  screenAction('file', 'File', 'Upload a file (at most 1 MiB)', 'file'),
  screenAction('drawing', 'Drawing', 'Upload a drawing: an SVG or a picture (at most 1 MiB)', 'drawing'),
  screenAction('page-ref', 'Page reference', 'A card linking to a page of the space', 'page'),
  screenAction('openapi', 'OpenAPI operation', "An operation of the organization's specification", 'openapi'),
  screenAction('openapi-schemas', 'OpenAPI schemas', "Schemas of the organization's specification", 'openapi-schemas'),
  screenAction(
    'openapi-webhook',
    'OpenAPI webhook',
    "A webhook of the organization's specification",
    'openapi-webhook',
  ),
  screenAction('reusable', 'Reusable content', 'Content shared between pages', 'reusable'),
  screenAction(
    'integration',
    'Integration block…',
    'A block of an integration installed for this space',
    'integration',
  ),
  screenAction('button', 'Button', 'A button linking to a page or an address', 'button'),
  {
    id: 'math',
    label: 'Math',
    hint: 'A TeX formula (set it in the block settings)',
    run: insert({ type: 'mathBlock', attrs: { data: { formula: '' } } }),
  },
  {
    id: 'embed',
    label: 'Embed',
    hint: 'Content from a URL (set it in the block settings)',
    run: insert({ type: 'embed', attrs: { data: { url: '' } } }),
  },
  {
    id: 'if',
    label: 'Conditional content',
    hint: 'Shown when a condition holds',
    run: insert({ type: 'conditional', attrs: { data: { expression: '' } }, content: [p()] }),
  },
  {
    id: 'table',
    label: 'Table',
    hint: 'Two columns, two rows',
    run: insert({
      type: 'table',
      attrs: {
        data: {
          view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
          records: {},
          definition: {
            c1: { id: 'c1', title: 'Column 1', type: 'text', textAlignment: 'left' },
            c2: { id: 'c2', title: 'Column 2', type: 'text', textAlignment: 'left' },
          },
        },
      },
      content: [0, 1].map(() => ({ type: 'tableRow', content: [tableCell('c1'), tableCell('c2')] })),
    }),
  },
];

/** The choices matching what was typed after `/`. */
export const matching = (query: string): BlockChoice[] => {
  const q = query.toLowerCase();
  return BLOCKS.filter((b) => b.label.toLowerCase().includes(q) || b.id.startsWith(q));
};
