import { z } from 'zod';

/**
 * GitBook's `JSONDocument` (a page's content as a tree of blocks, inlines, texts and leaves), restricted to
 * the nodes Quire stores. Every shape below is GitBook's shape of the same name (openapi `components.schemas`):
 * required fields are required here too, `isVoid` is `true`/`false` exactly where GitBook fixes it, and the
 * optional `key` is accepted where GitBook has it. Unknown fields are stripped, unknown node types are a 400.
 *
 * Containment follows GitBook: a list item holds essentials, code, hints, quotes and tables; a quote holds
 * essentials and quotes; a hint holds essentials and tables; images and code blocks are top-level (code also
 * in list items); a table's cells are fragments of paragraphs.
 */

const KeySchema = z.string().optional().describe('Identifier of the node within its document');

// ── Marks, leaves, texts ────────────────────────────────────────────────────────────────────────────────

const mark = <T extends string>(type: T, description: string) =>
  z
    .object({
      object: z.literal('mark').describe('Always `mark`'),
      type: z.literal(type).describe(description),
    })
    .describe(`DocumentMark ${type}`);

export const DocumentMarkBoldSchema = mark('bold', 'Bold text');
export const DocumentMarkItalicSchema = mark('italic', 'Italic text');
export const DocumentMarkStrikethroughSchema = mark('strikethrough', 'Struck-through text');
export const DocumentMarkCodeSchema = mark('code', 'Inline code');
export const DocumentTextMarkSchema = z
  .discriminatedUnion('type', [DocumentMarkBoldSchema, DocumentMarkItalicSchema, DocumentMarkStrikethroughSchema, DocumentMarkCodeSchema])
  .describe('A formatting applied to a leaf of text');
export type DocumentTextMark = z.infer<typeof DocumentTextMarkSchema>;
/** The mark types Quire supports, in the order a leaf lists them. */
export const DOCUMENT_MARK_TYPES = ['bold', 'italic', 'strikethrough', 'code'] as const;
export type DocumentMarkType = (typeof DOCUMENT_MARK_TYPES)[number];

export const DocumentTextLeafSchema = z
  .object({
    object: z.literal('leaf').describe('Always `leaf`'),
    text: z.string().describe('The characters of the leaf; `\\n` is a line break'),
    marks: z.array(DocumentTextMarkSchema).describe('Formatting of the whole leaf'),
  })
  .describe('A run of characters sharing the same marks');
export type DocumentTextLeaf = z.infer<typeof DocumentTextLeafSchema>;

export const DocumentTextSchema = z
  .object({
    object: z.literal('text').describe('Always `text`'),
    key: KeySchema,
    leaves: z.array(DocumentTextLeafSchema).describe('The runs of characters of the text, in order'),
  })
  .describe('A text node: a sequence of leaves');
export type DocumentText = z.infer<typeof DocumentTextSchema>;

// ── References ──────────────────────────────────────────────────────────────────────────────────────────

export const ContentRefURLSchema = z
  .object({
    kind: z.literal('url').describe('Always `url`'),
    url: z.string().describe('Absolute or relative URL'),
  })
  .describe('A reference to a URL');
export const ContentRefFileSchema = z
  .object({
    kind: z.literal('file').describe('Always `file`'),
    file: z.string().min(1).describe('Unique identifier of the file'),
    space: z.string().min(1).optional().describe('ID of the space the file is in; the current space when absent'),
  })
  .describe('A reference to a file of a space');
export const DocumentRefSchema = z
  .discriminatedUnion('kind', [ContentRefURLSchema, ContentRefFileSchema])
  .describe('What a link or an image points to: a URL or a file');
export type DocumentRef = z.infer<typeof DocumentRefSchema>;

// ── Inlines ─────────────────────────────────────────────────────────────────────────────────────────────

export const DocumentInlineImageSchema = z
  .object({
    object: z.literal('inline').describe('Always `inline`'),
    type: z.literal('inline-image').describe('Always `inline-image`'),
    key: KeySchema,
    data: z
      .object({
        ref: DocumentRefSchema.describe('The image'),
        alt: z.string().optional().describe('Alternative text of the image'),
        caption: z.string().optional().describe('Caption of the image (the markdown image title)'),
      })
      .describe('What the image shows'),
    isVoid: z.literal(true).describe('Always `true`'),
  })
  .describe('An image inside a line of text');
export type DocumentInlineImage = z.infer<typeof DocumentInlineImageSchema>;

export const DocumentInlineLinkSchema = z
  .object({
    object: z.literal('inline').describe('Always `inline`'),
    type: z.literal('link').describe('Always `link`'),
    key: KeySchema,
    data: z.object({ ref: DocumentRefSchema.describe('Target of the link') }).describe('Where the link goes'),
    nodes: z.array(z.union([DocumentTextSchema, DocumentInlineImageSchema])).describe('The linked texts and images'),
    isVoid: z.literal(false).optional().describe('Always `false` when present'),
  })
  .describe('A link');
export type DocumentInlineLink = z.infer<typeof DocumentInlineLinkSchema>;

export const DocumentInlineSchema = z
  .discriminatedUnion('type', [DocumentInlineLinkSchema, DocumentInlineImageSchema])
  .describe('An inline node: a link or an image');
export type DocumentInline = z.infer<typeof DocumentInlineSchema>;

const phrasing = () =>
  z
    .array(z.union([DocumentTextSchema, DocumentInlineSchema]))
    .describe('Texts and inlines: every inline sits between two texts (possibly empty)');

// ── Blocks ──────────────────────────────────────────────────────────────────────────────────────────────

const blockBase = {
  object: z.literal('block').describe('Always `block`'),
  key: KeySchema,
};
const notVoid = z.literal(false).optional().describe('Always `false` when present');

export const DocumentBlockParagraphSchema = z
  .object({
    ...blockBase,
    type: z.literal('paragraph').describe('Always `paragraph`'),
    data: z.object({}).optional().describe('Always empty'),
    nodes: phrasing(),
    isVoid: notVoid,
  })
  .describe('A paragraph');
export type DocumentBlockParagraph = z.infer<typeof DocumentBlockParagraphSchema>;

export const HEADING_TYPES = ['heading-1', 'heading-2', 'heading-3'] as const;
export const DocumentBlockHeadingSchema = z
  .object({
    ...blockBase,
    type: z.enum(HEADING_TYPES).describe('Level of the heading: `heading-1` to `heading-3`'),
    data: z
      .object({
        id: z
          .string()
          .regex(/^[-a-z0-9.+_]+$/)
          .optional()
          .describe('Custom anchor of the heading'),
      })
      .describe('Options of the heading'),
    meta: z
      .object({ id: z.string().describe('Anchor of the heading in the page URL, as GitHub generates it') })
      .optional()
      .describe('Computed facts about the heading'),
    nodes: phrasing(),
    isVoid: notVoid,
  })
  .describe('A heading');
export type DocumentBlockHeading = z.infer<typeof DocumentBlockHeadingSchema>;

export const DocumentBlockDividerSchema = z
  .object({
    ...blockBase,
    type: z.literal('divider').describe('Always `divider`'),
    data: z.object({}).describe('Always empty'),
    isVoid: z.literal(true).describe('Always `true`'),
  })
  .describe('A horizontal rule');
export type DocumentBlockDivider = z.infer<typeof DocumentBlockDividerSchema>;

export const DocumentBlockCodeLineSchema = z
  .object({
    ...blockBase,
    type: z.literal('code-line').describe('Always `code-line`'),
    data: z.object({}).describe('Always empty'),
    nodes: z.array(DocumentTextSchema).describe('The text of the line (marks are ignored)'),
    isVoid: notVoid,
  })
  .describe('One line of a code block');
export type DocumentBlockCodeLine = z.infer<typeof DocumentBlockCodeLineSchema>;

export const DocumentBlockCodeSchema = z
  .object({
    ...blockBase,
    type: z.literal('code').describe('Always `code`'),
    data: z
      .object({
        syntax: z.string().optional().describe('Language of the code, for highlighting (the markdown info string)'),
        title: z.string().optional().describe('Title shown above the code (markdown: `title="…"` after the language)'),
      })
      .describe('Options of the code block'),
    nodes: z.array(DocumentBlockCodeLineSchema).describe('The lines of the code, one node per line'),
    isVoid: notVoid,
  })
  .describe('A block of code');
export type DocumentBlockCode = z.infer<typeof DocumentBlockCodeSchema>;

export const DocumentTableDefinitionTextSchema = z
  .object({
    id: z.string().describe('Unique identifier of the column in the table'),
    title: z.string().describe('Title of the column (the header cell)'),
    type: z.literal('text').describe('Always `text`: cells are rich text'),
    textAlignment: z.enum(['left', 'center', 'right']).describe('Alignment of the cells of the column'),
  })
  .describe('A text column');
export type DocumentTableDefinitionText = z.infer<typeof DocumentTableDefinitionTextSchema>;

export const DocumentTableRecordSchema = z
  .object({
    orderIndex: z.string().describe('Sort key of the row among the rows (fractional index)'),
    values: z
      .record(z.string(), z.string())
      .describe('Cell of each column: column ID → name of the fragment holding the cell'),
  })
  .describe('A row of the table');
export type DocumentTableRecord = z.infer<typeof DocumentTableRecordSchema>;

export const DocumentTableCellFragmentSchema = z
  .object({
    object: z.literal('fragment').describe('Always `fragment`'),
    key: KeySchema,
    fragment: z.string().describe('Name of the fragment, as referenced from a record value'),
    nodes: z.array(DocumentBlockParagraphSchema).describe('Content of the cell'),
  })
  .describe('The content of one table cell');
export type DocumentTableCellFragment = z.infer<typeof DocumentTableCellFragmentSchema>;

export const DocumentBlockTableSchema = z
  .object({
    ...blockBase,
    type: z.literal('table').describe('Always `table`'),
    data: z
      .object({
        view: z
          .object({
            type: z.literal('grid').describe('Always `grid`'),
            columns: z.array(z.string()).describe('Ordered list of the column IDs to display'),
            hideHeader: z.boolean().describe('Whether the header row with the column titles is hidden'),
          })
          .describe('How the table is displayed'),
        records: z.record(z.string(), DocumentTableRecordSchema).describe('The rows, by ID'),
        definition: z.record(z.string(), DocumentTableDefinitionTextSchema).describe('The columns, by ID'),
      })
      .describe('Rows and columns of the table'),
    fragments: z.array(DocumentTableCellFragmentSchema).describe('The cells'),
    isVoid: z.literal(true).describe('Always `true`'),
  })
  .describe('A table');
export type DocumentBlockTable = z.infer<typeof DocumentBlockTableSchema>;

export const DocumentImageCaptionSchema = z
  .object({
    object: z.literal('fragment').describe('Always `fragment`'),
    key: KeySchema,
    fragment: z.literal('caption').describe('Always `caption`'),
    nodes: z.array(DocumentBlockParagraphSchema).describe('The caption'),
  })
  .describe('Caption of an image');

export const DocumentBlockImageSchema = z
  .object({
    ...blockBase,
    type: z.literal('image').describe('Always `image`'),
    data: z
      .object({
        ref: DocumentRefSchema.describe('The image'),
        alt: z.string().optional().describe('Alternative text of the image'),
      })
      .describe('What the image shows'),
    fragments: z.array(DocumentImageCaptionSchema).describe('The caption, when there is one (the markdown image title)'),
    isVoid: z.literal(true).describe('Always `true`'),
  })
  .describe('One image of an images block');
export type DocumentBlockImage = z.infer<typeof DocumentBlockImageSchema>;

export const DocumentBlockImagesSchema = z
  .object({
    ...blockBase,
    type: z.literal('images').describe('Always `images`'),
    data: z.object({}).describe('Options of the images block'),
    nodes: z.array(DocumentBlockImageSchema).describe('The images, side by side'),
    isVoid: z.literal(false).describe('Always `false`'),
  })
  .describe('A block of one or more images');
export type DocumentBlockImages = z.infer<typeof DocumentBlockImagesSchema>;

// Lists, quotes and hints nest: their `nodes` are getters so the schemas can refer to one another.

export interface DocumentBlockListItem {
  object: 'block';
  type: 'list-item';
  key?: string | undefined;
  data?: { checked?: boolean | undefined } | undefined;
  nodes: DocumentListItemChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListOrdered {
  object: 'block';
  type: 'list-ordered';
  key?: string | undefined;
  data: { start?: number | undefined };
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListUnordered {
  object: 'block';
  type: 'list-unordered';
  key?: string | undefined;
  data?: Record<string, never> | undefined;
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListTasks {
  object: 'block';
  type: 'list-tasks';
  key?: string | undefined;
  data?: Record<string, never> | undefined;
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockQuote {
  object: 'block';
  type: 'blockquote';
  key?: string | undefined;
  data?: Record<string, never> | undefined;
  nodes: DocumentQuoteChild[];
  isVoid?: false | undefined;
}
export const HINT_STYLES = ['info', 'warning', 'danger', 'success'] as const;
export type DocumentHintStyle = (typeof HINT_STYLES)[number];
export interface DocumentBlockHint {
  object: 'block';
  type: 'hint';
  key?: string | undefined;
  data: { style: DocumentHintStyle };
  nodes: DocumentHintChild[];
  isVoid?: false | undefined;
}
export type DocumentBlockEssential =
  | DocumentBlockParagraph
  | DocumentBlockHeading
  | DocumentBlockListOrdered
  | DocumentBlockListUnordered
  | DocumentBlockListTasks
  | DocumentBlockDivider;
export type DocumentListItemChild = DocumentBlockEssential | DocumentBlockCode | DocumentBlockHint | DocumentBlockQuote | DocumentBlockTable;
export type DocumentQuoteChild = DocumentBlockEssential | DocumentBlockQuote;
export type DocumentHintChild = DocumentBlockEssential | DocumentBlockTable;
export type DocumentBlockTopLevel =
  | DocumentBlockEssential
  | DocumentBlockQuote
  | DocumentBlockHint
  | DocumentBlockImages
  | DocumentBlockCode
  | DocumentBlockTable;

const EmptyDataSchema = z.object({}).optional().describe('Always empty');

export const DocumentBlockListItemSchema = z
  .object({
    ...blockBase,
    type: z.literal('list-item').describe('Always `list-item`'),
    data: z
      .object({ checked: z.boolean().optional().describe('Whether the task is done (task lists only)') })
      .optional()
      .describe('Options of the item'),
    get nodes(): z.ZodType<DocumentListItemChild[]> {
      return z.array(DocumentListItemChildSchema).describe('Content of the item');
    },
    isVoid: notVoid,
  })
  .describe('An item of a list');

const listItems = () => z.array(DocumentBlockListItemSchema).describe('The items of the list');

export const DocumentBlockListOrderedSchema = z
  .object({
    ...blockBase,
    type: z.literal('list-ordered').describe('Always `list-ordered`'),
    data: z
      .object({ start: z.number().int().optional().describe('Number of the first item (1 when absent)') })
      .describe('Options of the list'),
    get nodes(): z.ZodType<DocumentBlockListItem[]> {
      return listItems();
    },
    isVoid: notVoid,
  })
  .describe('A numbered list');

export const DocumentBlockListUnorderedSchema = z
  .object({
    ...blockBase,
    type: z.literal('list-unordered').describe('Always `list-unordered`'),
    data: EmptyDataSchema,
    get nodes(): z.ZodType<DocumentBlockListItem[]> {
      return listItems();
    },
    isVoid: notVoid,
  })
  .describe('A bulleted list');

export const DocumentBlockListTasksSchema = z
  .object({
    ...blockBase,
    type: z.literal('list-tasks').describe('Always `list-tasks`'),
    data: EmptyDataSchema,
    get nodes(): z.ZodType<DocumentBlockListItem[]> {
      return listItems();
    },
    isVoid: notVoid,
  })
  .describe('A list of tasks with checkboxes');

export const DocumentBlockQuoteSchema = z
  .object({
    ...blockBase,
    type: z.literal('blockquote').describe('Always `blockquote`'),
    data: EmptyDataSchema,
    get nodes(): z.ZodType<DocumentQuoteChild[]> {
      return z.array(DocumentQuoteChildSchema).describe('Content of the quote');
    },
    isVoid: notVoid,
  })
  .describe('A quote');

export const DocumentBlockHintSchema = z
  .object({
    ...blockBase,
    type: z.literal('hint').describe('Always `hint`'),
    data: z.object({ style: z.enum(HINT_STYLES).describe('Style of the hint: info, warning, danger or success') }).describe('Options of the hint'),
    get nodes(): z.ZodType<DocumentHintChild[]> {
      return z.array(DocumentHintChildSchema).describe('Content of the hint');
    },
    isVoid: notVoid,
  })
  .describe('A hint (callout)');

const essentials = () =>
  [
    DocumentBlockParagraphSchema,
    DocumentBlockHeadingSchema,
    DocumentBlockListOrderedSchema,
    DocumentBlockListUnorderedSchema,
    DocumentBlockListTasksSchema,
    DocumentBlockDividerSchema,
  ] as const;

export const DocumentListItemChildSchema = z
  .discriminatedUnion('type', [...essentials(), DocumentBlockCodeSchema, DocumentBlockHintSchema, DocumentBlockQuoteSchema, DocumentBlockTableSchema])
  .describe('A block inside a list item');
export const DocumentQuoteChildSchema = z
  .discriminatedUnion('type', [...essentials(), DocumentBlockQuoteSchema])
  .describe('A block inside a quote');
export const DocumentHintChildSchema = z
  .discriminatedUnion('type', [...essentials(), DocumentBlockTableSchema])
  .describe('A block inside a hint');
export const DocumentBlockTopLevelSchema = z
  .discriminatedUnion('type', [
    ...essentials(),
    DocumentBlockQuoteSchema,
    DocumentBlockHintSchema,
    DocumentBlockImagesSchema,
    DocumentBlockCodeSchema,
    DocumentBlockTableSchema,
  ])
  .describe('A block at the top of a document');

export const JSONDocumentSchema = z
  .object({
    object: z.literal('document').describe('Always `document`'),
    data: z
      .object({ schemaVersion: z.number().int().optional().describe('Schema version of the document; the latest when absent') })
      .describe('Options of the document'),
    nodes: z.array(DocumentBlockTopLevelSchema).describe('The blocks of the document, in order'),
  })
  .describe('A page document in GitBook’s JSON form');
export type JSONDocument = z.infer<typeof JSONDocumentSchema>;

// The hand-written interfaces of the nesting blocks and their schemas describe the same shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.infer<typeof DocumentBlockListItemSchema>, DocumentBlockListItem>,
  Same<z.infer<typeof DocumentBlockListOrderedSchema>, DocumentBlockListOrdered>,
  Same<z.infer<typeof DocumentBlockListUnorderedSchema>, DocumentBlockListUnordered>,
  Same<z.infer<typeof DocumentBlockListTasksSchema>, DocumentBlockListTasks>,
  Same<z.infer<typeof DocumentBlockQuoteSchema>, DocumentBlockQuote>,
  Same<z.infer<typeof DocumentBlockHintSchema>, DocumentBlockHint>,
  Same<z.infer<typeof DocumentBlockTopLevelSchema>, DocumentBlockTopLevel>,
] = [true, true, true, true, true, true, true];
void sameShapes;
