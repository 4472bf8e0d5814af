import { z } from 'zod';
import { ChangeRequestSchema } from './change-request.ts';
import { ofKind } from './shapes.ts';

/**
 * GitBook's `RevisionSemanticChanges`: what a revision (or a change request, against its base) changes, page by
 * page and file. Quire reports the page changes (`page_created`, `page_edited`, `page_deleted`, `page_moved`) and the
 * file changes (`file_created`, `file_edited`, `file_deleted`); GitBook's variable, reusable content and tag changes
 * have no counterpart in Quire's content model.
 */

export const RevisionPageTypeSchema = z
  .enum(['document', 'group', 'link', 'computed'])
  .describe('Type of the page: `document`, `group`, `link` or `computed`');

export const ChangedRevisionPageSchema = z
  .object({
    id: z.string().describe('Unique identifier of the page'),
    type: RevisionPageTypeSchema,
    title: z.string().describe('Title of the page'),
    path: z
      .string()
      .optional()
      .describe(
        'Path of the page in the revision (the slugs of its ancestors and its own, joined by `/`); absent for links',
      ),
    conflicted: z
      .boolean()
      .optional()
      .describe(
        'True when this page conflicts with the main content: a merge found a conflict in it, or it holds conflict ' +
          'blocks left by an update (resolve them by editing the page so that no conflict block remains)',
      ),
  })
  .describe('ChangedRevisionPage');
export type ChangedRevisionPage = z.infer<typeof ChangedRevisionPageSchema>;

const change = <T extends z.ZodType>(value: T, what: string) =>
  z
    .object({
      before: value.optional().describe(`${what} before the change; absent when it had none`),
      after: value.optional().describe(`${what} after the change; absent when it has none`),
    })
    .describe(`Change of the ${what.toLowerCase()}`);

const text = (what: string) => change(z.string(), what);

/** GitBook's `RevisionPageLayout` (a preset or an options object) and `RevisionPageDocumentCover`, as stored. */
export const RevisionPageLayoutSchema = z
  .union([z.enum(['docs', 'editorial', 'landing']), z.record(z.string(), z.unknown())])
  .describe('Layout of the page: a preset (`docs`, `editorial`, `landing`) or layout options');
export const RevisionPageDocumentCoverSchema = z
  .record(z.string(), z.unknown())
  .describe('Cover of the page (image references, position, height)');

/** GitBook's `ContentRef`, of the kind a Quire link page targets: a URL. */
export const ContentRefSchema = ofKind('url', 'A reference to content: the URL a link page points to', {
  url: z.string().describe('The URL the link points to'),
});

const atLeastOne = (o: object) => Object.keys(o).length > 0;

export const RevisionPageDocumentChangeAttributesSchema = z
  .strictObject({
    title: text('Title').optional(),
    description: text('Description').optional(),
    slug: text('Slug').optional(),
    document: text('Document (the content-addressed id of the markdown)').optional(),
    cover: change(RevisionPageDocumentCoverSchema, 'Cover').optional(),
    emoji: text('Emoji').optional(),
    layout: change(RevisionPageLayoutSchema, 'Layout').optional(),
  })
  .refine(atLeastOne, 'must name at least one attribute')
  .describe('Attributes of a document page that changed');

export const RevisionPageGroupChangeAttributesSchema = z
  .strictObject({
    title: text('Title').optional(),
    emoji: text('Emoji').optional(),
    slug: text('Slug').optional(),
  })
  .refine(atLeastOne, 'must name at least one attribute')
  .describe('Attributes of a group page that changed');

export const RevisionPageLinkChangeAttributesSchema = z
  .strictObject({
    title: text('Title').optional(),
    emoji: text('Emoji').optional(),
    target: change(ContentRefSchema, 'Target').optional(),
  })
  .refine(atLeastOne, 'must name at least one attribute')
  .describe('Attributes of a link page that changed');

/** A change of a page: its `type`, the page (`page` says in which state), then what else the change tells. */
const pageChange = <T extends string, F extends z.ZodRawShape = Record<never, never>>(
  type: T,
  page: string,
  description: string,
  fields: F = {} as F,
) =>
  z
    .object({
      type: z.literal(type).describe(`Always \`${type}\``),
      page: ChangedRevisionPageSchema.describe(page),
      ...fields,
    })
    .describe(description);

export const RevisionSemanticChangePageCreatedSchema = pageChange(
  'page_created',
  'The page, as created',
  'A page was created',
);

export const RevisionSemanticChangePageEditedSchema = pageChange(
  'page_edited',
  'The page, as edited',
  'Attributes or content of a page were edited',
  {
    attributes: z
      .union([
        RevisionPageDocumentChangeAttributesSchema,
        RevisionPageGroupChangeAttributesSchema,
        RevisionPageLinkChangeAttributesSchema,
      ])
      .describe('The attributes that changed, each with its value before and after (`document`: the content changed)'),
  },
);

export const RevisionSemanticChangePageDeletedSchema = pageChange(
  'page_deleted',
  'The page, as it was before',
  'A page was deleted',
);

export const RevisionSemanticChangePageMovedSchema = pageChange(
  'page_moved',
  'The page, at its new place',
  'A page was moved',
  {
    parent: z
      .object({
        before: ChangedRevisionPageSchema.optional().describe(
          'The parent page before the move; absent at the top level',
        ),
        after: ChangedRevisionPageSchema.optional().describe('The parent page after the move; absent at the top level'),
      })
      .describe('Parent of the page before and after (the same parent when the page moved among its siblings)'),
  },
);

export const ChangedRevisionFileSchema = z
  .object({
    id: z.string().describe('Unique identifier of the file'),
    name: z.string().describe('File name'),
    contentType: z.string().describe('MIME type'),
    downloadURL: z.string().describe('Signed URL downloading the file (expires after 1 hour)'),
  })
  .describe('ChangedRevisionFile');

/** A change of a file: its `type`, the file, then what else the change tells. */
const fileChange = <T extends string, F extends z.ZodRawShape = Record<never, never>>(
  type: T,
  description: string,
  fields: F = {} as F,
) => z.object({ type: z.literal(type), file: ChangedRevisionFileSchema, ...fields }).describe(description);

export const RevisionSemanticChangeFileCreatedSchema = fileChange('file_created', 'A file was added');
export const RevisionSemanticChangeFileEditedSchema = fileChange('file_edited', 'A file was replaced or renamed', {
  attributes: z
    .object({
      name: text('Name').optional(),
      contentType: text('Content type').optional(),
      size: change(z.number(), 'Size').optional(),
    })
    .describe('The attributes of the file that changed'),
});
export const RevisionSemanticChangeFileDeletedSchema = fileChange('file_deleted', 'A file was removed');

export const RevisionSemanticChangeSchema = z
  .discriminatedUnion('type', [
    RevisionSemanticChangePageCreatedSchema,
    RevisionSemanticChangePageEditedSchema,
    RevisionSemanticChangePageDeletedSchema,
    RevisionSemanticChangePageMovedSchema,
    RevisionSemanticChangeFileCreatedSchema,
    RevisionSemanticChangeFileEditedSchema,
    RevisionSemanticChangeFileDeletedSchema,
  ])
  .describe('One semantic change');
export type RevisionSemanticChange = z.infer<typeof RevisionSemanticChangeSchema>;

export const RevisionSemanticChangesSchema = z
  .object({
    mergedFrom: ChangeRequestSchema.optional().describe(
      'The change request object that initiated the changes in the case of a merge revision',
    ),
    changes: z.array(RevisionSemanticChangeSchema).describe('The changes, in the order of the pages in the tree'),
    more: z.number().int().min(0).optional().describe('How many changes were omitted because above the result limit'),
  })
  .describe('RevisionSemanticChanges');
export type RevisionSemanticChanges = z.infer<typeof RevisionSemanticChangesSchema>;
