import { z } from 'zod';
import { IdSchema, TimestampSchema, UrlSchema } from '../common.ts';
import { EmojiSchema } from './space.ts';
import { ChangeRequestSchema } from './change-request.ts';
import { GitSyncBlobSchema, GitSyncCommitSchema } from './git.ts';
import { objectAndId } from './shapes.ts';

export const PageSlugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and dashes')
  .describe("Page's slug in its parent (lowercase letters, digits and dashes, max 100)");
export const PageTitleSchema = z.string().trim().min(1).max(255).describe('Title of the page (1..255)');

const PageFlags = {
  hidden: z.boolean().describe('Not shown in the navigation, still reachable'),
  noIndex: z.boolean().describe('Not indexed by search'),
  noRobotsIndex: z.boolean().describe('Not indexed by search engine robots'),
};

const PageBase = {
  id: z.string().describe('Unique identifier of the page in the revision'),
  title: z.string().describe('Title of the page'),
  emoji: z.string().optional().describe('Emoji of the page'),
  icon: z.string().optional().describe('Icon of the page'),
  createdAt: TimestampSchema.optional().describe('When the page was created'),
  updatedAt: TimestampSchema.optional().describe('When the page was last edited'),
};

/** Child pages are given in the same shapes (validated at the top level; nested levels are passed as produced). */
const ChildPages = z
  .array(z.record(z.string(), z.unknown()))
  .describe('Child pages, in order (same shapes, recursively)');

export const RevisionPageDocumentSchema = z
  .object({
    ...PageBase,
    kind: z.literal('sheet').describe('Deprecated kind of the page (`sheet` for documents)'),
    type: z.literal('document'),
    urls: z.object({ app: UrlSchema.describe('Location of the page in the application') }),
    slug: z.string().describe("Page's slug in its parent"),
    path: z.string().describe('Complete path of the page in the revision'),
    description: z.string().optional().describe('Description of the page'),
    documentId: z.string().optional().describe('Id (content hash) of the page document'),
    pages: ChildPages,
    layout: z.record(z.string(), z.unknown()).describe('Layout options of the page'),
    cover: z.record(z.string(), z.unknown()).optional().describe('Cover of the page'),
    ...PageFlags,
    tags: z.array(z.string()).describe('Tags of the page'),
    git: GitSyncBlobSchema.optional().describe(
      "The page's markdown file in the Git repository the revision was imported from or exported to (Git Sync)",
    ),
    markdown: z.string().optional().describe('The document as markdown (with `format=markdown`)'),
    document: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The document as a JSON document (with `format=document`)'),
  })
  .describe('RevisionPageDocument');

export const RevisionPageGroupSchema = z
  .object({
    ...PageBase,
    kind: z.literal('group'),
    type: z.literal('group'),
    slug: z.string().describe("Page's slug in its parent"),
    path: z.string().describe('Complete path of the page in the revision'),
    pages: ChildPages,
    ...PageFlags,
  })
  .describe('RevisionPageGroup');

export const RevisionPageLinkSchema = z
  .object({
    ...PageBase,
    kind: z.literal('link'),
    type: z.literal('link'),
    target: z.object({ kind: z.literal('url'), url: z.string() }).describe('What the link points at'),
    href: z.string().optional().describe('URL of the link'),
    hidden: z.boolean().describe('Not shown in the navigation'),
  })
  .describe('RevisionPageLink');

export const RevisionPageSchema = z
  .discriminatedUnion('type', [RevisionPageDocumentSchema, RevisionPageGroupSchema, RevisionPageLinkSchema])
  .describe('RevisionPage');
export type RevisionPage = z.infer<typeof RevisionPageSchema>;

export const RevisionFileSchema = z
  .object({
    id: z.string().describe('Unique identifier of the file'),
    name: z.string().describe('File name'),
    contentType: z.string().describe('MIME type'),
    downloadURL: UrlSchema.describe('Signed URL downloading the file without the API token (expires after 1 hour)'),
    size: z.number().int().describe('Size in bytes'),
    dimensions: z
      .object({ width: z.number().int(), height: z.number().int() })
      .optional()
      .describe('Dimensions of an image'),
    git: GitSyncBlobSchema.optional().describe('The file in the Git repository (Git Sync)'),
  })
  .describe('RevisionFile');
export type RevisionFile = z.infer<typeof RevisionFileSchema>;

/** GitBook's RevisionReusableContent: a block of content that pages include (`{% include "<id>" %}`). */
export const RevisionReusableContentSchema = z
  .object({
    id: z.string().describe('Unique identifier of the reusable content in the revision'),
    title: z.string().describe('Title of the reusable content'),
    document: z
      .string()
      .optional()
      .describe('Id (content hash) of the document with its body (`getDocumentById`); absent when it is empty'),
    git: GitSyncBlobSchema.optional().describe('Its markdown file in the Git repository (Git Sync)'),
  })
  .describe('RevisionReusableContent');
export type RevisionReusableContent = z.infer<typeof RevisionReusableContentSchema>;

export const RevisionSchema = z
  .object({
    ...objectAndId('revision', 'revision'),
    parents: z.array(z.string()).describe('Ids of the parent revisions'),
    pages: z.array(RevisionPageSchema).describe('The page tree'),
    files: z.array(RevisionFileSchema).describe('The files'),
    reusableContents: z
      .array(RevisionReusableContentSchema)
      .describe('The reusable contents of the revision (blocks pages include), by id'),
    variables: z.record(z.string(), z.string()).describe('Variables of the revision'),
    createdAt: TimestampSchema,
    type: z.enum(['edits', 'merge', 'update', 'rollback']).describe('How the revision was made'),
    urls: z.object({
      app: UrlSchema.describe('URL of the revision in the application'),
      published: UrlSchema.optional(),
      public: UrlSchema.optional(),
    }),
    git: GitSyncCommitSchema.optional().describe('The Git commit the revision was imported from (Git Sync)'),
    mergedFrom: ChangeRequestSchema.optional().describe(
      'The change request a `merge` revision merged (in the items of `listRevisionsInSpace`; the reads of one revision leave it out)',
    ),
  })
  .describe('Revision');
export type Revision = z.infer<typeof RevisionSchema>;

/** A document given to a page: markdown, a JSON document, or nothing (empty). */
export const DocumentInputSchema = z
  .union([
    z
      .object({ markdown: z.string().max(1_000_000).describe('The document as markdown (max 1,000,000 characters)') })
      .strict(),
    z.object({ document: z.record(z.string(), z.unknown()).describe("GitBook's JSON document") }).strict(),
    z.object({}).strict(),
  ])
  .describe('Document: `{markdown}`, `{document}` or `{}`');
export type DocumentInput = z.infer<typeof DocumentInputSchema>;

const PageMetaInput = {
  title: PageTitleSchema.optional(),
  slug: PageSlugSchema.optional(),
  emoji: z
    .union([EmojiSchema, z.literal('')])
    .optional()
    .describe('Emoji of the page; empty removes it'),
  icon: z.string().max(50).optional().describe('Icon of the page; empty removes it'),
  description: z.string().max(1000).optional().describe('Description of the page (max 1000)'),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
};

export const FileInputSchema = z
  .object({
    ref: z.string().min(1).max(100).optional().describe('Local reference to the file within the batch'),
    name: z.string().min(1).max(256).describe('File name with its extension'),
    contentType: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('MIME type (read from the bytes of images when omitted)'),
    base64: z.string().max(1_400_000).optional().describe('The bytes, base64 (at most 1 MiB decoded)'),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe('A public http(s) URL to fetch the file from'),
  })
  .refine((f) => (f.base64 === undefined) !== (f.url === undefined), {
    message: 'give exactly one of `base64` or `url`',
    path: ['base64'],
  });

const ReusableContentTitleSchema = z.string().trim().min(1).max(255).describe('Title of the reusable content (1..255)');

export const ContentChangeSchema = z
  .discriminatedUnion('operation', [
    z.object({
      operation: z.literal('insert_page'),
      ...PageMetaInput,
      into: IdSchema.optional().describe('Parent page (or a `ref` of the batch); top level when omitted'),
      at: z.number().int().min(0).optional().describe('Index among the siblings; appended when omitted'),
      ref: z.string().min(1).max(100).optional().describe('Local reference to the new page within the batch'),
      document: DocumentInputSchema,
    }),
    z.object({
      operation: z.literal('update_page'),
      page: IdSchema.describe('The page to update'),
      ...PageMetaInput,
      document: DocumentInputSchema.optional(),
      into: IdSchema.nullable().optional().describe('New parent page; null for the top level; unchanged when omitted'),
      at: z.number().int().min(0).optional().describe('Index among the (new) siblings'),
    }),
    z.object({
      operation: z.literal('delete_page'),
      page: IdSchema.describe('The page to delete, with its sub-pages'),
    }),
    z.object({
      operation: z.literal('revert_page'),
      page: IdSchema.describe('The page to revert'),
      revision: IdSchema.optional().describe("Revision to revert the page to; the change request's base when omitted"),
    }),
    z.object({ operation: z.literal('insert_files'), files: z.array(FileInputSchema).min(1).max(20) }),
    z
      .object({
        operation: z.literal('insert_reusable_content'),
        title: ReusableContentTitleSchema,
        document: DocumentInputSchema,
      })
      .describe(
        'Quire-only (GitBook writes reusable contents in its editor, not through this API): a new reusable content; ' +
          'its id is listed in the revision (`reusableContents`) and pages include it as `{% include "<id>" %}`',
      ),
    z
      .object({
        operation: z.literal('update_reusable_content'),
        reusableContent: IdSchema.describe('The reusable content to update'),
        title: ReusableContentTitleSchema.optional(),
        document: DocumentInputSchema.optional(),
      })
      .describe('Quire-only: a new title and/or document for a reusable content of the change request'),
    z
      .object({
        operation: z.literal('delete_reusable_content'),
        reusableContent: IdSchema.describe('The reusable content to delete'),
      })
      .describe('Quire-only: deletes a reusable content of the change request (pages including it show nothing)'),
  ])
  .describe('ChangeRequestContentChange');
export type ContentChange = z.infer<typeof ContentChangeSchema>;

export const MergeResultSchema = z
  .object({
    revision: z.string().describe('The revision the operation produced'),
    result: z
      .enum(['merge', 'update', 'conflicts'])
      .describe('`merge`/`update` when clean; `conflicts` when pages kept both sides between conflict markers'),
  })
  .describe('ChangeRequestMergeResult');
