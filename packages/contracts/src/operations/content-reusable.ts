import { z } from 'zod';
import { IdSchema, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, revisionId, spaceId } from '../params.ts';
import { RevisionReusableContentSchema } from '../schemas/revision.ts';

const op = operationsOf('content', { tags: ['content'] });

/**
 * GitBook's reusable content: blocks of content a revision holds beside its pages, which pages include
 * (`{% include "<id>" %}`, a `reusable-content` block). Written in a change request (`updateChangeRequestContent`'s
 * `insert_reusable_content`, `update_reusable_content`, `delete_reusable_content`: Quire's, GitBook's API has none),
 * merged with it, read at any revision.
 */
const reusableContentId = IdSchema.describe('The unique id of the reusable content');

const RevisionQuery = {
  metadata: queryBoolean('Include mutable metadata (default true)').optional(),
  computed: queryBoolean('Compute computed content (default true; Quire has no computed content)').optional(),
};

const DocumentSchema = z
  .looseObject({
    object: z.literal('document').describe('Always `document`'),
    data: z.record(z.string(), z.unknown()).describe('Options of the document'),
    nodes: z.array(z.record(z.string(), z.unknown())).describe('The blocks of the document, in order'),
  })
  .describe("The document of a reusable content in GitBook's JSON form (JSONDocument)");

export const getReusableContentById = op({
  id: 'reusableContents.get',
  access: 'reader',
  input: z.object({ spaceId, reusableContentId, ...RevisionQuery }),
  output: RevisionReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/content/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentById',
    summary: 'Get a reusable content of the live revision by its id',
  },
});
export const getReusableContentInChangeRequestById = op({
  id: 'reusableContents.getInChangeRequest',
  input: z.object({ spaceId, changeRequestId, reusableContentId, ...RevisionQuery }),
  output: RevisionReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentInChangeRequestById',
    summary: 'Get a reusable content of a change request by its id',
  },
});
export const getReusableContentInRevisionById = op({
  id: 'reusableContents.getInRevision',
  access: 'reader',
  input: z.object({ spaceId, revisionId, reusableContentId, ...RevisionQuery }),
  output: RevisionReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentInRevisionById',
    summary: 'Get a reusable content of a revision by its id',
  },
});
export const getReusableContentDocumentInRevisionById = op({
  id: 'reusableContentDocuments.getInRevision',
  access: 'reader',
  input: z.object({
    spaceId,
    revisionId,
    reusableContentId,
    evaluated: z
      .union([queryBoolean('Evaluate dynamic parts'), z.literal('deterministic-only')])
      .optional()
      .describe('Evaluate dynamic parts of the document'),
    dereferenced: z
      .union([queryBoolean('Expand references'), z.literal('reusable-contents')])
      .optional()
      .describe('Expand the reusable contents it includes (`true` or `reusable-contents`): their blocks in place'),
  }),
  output: DocumentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document',
    operationId: 'getReusableContentDocumentInRevisionById',
    summary: 'Get the JSON document of a reusable content of a revision',
  },
});
