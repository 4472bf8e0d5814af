import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { openToReaders, operationsOf, type OperationId } from '../operation.ts';
import { pageId, spaceId } from '../params.ts';
import { EmbedSchema, RevisionPageMetaLinksSchema } from '../schemas/renderer.ts';
import { REVISION_SCOPES as where, type RevisionScope as Where } from './resources.ts';

const op = operationsOf('content', { tags: ['content'] });

/**
 * What GitBook's site renderer reads beside pages (issue 42): a page's meta links, documents by id, computed
 * documents and embeds, in GitBook's wire format with its operationIds.
 */

/** The meta links of a page of one of the three revisions a content read is for (`REVISION_SCOPES`). */
const metaLinks = <const Id extends OperationId>(of: Where, id: Id, operationId: string, summary: string) =>
  op({
    id,
    input: z.object({ ...where[of].ids, pageId }),
    output: RevisionPageMetaLinksSchema,
    http: {
      route: `GET ${where[of].prefix}/page/{pageId}/meta-links`,
      operationId,
      summary: `List the meta links (canonical, alternates) of a page of ${summary}; Quire pages declare none yet, so a document page answers \`{alternates: []}\``,
    },
  });

export const listSpacePageMetaLinks = openToReaders(
  metaLinks('space', 'pageMetaLinks.list', 'listSpacePageMetaLinks', 'the live revision'),
);
export const listChangeRequestPageMetaLinks = metaLinks(
  'changeRequest',
  'pageMetaLinks.listInChangeRequest',
  'listChangeRequestPageMetaLinks',
  'a change request',
);
export const listRevisionPageMetaLinks = openToReaders(
  metaLinks('revision', 'pageMetaLinks.listInRevision', 'listRevisionPageMetaLinks', 'a revision'),
);

const DocumentSchemaVersion = z
  .enum(['current', 'next'])
  .optional()
  .describe("Version of the document schema (GitBook's `schema`; Quire has one: both answer the same)");

const JSONDocumentOutput = z
  .looseObject({
    object: z.literal('document').describe('Always `document`'),
    data: z.record(z.string(), z.unknown()).describe('Options of the document (`schemaVersion`, `frontMatter`)'),
    nodes: z.array(z.record(z.string(), z.unknown())).describe('The blocks of the document, in order'),
  })
  .describe("A document in GitBook's JSON form (JSONDocument)");

export const getDocumentById = op({
  id: 'documents.get',
  access: 'reader',
  input: z.object({
    spaceId,
    documentId: IdSchema.describe("The id of the document (a page's `documentId`)"),
    schema: DocumentSchemaVersion,
  }),
  output: JSONDocumentOutput,
  http: {
    route: 'GET /spaces/{spaceId}/documents/{documentId}',
    operationId: 'getDocumentById',
    summary:
      "Get a document of the space by its id (the `documentId` of a page of one of the space's revisions; a reader: of a page of the live revision it may read, evaluated)",
  },
});

export const getComputedDocument = op({
  id: 'computedDocuments.get',
  access: 'reader',
  input: z.object({
    spaceId,
    schema: DocumentSchemaVersion,
    source: z
      .looseObject({
        type: z
          .string()
          .min(1)
          .max(200)
          .describe('The source: `builtin:openapi`, `builtin:translation` or `integration:{name}:{source}`'),
        props: z.record(z.string(), z.unknown()).optional().describe('What the source computes the document from'),
      })
      .describe('The computed content source of the document'),
    seed: z.string().max(200).describe('Seed of the ids of the blocks made'),
  }),
  output: JSONDocumentOutput,
  http: {
    route: 'POST /spaces/{spaceId}/content/computed/document',
    operationId: 'getComputedDocument',
    summary:
      'Compute a document from a content source; Quire has no computed content source yet, so every source answers 400 naming `source.type`',
  },
});

const EmbedUrl = z
  .string()
  .min(1)
  .max(2048)
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'an absolute http(s) URL')
  .describe('The URL to describe (http or https)');

export const getEmbedByUrl = op({
  id: 'embeds.get',
  input: z.object({ url: EmbedUrl }),
  output: EmbedSchema,
  http: {
    route: 'GET /urls/embed',
    operationId: 'getEmbedByUrl',
    summary:
      "Describe a URL for an embed block: the page's oEmbed, else its OpenGraph or `<title>`; a link card when unreachable",
  },
});

export const getEmbedByUrlInSpace = op({
  id: 'embeds.getInSpace',
  access: 'reader',
  input: z.object({ spaceId, url: EmbedUrl }),
  output: EmbedSchema,
  http: {
    route: 'GET /spaces/{spaceId}/embed',
    operationId: 'getEmbedByUrlInSpace',
    summary: 'Describe a URL for an embed block of a space (as `getEmbedByUrl`, for those who can read the space)',
  },
});
