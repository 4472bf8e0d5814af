import { z } from 'zod';
import { IdSchema, queryBoolean } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, revisionId, spaceId } from '../params.ts';

const op = operationsOf('content', { tags: ['content'] });

/**
 * GitBook's reusable content (blocks shared by pages and spaces). Quire stores none yet: each of these answers
 * 404 (`Reusable content not found: Quire stores no reusable content yet`) once the caller may read the revision.
 */
const reusableContentId = IdSchema.describe('The unique id of the reusable content');
const NONE = 'Quire stores no reusable content yet: always 404 (`not_found`) for a revision the caller may read';

const ReusableContentSchema = z
  .looseObject({
    id: IdSchema.describe('The reusable content'),
    title: z.string().describe('Its title'),
  })
  .describe("A reusable content of a revision (GitBook's RevisionReusableContent); never answered by Quire yet");
const DocumentSchema = z
  .looseObject({
    object: z.literal('document').describe('Always `document`'),
    nodes: z.array(z.record(z.string(), z.unknown())).describe('The blocks'),
  })
  .describe('The JSON document of a reusable content; never answered by Quire yet');

export const getReusableContentById = op({
  id: 'reusableContents.get',
  access: 'reader',
  input: z.object({ spaceId, reusableContentId }),
  output: ReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/content/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentById',
    summary: `Get a reusable content of the live revision. ${NONE}`,
  },
});
export const getReusableContentInChangeRequestById = op({
  id: 'reusableContents.getInChangeRequest',
  input: z.object({ spaceId, changeRequestId, reusableContentId }),
  output: ReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentInChangeRequestById',
    summary: `Get a reusable content of a change request. ${NONE}`,
  },
});
export const getReusableContentInRevisionById = op({
  id: 'reusableContents.getInRevision',
  access: 'reader',
  input: z.object({ spaceId, revisionId, reusableContentId }),
  output: ReusableContentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}',
    operationId: 'getReusableContentInRevisionById',
    summary: `Get a reusable content of a revision. ${NONE}`,
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
      .describe('Expand references to other content'),
  }),
  output: DocumentSchema,
  http: {
    route: 'GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document',
    operationId: 'getReusableContentDocumentInRevisionById',
    summary: `Get the document of a reusable content of a revision. ${NONE}`,
  },
});
