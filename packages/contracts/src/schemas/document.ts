import { z } from 'zod';
import {
  ContentRefFileSchema,
  ContentRefOpenAPISchema,
  ContentRefReusableContentSchema,
  DocumentContentRefSchema,
  DocumentRefSchema,
  DocumentTextColorSchema,
  IconSchema,
  LengthSchema,
  PlainObjectSchema,
  type Length,
} from './document-refs.ts';

export * from './document-refs.ts';

/**
 * GitBook's `JSONDocument` (a page's content as a tree of blocks, inlines, texts and leaves): every block,
 * inline and mark of GitBook's `Document*` schemas (openapi `components.schemas`) a docs page holds. Each shape
 * below is GitBook's shape of the same name: required fields are required here too, `isVoid` is `true`/`false`
 * exactly where GitBook fixes it, and the optional `key` is accepted where GitBook has it. Unknown fields are
 * stripped, unknown node types are a 400. Containment follows GitBook (`DocumentBlocksTopLevels`, the `nodes`
 * of each container); Quire adds one block of its own, `conflict` (a merge conflict kept in a change request).
 *
 * Not modelled (GitBook blocks a page written in markdown never holds): `prompt` and `updates`.
 */

const KeySchema = z.string().optional().describe('Identifier of the node within its document');

/** `base`, then `fields` with their getters kept (a nesting node refers to schemas declared after it). */
const extend = <B extends object, F extends object>(base: B, fields: F): B & F =>
  Object.defineProperties({ ...base }, Object.getOwnPropertyDescriptors(fields)) as B & F;

/** Declares the nodes of one `object` (blocks, inlines): each is its common fields, its `type`, then its own. */
const nodesOf =
  <B extends z.ZodRawShape>(base: B) =>
  <T extends string, F extends z.ZodRawShape>(type: T, description: string, fields: F) =>
    z.object(extend({ ...base, type: z.literal(type).describe(`Always \`${type}\``) }, fields)).describe(description);

const MetaIdSchema = z
  .object({ id: z.string().describe('Anchor of the block in the page URL') })
  .optional()
  .describe('Computed facts about the block');

// ── Marks, leaves, texts ────────────────────────────────────────────────────────────────────────────────

/** A mark of one type, described; the color mark has `data` too. */
const mark = <T extends string, F extends z.ZodRawShape = Record<never, never>>(
  type: T,
  description: string,
  fields: F = {} as F,
) =>
  z
    .object({
      object: z.literal('mark').describe('Always `mark`'),
      type: z.literal(type).describe(description),
      ...fields,
    })
    .describe(`DocumentMark ${type}`);

export const DocumentMarkBoldSchema = mark('bold', 'Bold text');
export const DocumentMarkItalicSchema = mark('italic', 'Italic text');
export const DocumentMarkStrikethroughSchema = mark('strikethrough', 'Struck-through text');
export const DocumentMarkCodeSchema = mark('code', 'Inline code');
export const DocumentMarkKeyboardSchema = mark('keyboard', 'A key of the keyboard (markdown `<kbd>`)');
export const DocumentMarkSuperscriptSchema = mark('superscript', 'Superscript (markdown `<sup>`)');
export const DocumentMarkSubscriptSchema = mark('subscript', 'Subscript (markdown `<sub>`)');
export const DocumentMarkColorSchema = mark(
  'color',
  'Colored text (markdown `<mark style="color:…;background-color:…;">`)',
  {
    data: z
      .object({
        text: DocumentTextColorSchema.describe('Color of the text'),
        background: DocumentTextColorSchema.describe('Color of the background'),
      })
      .describe('The colors'),
  },
);
export type DocumentMarkColor = z.infer<typeof DocumentMarkColorSchema>;
export const DocumentTextMarkSchema = z
  .discriminatedUnion('type', [
    DocumentMarkBoldSchema,
    DocumentMarkItalicSchema,
    DocumentMarkCodeSchema,
    DocumentMarkKeyboardSchema,
    DocumentMarkStrikethroughSchema,
    DocumentMarkColorSchema,
    DocumentMarkSuperscriptSchema,
    DocumentMarkSubscriptSchema,
  ])
  .describe('A formatting applied to a leaf of text');
export type DocumentTextMark = z.infer<typeof DocumentTextMarkSchema>;
/** The mark types without data, in the order a leaf lists them (a color mark, when any, comes last). */
export const DOCUMENT_MARK_TYPES = [
  'bold',
  'italic',
  'strikethrough',
  'code',
  'keyboard',
  'superscript',
  'subscript',
] as const;
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

// ── Inlines ─────────────────────────────────────────────────────────────────────────────────────────────

const inline = nodesOf({
  object: z.literal('inline').describe('Always `inline`'),
  key: KeySchema,
});
const isVoidTrue = z.literal(true).describe('Always `true`');

export const DocumentInlineImageSchema = inline('inline-image', 'An image inside a line of text', {
  data: z
    .object({
      ref: DocumentRefSchema.describe('The image'),
      refDark: DocumentRefSchema.optional().describe('The image shown in dark mode'),
      caption: z.string().optional().describe('Caption of the image (the markdown image title)'),
      alt: z.string().optional().describe('Alternative text of the image'),
      size: z.enum(['original', 'line']).optional().describe('Shown at its own size, or as high as the line'),
    })
    .describe('What the image shows'),
  isVoid: isVoidTrue,
});
export type DocumentInlineImage = z.infer<typeof DocumentInlineImageSchema>;

export const DocumentInlineLinkSchema = inline('link', 'A link', {
  data: z.object({ ref: DocumentContentRefSchema.describe('Target of the link') }).describe('Where the link goes'),
  nodes: z.array(z.union([DocumentTextSchema, DocumentInlineImageSchema])).describe('The linked texts and images'),
  isVoid: z.literal(false).optional().describe('Always `false` when present'),
});
export type DocumentInlineLink = z.infer<typeof DocumentInlineLinkSchema>;

export const DocumentInlineEmojiSchema = inline('emoji', 'An emoji (markdown: the character itself)', {
  data: z
    .object({ code: z.string().describe('Code points of the emoji in hexadecimal, joined by `-` (`1f600`)') })
    .describe('The emoji'),
  isVoid: isVoidTrue,
});
export type DocumentInlineEmoji = z.infer<typeof DocumentInlineEmojiSchema>;

export const DocumentInlineIconSchema = inline('icon', 'An icon (markdown `<i class="fa-gear">:gear:</i>`)', {
  data: z
    .object({
      icon: z.string().describe('Name of the icon (Font Awesome)'),
      color: DocumentTextColorSchema.optional().describe('Color of the icon'),
    })
    .describe('The icon'),
  isVoid: isVoidTrue,
});
export type DocumentInlineIcon = z.infer<typeof DocumentInlineIconSchema>;

export const DocumentInlineExpressionSchema = inline(
  'expression',
  'The value of an expression or variable (markdown `<code class="expression">space.vars.x</code>`)',
  {
    data: z
      .object({ expression: z.string().describe('The expression, e.g. `space.vars.version`') })
      .describe('The expression'),
    isVoid: isVoidTrue,
  },
);
export type DocumentInlineExpression = z.infer<typeof DocumentInlineExpressionSchema>;

export const DocumentInlineMathSchema = inline(
  'inline-math',
  'A formula inside a line of text (markdown `$$E=mc^2$$`)',
  {
    data: z.object({ formula: z.string().describe('The formula, in TeX') }).describe('The formula'),
    isVoid: isVoidTrue,
  },
);
export type DocumentInlineMath = z.infer<typeof DocumentInlineMathSchema>;

export const DocumentInlineMentionSchema = inline(
  'mention',
  'A mention of a user, a page or a heading (markdown: a link titled "mention")',
  {
    data: z.object({ ref: DocumentContentRefSchema.describe('Who or what is mentioned') }).describe('The mention'),
    isVoid: isVoidTrue,
  },
);
export type DocumentInlineMention = z.infer<typeof DocumentInlineMentionSchema>;

export const DocumentActionSchema = z
  .discriminatedUnion('action', [
    z
      .object({ action: z.literal('search'), query: z.string().optional().describe('Query to search') })
      .describe('Opens the search'),
    z
      .object({ action: z.literal('ask'), query: z.string().optional().describe('Question to ask') })
      .describe('Opens the assistant'),
    z
      .object({ action: z.literal('select'), slug: z.string().describe('Slug of the tab to select') })
      .describe('Selects a tab'),
  ])
  .describe('What a button does');

const buttonBase = {
  label: z.string().describe('Text of the button'),
  kind: z.enum(['primary', 'secondary']).describe('Style of the button'),
  size: z.enum(['small', 'medium', 'large']).optional().describe('Size of the button'),
  icon: IconSchema.optional(),
};
export const DocumentInlineButtonSchema = inline(
  'button',
  'A button (markdown `<a href="…" class="button primary">Label</a>`)',
  {
    data: z
      .union([
        z.object({ ...buttonBase, ref: DocumentContentRefSchema.describe('Where the button goes') }),
        z.object({ ...buttonBase, action: DocumentActionSchema }),
      ])
      .describe('The button: a label and either a target or an action'),
    isVoid: isVoidTrue,
  },
);
export type DocumentInlineButton = z.infer<typeof DocumentInlineButtonSchema>;

/** An annotation (a footnote): annotated texts and, in its one fragment, the note's blocks. */
export interface DocumentInlineAnnotation {
  object: 'inline';
  type: 'annotation';
  key?: string | undefined;
  data?: Record<string, never> | undefined;
  nodes: DocumentText[];
  fragments: DocumentAnnotationBody[];
  isVoid: false;
}
export interface DocumentAnnotationBody {
  object: 'fragment';
  key?: string | undefined;
  fragment?: string | undefined;
  type: 'annotation-body';
  nodes: DocumentAnnotationChild[];
}
export type DocumentAnnotationChild = DocumentBlockEssential | DocumentBlockCode;

const fragmentBase = {
  object: z.literal('fragment').describe('Always `fragment`'),
  key: KeySchema,
};

export const DocumentAnnotationBodySchema = z
  .object({
    ...fragmentBase,
    fragment: z.string().optional().describe('Name of the fragment'),
    type: z.literal('annotation-body').describe('Always `annotation-body`'),
    get nodes(): z.ZodType<DocumentAnnotationChild[]> {
      return z.array(DocumentAnnotationChildSchema).min(1).describe('The blocks of the note');
    },
  })
  .describe('The body of an annotation');

export const DocumentInlineAnnotationSchema = inline(
  'annotation',
  'A note on a piece of text (markdown: a footnote, `text[^1]` and `[^1]: note`)',
  {
    data: z.object({}).optional().describe('Always empty'),
    nodes: z.array(DocumentTextSchema).describe('The annotated text'),
    get fragments(): z.ZodType<DocumentAnnotationBody[]> {
      return z.array(DocumentAnnotationBodySchema).describe('The note (one annotation-body fragment)');
    },
    isVoid: z.literal(false).describe('Always `false`'),
  },
);

export const DocumentInlineSchema = z
  .discriminatedUnion('type', [
    DocumentInlineLinkSchema,
    DocumentInlineEmojiSchema,
    DocumentInlineIconSchema,
    DocumentInlineExpressionSchema,
    DocumentInlineMathSchema,
    DocumentInlineImageSchema,
    DocumentInlineAnnotationSchema,
    DocumentInlineMentionSchema,
    DocumentInlineButtonSchema,
  ])
  .describe('An inline node');
export type DocumentInline = z.infer<typeof DocumentInlineSchema>;

const phrasing = () =>
  z
    .array(z.union([DocumentTextSchema, DocumentInlineSchema]))
    .describe('Texts and inlines: every inline sits between two texts (possibly empty)');

// ── Leaf blocks ─────────────────────────────────────────────────────────────────────────────────────────

const blockBase = {
  object: z.literal('block').describe('Always `block`'),
  key: KeySchema,
};
const block = nodesOf(blockBase);
const notVoid = z.literal(false).optional().describe('Always `false` when present');
const isVoidFalse = z.literal(false).describe('Always `false`');
const TextAlignmentSchema = z.enum(['start', 'center', 'end']).describe('Alignment of the text');
const VerticalAlignmentSchema = z.enum(['top', 'middle', 'bottom']).describe('Vertical alignment');

export const DocumentBlockParagraphSchema = block('paragraph', 'A paragraph', {
  data: z.object({ align: TextAlignmentSchema.optional() }).optional().describe('Options of the paragraph'),
  nodes: phrasing(),
  isVoid: notVoid,
});
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
        align: TextAlignmentSchema.optional(),
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

export const DocumentBlockDividerSchema = block('divider', 'A horizontal rule (markdown `***`)', {
  data: z.object({}).describe('Always empty'),
  isVoid: isVoidTrue,
});
export type DocumentBlockDivider = z.infer<typeof DocumentBlockDividerSchema>;

export const DocumentBlockHtmlSchema = block(
  'html',
  'Quire-specific: HTML GitBook has no block for, kept as written (markdown: the HTML itself); shown sanitised',
  {
    data: z.object({ html: z.string().describe('The HTML, as written') }).describe('The HTML'),
    isVoid: isVoidTrue,
  },
);
export type DocumentBlockHtml = z.infer<typeof DocumentBlockHtmlSchema>;

export const DocumentBlockCodeLineSchema = block('code-line', 'One line of a code block', {
  data: z
    .object({ highlighted: z.boolean().optional().describe('Whether the line is highlighted') })
    .describe('Options of the line'),
  nodes: z
    .array(z.union([DocumentTextSchema, DocumentInlineAnnotationSchema, DocumentInlineExpressionSchema]))
    .describe('The text of the line (marks are ignored)'),
  isVoid: notVoid,
});
export type DocumentBlockCodeLine = z.infer<typeof DocumentBlockCodeLineSchema>;

export const DocumentBlockCodeSchema = block(
  'code',
  'A block of code (markdown: a fence, inside `{% code … %}` when it has options)',
  {
    data: z
      .object({
        syntax: z.string().optional().describe('Language of the code, for highlighting (the markdown info string)'),
        title: z.string().optional().describe('Title shown above the code (markdown `{% code title="…" %}`)'),
        overflow: z.enum(['scroll', 'wrap']).optional().describe('Long lines scroll (default) or wrap'),
        lineNumbers: z.boolean().optional().describe('Whether line numbers are shown'),
        fullWidth: z.boolean().optional().describe('Whether the block takes the full width of the page'),
        expandable: z.boolean().optional().describe('Whether a long block is collapsed until expanded'),
        collapsedLineCount: z.number().int().min(1).optional().describe('Lines shown while collapsed (10)'),
      })
      .describe('Options of the code block'),
    nodes: z.array(DocumentBlockCodeLineSchema).describe('The lines of the code, one node per line'),
    isVoid: notVoid,
  },
);
export type DocumentBlockCode = z.infer<typeof DocumentBlockCodeSchema>;

export const DocumentBlockPromptSchema = block(
  'prompt',
  'A prompt to copy or open in an AI assistant (markdown `{% prompt description="…" %}` around a fence)',
  {
    data: z
      .object({
        description: z.string().describe('What the prompt does'),
        icon: IconSchema.optional(),
        openInAIProviders: z.boolean().optional().describe('Whether it offers to open the prompt in AI assistants'),
        defaultExpanded: z
          .enum(['hidden', 'partial', 'full'])
          .optional()
          .describe('How much of the prompt is shown at first (`hidden`)'),
      })
      .describe('Options of the prompt'),
    nodes: z.array(DocumentBlockCodeSchema).min(1).max(1).describe('The prompt: one code block'),
    isVoid: notVoid,
  },
);
export type DocumentBlockPrompt = z.infer<typeof DocumentBlockPromptSchema>;

export const DocumentBlockMathSchema = block('math', 'A formula (markdown: `$$` on the lines before and after it)', {
  data: z.object({ formula: z.string().describe('The formula, in TeX') }).describe('The formula'),
  isVoid: isVoidTrue,
});
export type DocumentBlockMath = z.infer<typeof DocumentBlockMathSchema>;

export const DocumentBlockEmbedSchema = block('embed', 'Embedded content from a URL (markdown `{% embed url="…" %}`)', {
  data: z
    .object({
      url: z.string().describe('URL of the embedded content'),
      fullWidth: z.boolean().optional().describe('Whether the block takes the full width of the page'),
      caption: z
        .string()
        .optional()
        .describe('Caption written between `{% embed %}` and `{% endembed %}` (kept by Quire)'),
    })
    .describe('What is embedded'),
  isVoid: isVoidTrue,
});
export type DocumentBlockEmbed = z.infer<typeof DocumentBlockEmbedSchema>;

export const DocumentBlockContentRefSchema = block(
  'content-ref',
  'A card linking to content (markdown `{% content-ref url="…" %}[title](url){% endcontent-ref %}`)',
  {
    data: z.object({ ref: DocumentContentRefSchema.describe('The page, file, space or URL') }).describe('The target'),
    isVoid: isVoidTrue,
  },
);
export type DocumentBlockContentRef = z.infer<typeof DocumentBlockContentRefSchema>;

export const DocumentBlockFileSchema = block(
  'file',
  'A file to download (markdown `{% file src="…" %}caption{% endfile %}`)',
  {
    data: z
      .object({
        ref: ContentRefFileSchema.describe('The file'),
        caption: z.string().optional().describe('Caption written with the file in markdown (kept by Quire)'),
      })
      .describe('The file'),
    isVoid: isVoidTrue,
  },
);
export type DocumentBlockFile = z.infer<typeof DocumentBlockFileSchema>;

export const DocumentBlockDrawingSchema = block('drawing', 'A drawing (markdown `{% drawing src="…" %}`)', {
  data: z.object({ ref: ContentRefFileSchema.optional().describe('The drawing file') }).describe('The drawing'),
  isVoid: isVoidTrue,
});
export type DocumentBlockDrawing = z.infer<typeof DocumentBlockDrawingSchema>;

export const DocumentBlockReusableContentSchema = block(
  'reusable-content',
  'Content shared between pages (markdown `{% include "…" %}`)',
  {
    data: z.object({ ref: ContentRefReusableContentSchema.describe('The reusable content') }).describe('The content'),
    isVoid: isVoidTrue,
    meta: z
      .object({ token: z.string().optional().describe('Token to read the content of another space') })
      .optional()
      .describe('Computed facts about the block'),
  },
);
export type DocumentBlockReusableContent = z.infer<typeof DocumentBlockReusableContentSchema>;

/** A void block showing part of an API (`data`, described by `what`), with an anchor. */
const apiBlock = <T extends string, D extends z.ZodRawShape>(type: T, description: string, what: string, data: D) =>
  block(type, description, { data: z.object(data).describe(what), isVoid: isVoidTrue, meta: MetaIdSchema });
const specRef = () => ContentRefOpenAPISchema.describe('The OpenAPI specification');
const operationFields = {
  path: z.string().describe('Path of the operation'),
  method: z.string().describe('HTTP method of the operation'),
};
const headless = () => z.boolean().optional().describe('Internal to GitBook');

export const DocumentBlockOpenAPISchema = apiBlock(
  'swagger',
  'An API operation from an OpenAPI file (markdown `{% openapi src="…" path="…" method="…" %}`, or `{% swagger … %}`)',
  'The operation',
  {
    ref: DocumentRefSchema.describe('The OpenAPI file or URL'),
    ...operationFields,
    expanded: z.boolean().optional().describe('Whether the block starts expanded'),
    fullWidth: z.boolean().optional().describe('Whether the block takes the full width of the page'),
    tag: z
      .enum(['openapi', 'swagger'])
      .optional()
      .describe('Tag the block is written with in markdown (kept by Quire; GitBook wrote both; `swagger` when absent)'),
  },
);
export type DocumentBlockOpenAPI = z.infer<typeof DocumentBlockOpenAPISchema>;

export const DocumentBlockOpenAPIOperationSchema = apiBlock(
  'openapi-operation',
  'An API operation (markdown `{% openapi-operation spec="…" path="…" method="…" %}`)',
  'The operation',
  { ref: specRef(), ...operationFields, headless: headless() },
);
export type DocumentBlockOpenAPIOperation = z.infer<typeof DocumentBlockOpenAPIOperationSchema>;

export const DocumentBlockOpenAPISchemasSchema = apiBlock(
  'openapi-schemas',
  'Schemas of an API (markdown `{% openapi-schemas spec="…" schemas="A,B" %}`)',
  'The schemas',
  {
    ref: specRef(),
    schemas: z.array(z.string()).describe('Names of the schemas shown'),
    grouped: z.boolean().optional().describe('Whether the schemas are shown as one group (true)'),
    title: z.string().optional().describe('Title of the group'),
  },
);
export type DocumentBlockOpenAPISchemas = z.infer<typeof DocumentBlockOpenAPISchemasSchema>;

export const DocumentBlockOpenAPIWebhookSchema = apiBlock(
  'openapi-webhook',
  'A webhook of an API (markdown `{% openapi-webhook spec="…" name="…" method="…" %}`)',
  'The webhook',
  {
    ref: specRef(),
    name: z.string().describe('Name of the webhook'),
    method: z.string().describe('HTTP method of the webhook'),
    headless: headless(),
  },
);
export type DocumentBlockOpenAPIWebhook = z.infer<typeof DocumentBlockOpenAPIWebhookSchema>;

export const DocumentBlockIntegrationSchema = block(
  'integration',
  'A block rendered by an integration, kept opaque (markdown `{% integration … %}` with its JSON)',
  {
    data: z
      .object({
        integration: z.string().describe('Name of the integration'),
        block: z.string().describe('ID of the block in the integration'),
        props: PlainObjectSchema.describe('Properties passed to the block when rendered'),
        action: z
          .looseObject({ action: z.string().describe('Name of the action') })
          .optional()
          .describe('Custom action to render the block again'),
        url: z.string().optional().describe('URL the block was made from (unfurled)'),
        fullWidth: z.boolean().optional().describe('Whether the block takes the full width of the page'),
      })
      .describe('The integration block, kept as it is'),
    isVoid: isVoidTrue,
    meta: z
      .object({
        token: z.string().optional().describe('Content token for cross-space integration blocks'),
        spaceId: z.string().optional().describe('ID of the space the block comes from'),
      })
      .optional()
      .describe('Computed facts about the block'),
  },
);
export type DocumentBlockIntegration = z.infer<typeof DocumentBlockIntegrationSchema>;

// ── Tables ──────────────────────────────────────────────────────────────────────────────────────────────

const definitionBase = {
  id: z.string().describe('Unique identifier of the column in the table'),
  title: z.string().describe('Title of the column (the header cell)'),
};
export const DocumentTableDefinitionTextSchema = z
  .object({
    ...definitionBase,
    type: z.literal('text').describe('Always `text`: cells are rich text (fragments)'),
    textAlignment: z.enum(['left', 'center', 'right']).describe('Alignment of the cells of the column'),
    verticalAlignment: VerticalAlignmentSchema.optional(),
  })
  .describe('A text column');
export type DocumentTableDefinitionText = z.infer<typeof DocumentTableDefinitionTextSchema>;
const column = <T extends string>(type: T, what: string) =>
  z.object({ ...definitionBase, type: z.literal(type).describe(what) }).describe(`A ${type} column`);
export const DocumentTableDefinitionSchema = z
  .discriminatedUnion('type', [
    DocumentTableDefinitionTextSchema,
    column('number', 'Cells are numbers'),
    column('checkbox', 'Cells are booleans'),
    column('files', 'Cells are lists of file IDs'),
    z
      .object({
        ...definitionBase,
        type: z.literal('users').describe('Cells are lists of user IDs'),
        multiple: z.boolean().describe('Whether a cell may hold several users'),
      })
      .describe('A users column'),
    z
      .object({
        ...definitionBase,
        type: z.literal('rating').describe('Cells are ratings'),
        max: z.number().describe('Highest rating'),
      })
      .describe('A rating column'),
    z
      .object({
        ...definitionBase,
        type: z.literal('select').describe('Cells are lists of option values'),
        multiple: z.boolean().describe('Whether a cell may hold several options'),
        options: z
          .array(
            z
              .object({
                value: z.string().describe('Value stored in cells'),
                label: z.string().describe('Label shown'),
                color: z.string().describe('Color of the option'),
              })
              .describe('An option'),
          )
          .describe('The options'),
      })
      .describe('A select column'),
    column('content-ref', 'Cells are content references'),
    column('image', 'Cells are images'),
  ])
  .describe('A column of the table');
export type DocumentTableDefinition = z.infer<typeof DocumentTableDefinitionSchema>;

export const DocumentTableImageRecordSchema = z
  .union([
    ContentRefFileSchema,
    z.object({ kind: z.literal('url'), url: z.string() }).describe('A URL'),
    z
      .object({
        ref: DocumentRefSchema.describe('The image'),
        objectFit: z.enum(['contain', 'fill', 'cover']).optional().describe('How the image fills the card'),
        alt: z.string().optional().describe('Alternative text'),
      })
      .describe('An image with options'),
  ])
  .describe('An image cell');
export const DocumentTableRecordValueSchema = z
  .union([
    z.number(),
    z.string(),
    z.null(),
    z.boolean(),
    z.array(z.string()),
    DocumentContentRefSchema,
    DocumentTableImageRecordSchema,
  ])
  .describe('A cell: the name of its fragment (text columns), a number, a boolean, IDs, a reference or an image');
export type DocumentTableRecordValue = z.infer<typeof DocumentTableRecordValueSchema>;
export const DocumentTableRecordSchema = z
  .object({
    orderIndex: z.string().describe('Sort key of the row among the rows (fractional index)'),
    values: z.record(z.string(), DocumentTableRecordValueSchema).describe('Cell of each column, by column ID'),
  })
  .describe('A row of the table');
export type DocumentTableRecord = z.infer<typeof DocumentTableRecordSchema>;

export const DocumentTableCellFragmentSchema = z
  .object({
    ...fragmentBase,
    fragment: z.string().describe('Name of the fragment, as referenced from a record value'),
    type: z.string().optional().describe('Type of the fragment'),
    nodes: z.array(DocumentBlockParagraphSchema).describe('Content of the cell'),
  })
  .describe('The content of one table cell');
export type DocumentTableCellFragment = z.infer<typeof DocumentTableCellFragmentSchema>;

export const DocumentTableViewGridSchema = z
  .object({
    type: z.literal('grid').describe('Always `grid`'),
    columns: z.array(z.string()).describe('Ordered list of the column IDs to display'),
    columnWidths: z.record(z.string(), z.number()).optional().describe('Width of columns, by column ID'),
    hideHeader: z.boolean().describe('Whether the header row with the column titles is hidden'),
    stickyHeader: z.boolean().optional().describe('Whether the header row stays visible when scrolling'),
    stickyFirstColumn: z.boolean().optional().describe('Whether the first column stays visible when scrolling'),
    useNewSizing: z.boolean().optional().describe('Internal to GitBook'),
  })
  .describe('Shown as a grid');
export const DocumentTableViewCardsSchema = z
  .object({
    type: z.literal('cards').describe('Always `cards`'),
    cardSize: z.enum(['medium', 'large']).describe('Size of the cards'),
    columns: z.array(z.string()).describe('Ordered list of the column IDs to display'),
    targetDefinition: z.string().optional().describe('Column whose reference is the target of each card'),
    coverDefinition: z.string().optional().describe('Column whose image is the cover of each card'),
    coverDefinitionDark: z.string().optional().describe('Column whose image is the dark-mode cover'),
    hideColumnTitle: z.boolean().optional().describe('Whether column titles are hidden'),
    wrap: z.boolean().optional().describe('Whether the cards wrap onto several rows (true)'),
  })
  .describe('Shown as cards (markdown `<table data-view="cards">`)');

export const DocumentBlockTableSchema = block('table', 'A table, shown as a grid or as cards', {
  data: z
    .object({
      view: z
        .discriminatedUnion('type', [DocumentTableViewGridSchema, DocumentTableViewCardsSchema])
        .describe('How the table is displayed'),
      records: z.record(z.string(), DocumentTableRecordSchema).describe('The rows, by ID'),
      definition: z.record(z.string(), DocumentTableDefinitionSchema).describe('The columns, by ID'),
      cellMerges: z
        .array(
          z
            .object({
              anchor: z
                .object({ record: z.string().describe('Row ID'), column: z.string().describe('Column ID') })
                .describe('The top-left cell'),
              rowSpan: z.number().int().min(1).max(50).describe('Rows merged'),
              colSpan: z.number().int().min(1).max(50).describe('Columns merged'),
            })
            .describe('Merged cells'),
        )
        .optional()
        .describe('Merged cells'),
      fullWidth: z.boolean().optional().describe('Whether the table takes the full width of the page'),
      search: z.boolean().optional().describe('Whether the table can be searched'),
    })
    .describe('Rows and columns of the table'),
  fragments: z.array(DocumentTableCellFragmentSchema).describe('The rich-text cells'),
  isVoid: isVoidTrue,
});
export type DocumentBlockTable = z.infer<typeof DocumentBlockTableSchema>;

// ── Images ──────────────────────────────────────────────────────────────────────────────────────────────

export const DocumentImageCaptionSchema = z
  .object({
    ...fragmentBase,
    fragment: z.literal('caption').describe('Always `caption`'),
    type: z.string().optional().describe('Type of the fragment'),
    nodes: z.array(DocumentBlockParagraphSchema).describe('The caption'),
  })
  .describe('Caption of an image');

export const DocumentBlockImageSchema = block('image', 'One image of an images block', {
  data: z
    .object({
      ref: DocumentRefSchema.describe('The image'),
      refDark: DocumentRefSchema.optional().describe('The image shown in dark mode'),
      width: LengthSchema.optional().describe('Width of the image'),
      height: LengthSchema.optional().describe('Height of the image'),
      alt: z.string().optional().describe('Alternative text of the image'),
    })
    .describe('What the image shows'),
  fragments: z.array(DocumentImageCaptionSchema).describe('The caption, when there is one'),
  isVoid: isVoidTrue,
});
export type DocumentBlockImage = z.infer<typeof DocumentBlockImageSchema>;

export const DocumentBlockImagesSchema = block(
  'images',
  'A block of one or more images (markdown `![alt](src "caption")` or `<figure>`)',
  {
    data: z
      .object({
        align: z.enum(['center', 'left', 'right']).optional().describe('Alignment of the images'),
        fullWidth: z.boolean().optional().describe('Whether the images take the full width of the page'),
        withFrame: z.boolean().optional().describe('Whether the images are framed'),
      })
      .describe('Options of the images block'),
    nodes: z.array(DocumentBlockImageSchema).describe('The images, side by side'),
    isVoid: isVoidFalse,
  },
);
export type DocumentBlockImages = z.infer<typeof DocumentBlockImagesSchema>;

// ── Containers ──────────────────────────────────────────────────────────────────────────────────────────
// Containers nest: their `nodes` are getters so the schemas can refer to one another, and their types are
// written out (checked against the schemas at the end of the file).

interface Block<T extends string> {
  object: 'block';
  type: T;
  key?: string | undefined;
}
export interface DocumentBlockListItem extends Block<'list-item'> {
  data?: { checked?: boolean | undefined } | undefined;
  nodes: DocumentListItemChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListOrdered extends Block<'list-ordered'> {
  data: { start?: number | undefined };
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListUnordered extends Block<'list-unordered'> {
  data?: Record<string, never> | undefined;
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockListTasks extends Block<'list-tasks'> {
  data?: Record<string, never> | undefined;
  nodes: DocumentBlockListItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockQuote extends Block<'blockquote'> {
  data?: Record<string, never> | undefined;
  nodes: DocumentQuoteChild[];
  isVoid?: false | undefined;
}
export const HINT_STYLES = ['info', 'warning', 'danger', 'success'] as const;
export type DocumentHintStyle = (typeof HINT_STYLES)[number];
export interface DocumentBlockHint extends Block<'hint'> {
  data: { style: DocumentHintStyle; icon?: string | undefined };
  nodes: DocumentHintChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockTabsItem extends Block<'tabs-item'> {
  data: { title?: string | undefined; icon?: string | undefined; slug?: string | undefined };
  meta?: { id: string } | undefined;
  nodes: DocumentTabsItemChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockTabs extends Block<'tabs'> {
  data?: { fullWidth?: boolean | undefined } | undefined;
  nodes: DocumentBlockTabsItem[];
  isVoid?: false | undefined;
}
export interface DocumentBlockStepperStep extends Block<'stepper-step'> {
  data: { icon?: string | undefined };
  nodes: DocumentStepperStepChild[];
  isVoid?: false | undefined;
}
/** A changelog: dated updates (markdown `{% updates format="full" %}{% update date="…" %}…{% endupdates %}`). */
export interface DocumentBlockUpdates extends Block<'updates'> {
  data: { format: 'numeric' | 'full' | 'short' };
  nodes: DocumentBlockUpdate[];
  isVoid?: false | undefined;
}
export interface DocumentBlockUpdate extends Block<'update'> {
  data: { date: string };
  nodes: DocumentUpdateChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockStepper extends Block<'stepper'> {
  data?: Record<string, never> | undefined;
  nodes: DocumentBlockStepperStep[];
  isVoid?: false | undefined;
}
export interface DocumentBlockColumn extends Block<'column'> {
  data: { width?: Length | undefined; verticalAlignment?: 'top' | 'middle' | 'bottom' | undefined };
  nodes: DocumentColumnChild[];
  isVoid?: false | undefined;
}
export interface DocumentBlockColumns extends Block<'columns'> {
  data: { fullWidth?: boolean | undefined };
  nodes: DocumentBlockColumn[];
  isVoid: false;
}
export interface DocumentExpandableTitle {
  object: 'fragment';
  key?: string | undefined;
  fragment: 'expandable-title';
  type: 'expandable-title';
  nodes: DocumentBlockParagraph[];
}
export interface DocumentExpandableBody {
  object: 'fragment';
  key?: string | undefined;
  fragment: 'expandable-body';
  type: 'expandable-body';
  nodes: DocumentExpandableChild[];
}
export interface DocumentBlockExpandable extends Block<'expandable'> {
  data: { defaultExpanded?: boolean | undefined };
  fragments: (DocumentExpandableTitle | DocumentExpandableBody)[];
  meta?: { id: string } | undefined;
  isVoid: true;
}
export interface DocumentBlockIf extends Block<'if'> {
  data: { expression: string };
  nodes: DocumentBlockTopLevel[];
  isVoid?: false | undefined;
}
/** Quire's own block: one side of a merge conflict, holding that side's blocks. */
export interface DocumentBlockConflictSide extends Block<'conflict-side'> {
  data: { title: string };
  nodes: DocumentBlockTopLevel[];
  isVoid?: false | undefined;
}
/** Quire's own block: a merge conflict, both (or all) sides kept until someone resolves it. */
export interface DocumentBlockConflict extends Block<'conflict'> {
  data: Record<string, never>;
  nodes: DocumentBlockConflictSide[];
  isVoid?: false | undefined;
}

export type DocumentBlockEssential =
  | DocumentBlockParagraph
  | DocumentBlockHtml
  | DocumentBlockHeading
  | DocumentBlockListOrdered
  | DocumentBlockListUnordered
  | DocumentBlockListTasks
  | DocumentBlockDivider;
export type DocumentListItemChild =
  | DocumentBlockEssential
  | DocumentBlockCode
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockMath
  | DocumentBlockTable;
export type DocumentQuoteChild = DocumentBlockEssential | DocumentBlockQuote;
export type DocumentHintChild =
  | DocumentBlockEssential
  | DocumentBlockEmbed
  | DocumentBlockIntegration
  | DocumentBlockTable;
export type DocumentTabsItemChild =
  | DocumentBlockEssential
  | DocumentBlockPrompt
  | DocumentBlockContentRef
  | DocumentBlockCode
  | DocumentBlockEmbed
  | DocumentBlockFile
  | DocumentBlockImages
  | DocumentBlockDrawing
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockMath
  | DocumentBlockIntegration;
/** GitBook's editor puts tabs in steps (its published schema does not list them): Quire keeps them there. */
export type DocumentStepperStepChild = DocumentTabsItemChild | DocumentBlockExpandable | DocumentBlockTabs;
export type DocumentUpdateChild = DocumentTabsItemChild | DocumentBlockExpandable | DocumentBlockTabs;
export type DocumentColumnChild =
  | DocumentBlockEssential
  | DocumentBlockPrompt
  | DocumentBlockImages
  | DocumentBlockCode
  | DocumentBlockHint
  | DocumentBlockContentRef
  | DocumentBlockDrawing
  | DocumentBlockEmbed
  | DocumentBlockFile
  | DocumentBlockIntegration
  | DocumentBlockMath
  | DocumentBlockQuote
  | DocumentBlockTable
  | DocumentBlockExpandable
  | DocumentBlockStepper;
export type DocumentExpandableChild =
  | DocumentBlockEssential
  | DocumentBlockFile
  | DocumentBlockImages
  | DocumentBlockCode
  | DocumentBlockTable
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockReusableContent
  | DocumentBlockIntegration;
export type DocumentBlockTopLevel =
  | DocumentBlockEssential
  | DocumentBlockQuote
  | DocumentBlockHint
  | DocumentBlockImages
  | DocumentBlockFile
  | DocumentBlockDrawing
  | DocumentBlockEmbed
  | DocumentBlockCode
  | DocumentBlockMath
  | DocumentBlockExpandable
  | DocumentBlockTabs
  | DocumentBlockTable
  | DocumentBlockOpenAPI
  | DocumentBlockOpenAPIOperation
  | DocumentBlockOpenAPISchemas
  | DocumentBlockOpenAPIWebhook
  | DocumentBlockContentRef
  | DocumentBlockIntegration
  | DocumentBlockReusableContent
  | DocumentBlockStepper
  | DocumentBlockIf
  | DocumentBlockColumns
  | DocumentBlockPrompt
  | DocumentBlockUpdates
  | DocumentBlockConflict;
/** Every block type, wherever it sits. */
export type DocumentBlock =
  | DocumentBlockTopLevel
  | DocumentBlockListItem
  | DocumentBlockTabsItem
  | DocumentBlockStepperStep
  | DocumentBlockColumn
  | DocumentBlockConflictSide
  | DocumentBlockUpdate
  | DocumentBlockImage
  | DocumentBlockCodeLine;

const EmptyDataSchema = z.object({}).optional().describe('Always empty');
const children = <T>(schema: () => z.ZodType<T>, description: string): z.ZodType<T[]> =>
  z.array(z.lazy(schema)).describe(description);

export const DocumentBlockListItemSchema = block('list-item', 'An item of a list', {
  data: z
    .object({ checked: z.boolean().optional().describe('Whether the task is done (task lists only)') })
    .optional()
    .describe('Options of the item'),
  get nodes(): z.ZodType<DocumentListItemChild[]> {
    return children(() => DocumentListItemChildSchema, 'Content of the item');
  },
  isVoid: notVoid,
});

/** A list: `data` its options, its items. */
const list = <T extends string, D extends z.ZodType>(type: T, description: string, data: D) =>
  block(type, description, {
    data,
    get nodes(): z.ZodType<DocumentBlockListItem[]> {
      return z.array(DocumentBlockListItemSchema).describe('The items of the list');
    },
    isVoid: notVoid,
  });

export const DocumentBlockListOrderedSchema = list(
  'list-ordered',
  'A numbered list',
  z
    .object({ start: z.number().int().optional().describe('Number of the first item (1 when absent)') })
    .describe('Options of the list'),
);
export const DocumentBlockListUnorderedSchema = list('list-unordered', 'A bulleted list', EmptyDataSchema);
export const DocumentBlockListTasksSchema = list(
  'list-tasks',
  'A list of tasks with checkboxes (markdown `- [ ]`, `- [x]`)',
  EmptyDataSchema,
);

export const DocumentBlockQuoteSchema = block('blockquote', 'A quote', {
  data: EmptyDataSchema,
  get nodes(): z.ZodType<DocumentQuoteChild[]> {
    return children(() => DocumentQuoteChildSchema, 'Content of the quote');
  },
  isVoid: notVoid,
});

export const DocumentBlockHintSchema = block(
  'hint',
  'A hint (callout; markdown `{% hint style="info" %}…{% endhint %}`)',
  {
    data: z
      .object({
        style: z.enum(HINT_STYLES).describe('Style of the hint: info, warning, danger or success'),
        icon: IconSchema.optional(),
      })
      .describe('Options of the hint'),
    get nodes(): z.ZodType<DocumentHintChild[]> {
      return children(() => DocumentHintChildSchema, 'Content of the hint');
    },
    isVoid: notVoid,
  },
);

export const DocumentBlockTabsItemSchema = block('tabs-item', 'One tab (markdown `{% tab title="…" %}…{% endtab %}`)', {
  data: z
    .object({
      title: z.string().optional().describe('Title of the tab'),
      icon: IconSchema.optional(),
      slug: z.string().optional().describe('Slug of the tab, for links to it'),
    })
    .describe('Options of the tab'),
  meta: MetaIdSchema,
  get nodes(): z.ZodType<DocumentTabsItemChild[]> {
    return children(() => DocumentTabsItemChildSchema, 'Content of the tab');
  },
  isVoid: notVoid,
});

export const DocumentBlockTabsSchema = block('tabs', 'Tabs (markdown `{% tabs %}…{% endtabs %}`)', {
  data: z
    .object({ fullWidth: z.boolean().optional().describe('Whether the tabs take the full width') })
    .optional()
    .describe('Options of the tabs'),
  get nodes(): z.ZodType<DocumentBlockTabsItem[]> {
    return z.array(DocumentBlockTabsItemSchema).describe('The tabs');
  },
  isVoid: notVoid,
});

export const DocumentBlockStepperStepSchema = block('stepper-step', 'One step (markdown `{% step %}…{% endstep %}`)', {
  data: z.object({ icon: IconSchema.optional() }).describe('Options of the step'),
  get nodes(): z.ZodType<DocumentStepperStepChild[]> {
    return children(() => DocumentStepperStepChildSchema, 'Content of the step');
  },
  isVoid: notVoid,
});

export const DocumentBlockStepperSchema = block(
  'stepper',
  'Numbered steps (markdown `{% stepper %}…{% endstepper %}`)',
  {
    data: EmptyDataSchema,
    get nodes(): z.ZodType<DocumentBlockStepperStep[]> {
      return z.array(DocumentBlockStepperStepSchema).describe('The steps');
    },
    isVoid: notVoid,
  },
);

export const DocumentBlockUpdateSchema = block('update', 'One dated update (markdown `{% update date="…" %}`)', {
  data: z.object({ date: z.string().describe('Date of the update (ISO 8601)') }).describe('Options of the update'),
  get nodes(): z.ZodType<DocumentUpdateChild[]> {
    return children(() => DocumentUpdateChildSchema, 'Content of the update');
  },
  isVoid: notVoid,
});

export const DocumentBlockUpdatesSchema = block(
  'updates',
  'A changelog of dated updates (markdown `{% updates format="full" %}…{% endupdates %}`)',
  {
    data: z
      .object({ format: z.enum(['numeric', 'full', 'short']).describe('How the dates are shown') })
      .describe('Options of the changelog'),
    get nodes(): z.ZodType<DocumentBlockUpdate[]> {
      return z.array(DocumentBlockUpdateSchema).describe('The updates');
    },
    isVoid: notVoid,
  },
);

export const DocumentBlockColumnSchema = block('column', 'One column (markdown `{% column %}…{% endcolumn %}`)', {
  data: z
    .object({
      width: LengthSchema.optional().describe('Width of the column'),
      verticalAlignment: VerticalAlignmentSchema.optional(),
    })
    .describe('Options of the column'),
  get nodes(): z.ZodType<DocumentColumnChild[]> {
    return children(() => DocumentColumnChildSchema, 'Content of the column');
  },
  isVoid: notVoid,
});

export const DocumentBlockColumnsSchema = block(
  'columns',
  'Columns side by side (markdown `{% columns %}…{% endcolumns %}`)',
  {
    data: z
      .object({ fullWidth: z.boolean().optional().describe('Whether the columns take the full width') })
      .describe('Options of the columns'),
    get nodes(): z.ZodType<DocumentBlockColumn[]> {
      return z.array(DocumentBlockColumnSchema).describe('The columns');
    },
    isVoid: isVoidFalse,
  },
);

export const DocumentExpandableTitleSchema = z
  .object({
    ...fragmentBase,
    fragment: z.literal('expandable-title').describe('Always `expandable-title`'),
    type: z.literal('expandable-title').describe('Always `expandable-title`'),
    nodes: z.array(DocumentBlockParagraphSchema).min(1).max(1).describe('The title: one paragraph'),
  })
  .describe('Title of an expandable block');
export const DocumentExpandableBodySchema = z
  .object({
    ...fragmentBase,
    fragment: z.literal('expandable-body').describe('Always `expandable-body`'),
    type: z.literal('expandable-body').describe('Always `expandable-body`'),
    get nodes(): z.ZodType<DocumentExpandableChild[]> {
      return z
        .array(z.lazy(() => DocumentExpandableChildSchema))
        .min(1)
        .describe('The content');
    },
  })
  .describe('Content of an expandable block');

export const DocumentBlockExpandableSchema = block(
  'expandable',
  'A block that opens and closes (markdown `<details><summary>…</summary>…</details>`)',
  {
    data: z
      .object({ defaultExpanded: z.boolean().optional().describe('Whether it starts open') })
      .describe('Options of the block'),
    get fragments(): z.ZodType<(DocumentExpandableTitle | DocumentExpandableBody)[]> {
      return z
        .array(z.discriminatedUnion('fragment', [DocumentExpandableTitleSchema, DocumentExpandableBodySchema]))
        .describe('The title and the body');
    },
    meta: MetaIdSchema,
    isVoid: isVoidTrue,
  },
);

export const DocumentBlockIfSchema = block(
  'if',
  'Content shown only when a condition holds (markdown `{% if … %}…{% endif %}`)',
  {
    data: z
      .object({ expression: z.string().describe('Condition, e.g. `visitor.claims.plan === "pro"`') })
      .describe('The condition'),
    get nodes(): z.ZodType<DocumentBlockTopLevel[]> {
      return children(() => DocumentBlockTopLevelSchema, 'Content shown when the condition holds');
    },
    isVoid: notVoid,
  },
);

export const DocumentBlockConflictSideSchema = block('conflict-side', 'Quire-specific: one side of a merge conflict', {
  data: z
    .object({ title: z.string().describe('Where this side comes from, e.g. `main` or `change request #3`') })
    .describe('Options of the side'),
  get nodes(): z.ZodType<DocumentBlockTopLevel[]> {
    return children(() => DocumentBlockTopLevelSchema, 'The blocks of this side (may be empty)');
  },
  isVoid: notVoid,
});

export const DocumentBlockConflictSchema = block(
  'conflict',
  'Quire-specific: a merge conflict left in a change request, both sides kept; markdown ' +
    '`{% conflict %}{% conflict-side title="main" %}…{% endconflict-side %}…{% endconflict %}`. ' +
    'The page is resolved when no conflict block remains.',
  {
    data: z.object({}).describe('Always empty'),
    get nodes(): z.ZodType<DocumentBlockConflictSide[]> {
      return z.array(DocumentBlockConflictSideSchema).describe('The sides of the conflict, in order');
    },
    isVoid: notVoid,
  },
);

// ── Containment ─────────────────────────────────────────────────────────────────────────────────────────

const essentials = () =>
  [
    DocumentBlockParagraphSchema,
    DocumentBlockHtmlSchema,
    DocumentBlockHeadingSchema,
    DocumentBlockListOrderedSchema,
    DocumentBlockListUnorderedSchema,
    DocumentBlockListTasksSchema,
    DocumentBlockDividerSchema,
  ] as const;
const union = <T>(options: readonly z.ZodObject[], description: string) =>
  z
    .discriminatedUnion('type', options as unknown as [z.ZodObject, ...z.ZodObject[]])
    .describe(description) as unknown as z.ZodType<T>;

export const DocumentAnnotationChildSchema = union<DocumentAnnotationChild>(
  [...essentials(), DocumentBlockCodeSchema],
  'A block of a note',
);
export const DocumentListItemChildSchema = union<DocumentListItemChild>(
  [
    ...essentials(),
    DocumentBlockCodeSchema,
    DocumentBlockHintSchema,
    DocumentBlockQuoteSchema,
    DocumentBlockMathSchema,
    DocumentBlockTableSchema,
  ],
  'A block inside a list item',
);
export const DocumentQuoteChildSchema = union<DocumentQuoteChild>(
  [...essentials(), DocumentBlockQuoteSchema],
  'A block inside a quote',
);
export const DocumentHintChildSchema = union<DocumentHintChild>(
  [...essentials(), DocumentBlockEmbedSchema, DocumentBlockIntegrationSchema, DocumentBlockTableSchema],
  'A block inside a hint',
);
const tabsItemChildren = () =>
  [
    ...essentials(),
    DocumentBlockPromptSchema,
    DocumentBlockContentRefSchema,
    DocumentBlockCodeSchema,
    DocumentBlockEmbedSchema,
    DocumentBlockFileSchema,
    DocumentBlockImagesSchema,
    DocumentBlockDrawingSchema,
    DocumentBlockHintSchema,
    DocumentBlockQuoteSchema,
    DocumentBlockMathSchema,
    DocumentBlockIntegrationSchema,
  ] as const;
export const DocumentTabsItemChildSchema = union<DocumentTabsItemChild>(tabsItemChildren(), 'A block inside a tab');
export const DocumentStepperStepChildSchema = union<DocumentStepperStepChild>(
  [...tabsItemChildren(), DocumentBlockExpandableSchema, DocumentBlockTabsSchema],
  'A block inside a step',
);
export const DocumentUpdateChildSchema = union<DocumentUpdateChild>(
  [...tabsItemChildren(), DocumentBlockExpandableSchema, DocumentBlockTabsSchema],
  'A block inside an update',
);
export const DocumentColumnChildSchema = union<DocumentColumnChild>(
  [
    ...essentials(),
    DocumentBlockPromptSchema,
    DocumentBlockImagesSchema,
    DocumentBlockCodeSchema,
    DocumentBlockHintSchema,
    DocumentBlockContentRefSchema,
    DocumentBlockDrawingSchema,
    DocumentBlockEmbedSchema,
    DocumentBlockFileSchema,
    DocumentBlockIntegrationSchema,
    DocumentBlockMathSchema,
    DocumentBlockQuoteSchema,
    DocumentBlockTableSchema,
    DocumentBlockExpandableSchema,
    DocumentBlockStepperSchema,
  ],
  'A block inside a column',
);
export const DocumentExpandableChildSchema = union<DocumentExpandableChild>(
  [
    ...essentials(),
    DocumentBlockFileSchema,
    DocumentBlockImagesSchema,
    DocumentBlockCodeSchema,
    DocumentBlockTableSchema,
    DocumentBlockHintSchema,
    DocumentBlockQuoteSchema,
    DocumentBlockReusableContentSchema,
    DocumentBlockIntegrationSchema,
  ],
  'A block inside an expandable block',
);
export const DocumentBlockTopLevelSchema = union<DocumentBlockTopLevel>(
  [
    ...essentials(),
    DocumentBlockQuoteSchema,
    DocumentBlockHintSchema,
    DocumentBlockImagesSchema,
    DocumentBlockFileSchema,
    DocumentBlockDrawingSchema,
    DocumentBlockEmbedSchema,
    DocumentBlockCodeSchema,
    DocumentBlockMathSchema,
    DocumentBlockExpandableSchema,
    DocumentBlockTabsSchema,
    DocumentBlockTableSchema,
    DocumentBlockOpenAPISchema,
    DocumentBlockOpenAPIOperationSchema,
    DocumentBlockOpenAPISchemasSchema,
    DocumentBlockOpenAPIWebhookSchema,
    DocumentBlockContentRefSchema,
    DocumentBlockIntegrationSchema,
    DocumentBlockReusableContentSchema,
    DocumentBlockStepperSchema,
    DocumentBlockIfSchema,
    DocumentBlockColumnsSchema,
    DocumentBlockPromptSchema,
    DocumentBlockUpdatesSchema,
    DocumentBlockConflictSchema,
  ],
  'A block at the top of a document',
);

/** Front matter of a page as GitBook's Git Sync writes it (YAML between `---` lines): Quire-specific in JSON. */
export const DocumentFrontMatterSchema = z
  .record(z.string(), z.unknown())
  .describe(
    "The page's YAML front matter as an object (`description`, `icon`, `hidden`, `layout`, `vars`, `if`…), " +
      'kept as written',
  );

export const JSONDocumentSchema = z
  .object({
    object: z.literal('document').describe('Always `document`'),
    data: z
      .looseObject({
        schemaVersion: z.number().int().optional().describe('Schema version of the document; the latest when absent'),
        frontMatter: DocumentFrontMatterSchema.optional(),
      })
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
  Same<z.infer<typeof DocumentBlockTabsItemSchema>, DocumentBlockTabsItem>,
  Same<z.infer<typeof DocumentBlockTabsSchema>, DocumentBlockTabs>,
  Same<z.infer<typeof DocumentBlockStepperStepSchema>, DocumentBlockStepperStep>,
  Same<z.infer<typeof DocumentBlockStepperSchema>, DocumentBlockStepper>,
  Same<z.infer<typeof DocumentBlockUpdateSchema>, DocumentBlockUpdate>,
  Same<z.infer<typeof DocumentBlockUpdatesSchema>, DocumentBlockUpdates>,
  Same<z.infer<typeof DocumentBlockColumnSchema>, DocumentBlockColumn>,
  Same<z.infer<typeof DocumentBlockColumnsSchema>, DocumentBlockColumns>,
  Same<z.infer<typeof DocumentBlockExpandableSchema>, DocumentBlockExpandable>,
  Same<z.infer<typeof DocumentBlockIfSchema>, DocumentBlockIf>,
  Same<z.infer<typeof DocumentBlockConflictSideSchema>, DocumentBlockConflictSide>,
  Same<z.infer<typeof DocumentInlineAnnotationSchema>, DocumentInlineAnnotation>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void sameShapes;
