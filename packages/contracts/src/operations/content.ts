import { z } from 'zod';
import { listOf, PageQueryShape, queryBoolean } from '../common.ts';
import { operationsOf, type HttpRoute } from '../operation.ts';
import { changeRequestId, fileId, pageId, pagePath, spaceId } from '../params.ts';
import { RevisionSemanticChangesSchema } from '../schemas/revision-changes.ts';
import { ChangeRequestSchema } from '../schemas/change-request.ts';
import { checkDocumentInput } from '../limits.ts';
import {
  ContentChangeSchema,
  MergeResultSchema,
  RevisionFileSchema,
  RevisionPageSchema,
  RevisionSchema,
} from '../schemas/revision.ts';
import { REVISION_SCOPES as where, type RevisionScope as Where } from './resources.ts';

const op = operationsOf('content', { tags: ['content'] });

const RevisionQuery = {
  metadata: queryBoolean('Include mutable metadata (default true)').optional(),
  computed: queryBoolean('Compute computed content (default true; Quire has no computed pages)').optional(),
};
const PageQuery = {
  ...RevisionQuery,
  format: z
    .enum(['document', 'markdown'])
    .optional()
    .describe('Include the document: `markdown` (`{markdown}`) or `document` (the JSON document)'),
  evaluated: z
    .union([queryBoolean('Evaluate dynamic parts of the document'), z.literal('deterministic-only')])
    .optional()
    .describe(
      'Evaluate dynamic parts of the document (default false; Quire documents have none, so the document is the same)',
    ),
};
const PagesSchema = z.object({ pages: z.array(RevisionPageSchema).describe('The page tree') });

function http(of: Where, suffix: string, operationId: string, summary: string, greedy?: string): HttpRoute {
  return { route: `GET ${where[of].prefix}${suffix}`, operationId, summary, ...(greedy ? { greedy } : {}) };
}

export const getCurrentRevision = op({
  id: 'content.getRevision',
  access: 'reader',
  input: z.object({ ...where.space.ids, ...RevisionQuery }),
  output: RevisionSchema,
  http: http('space', '', 'getCurrentRevision', 'Get the live revision of a space: its page tree and files'),
});
export const getRevisionOfChangeRequestById = op({
  id: 'content.getRevisionOfChangeRequest',
  input: z.object({ ...where.changeRequest.ids, ...RevisionQuery }),
  output: RevisionSchema,
  http: http('changeRequest', '', 'getRevisionOfChangeRequestById', 'Get the current revision of a change request'),
});
export const getRevisionById = op({
  id: 'content.getRevisionById',
  access: 'reader',
  input: z.object({ ...where.revision.ids, ...RevisionQuery }),
  output: RevisionSchema,
  http: http('revision', '', 'getRevisionById', 'Get a revision of a space'),
});

export const listPages = op({
  id: 'content.listPages',
  access: 'reader',
  input: z.object({ ...where.space.ids, ...RevisionQuery }),
  output: PagesSchema,
  http: http('space', '/pages', 'listPages', 'List the pages (as a tree) of the live revision'),
});
export const listPagesInChangeRequest = op({
  id: 'content.listPagesInChangeRequest',
  input: z.object({ ...where.changeRequest.ids, ...RevisionQuery }),
  output: PagesSchema,
  http: http('changeRequest', '/pages', 'listPagesInChangeRequest', 'List the pages of a change request'),
});
export const listPagesInRevisionById = op({
  id: 'content.listPagesInRevision',
  access: 'reader',
  input: z.object({ ...where.revision.ids, ...RevisionQuery }),
  output: PagesSchema,
  http: http('revision', '/pages', 'listPagesInRevisionById', 'List the pages of a revision'),
});

export const getPageById = op({
  id: 'content.getPage',
  access: 'reader',
  input: z.object({ ...where.space.ids, pageId, ...PageQuery }),
  output: RevisionPageSchema,
  http: http('space', '/page/{pageId}', 'getPageById', 'Get a page of the live revision by its id'),
});
export const getPageInChangeRequestById = op({
  id: 'content.getPageInChangeRequest',
  input: z.object({ ...where.changeRequest.ids, pageId, ...PageQuery }),
  output: RevisionPageSchema,
  http: http(
    'changeRequest',
    '/page/{pageId}',
    'getPageInChangeRequestById',
    'Get a page of a change request by its id',
  ),
});
export const getPageInRevisionById = op({
  id: 'content.getPageInRevision',
  access: 'reader',
  input: z.object({ ...where.revision.ids, pageId, ...PageQuery }),
  output: RevisionPageSchema,
  http: http('revision', '/page/{pageId}', 'getPageInRevisionById', 'Get a page of a revision by its id'),
});

/** GitBook's `dereferenced`: the reusable contents a document includes, expanded in place (their blocks). */
const dereferenced = z
  .union([queryBoolean('Expand references to other content'), z.literal('reusable-contents')])
  .optional()
  .describe(
    'Expand references to other content (`true`) or reusable contents only (`reusable-contents`): each ' +
      '`reusable-content` block is replaced by the blocks of the reusable content it includes',
  );
const PageDocumentSchema = z
  .looseObject({
    object: z.literal('document').describe('Always `document`'),
    data: z.record(z.string(), z.unknown()).describe('Options of the document (`schemaVersion`, `frontMatter`)'),
    nodes: z.array(z.record(z.string(), z.unknown())).describe('The blocks of the document, in order'),
  })
  .describe("A page's document in GitBook's JSON form (JSONDocument)");

export const getPageDocumentInRevisionById = op({
  id: 'content.getPageDocumentInRevision',
  access: 'reader',
  input: z.object({ ...where.revision.ids, pageId, evaluated: PageQuery.evaluated, dereferenced }),
  output: PageDocumentSchema,
  http: http(
    'revision',
    '/page/{pageId}/document',
    'getPageDocumentInRevisionById',
    "Get the JSON document of a page in a revision (a group's or a link's: 404)",
  ),
});

export const getPageByPath = op({
  id: 'content.getPageByPath',
  access: 'reader',
  input: z.object({ ...where.space.ids, pagePath, ...PageQuery }),
  output: RevisionPageSchema,
  http: http('space', '/path/{pagePath}', 'getPageByPath', 'Get a page of the live revision by its path', 'pagePath'),
});
export const getPageInChangeRequestByPath = op({
  id: 'content.getPageInChangeRequestByPath',
  input: z.object({ ...where.changeRequest.ids, pagePath, ...PageQuery }),
  output: RevisionPageSchema,
  http: http(
    'changeRequest',
    '/path/{pagePath}',
    'getPageInChangeRequestByPath',
    'Get a page of a change request by its path',
    'pagePath',
  ),
});
export const getPageInRevisionByPath = op({
  id: 'content.getPageInRevisionByPath',
  access: 'reader',
  input: z.object({ ...where.revision.ids, pagePath, ...PageQuery }),
  output: RevisionPageSchema,
  http: http(
    'revision',
    '/path/{pagePath}',
    'getPageInRevisionByPath',
    'Get a page of a revision by its path',
    'pagePath',
  ),
});

export const listFiles = op({
  id: 'content.listFiles',
  access: 'reader',
  input: z.object({ ...where.space.ids, ...PageQueryShape, ...RevisionQuery }),
  output: listOf(RevisionFileSchema),
  http: http('space', '/files', 'listFiles', 'List the files of the live revision'),
});
export const listFilesInChangeRequestById = op({
  id: 'content.listFilesInChangeRequest',
  input: z.object({ ...where.changeRequest.ids, ...PageQueryShape, ...RevisionQuery }),
  output: listOf(RevisionFileSchema),
  http: http('changeRequest', '/files', 'listFilesInChangeRequestById', 'List the files of a change request'),
});
export const listFilesInRevisionById = op({
  id: 'content.listFilesInRevision',
  access: 'reader',
  input: z.object({ ...where.revision.ids, ...PageQueryShape, ...RevisionQuery }),
  output: listOf(RevisionFileSchema),
  http: http('revision', '/files', 'listFilesInRevisionById', 'List the files of a revision'),
});

export const getFileById = op({
  id: 'content.getFile',
  access: 'reader',
  input: z.object({ ...where.space.ids, fileId, ...RevisionQuery }),
  output: RevisionFileSchema,
  http: http('space', '/files/{fileId}', 'getFileById', 'Get a file of the live revision'),
});
export const getFileInChangeRequestById = op({
  id: 'content.getFileInChangeRequest',
  input: z.object({ ...where.changeRequest.ids, fileId, ...RevisionQuery }),
  output: RevisionFileSchema,
  http: http('changeRequest', '/files/{fileId}', 'getFileInChangeRequestById', 'Get a file of a change request'),
});
export const getFileInRevisionById = op({
  id: 'content.getFileInRevision',
  access: 'reader',
  input: z.object({ ...where.revision.ids, fileId, ...RevisionQuery }),
  output: RevisionFileSchema,
  http: http('revision', '/files/{fileId}', 'getFileInRevisionById', 'Get a file of a revision'),
});

export const getRevisionSemanticChanges = op({
  id: 'content.getRevisionChanges',
  input: z.object({
    ...where.revision.ids,
    limit: z.coerce.number().int().min(1).max(1000).optional().describe('At most this many changes'),
  }),
  output: RevisionSemanticChangesSchema,
  http: http('revision', '/changes', 'getRevisionSemanticChanges', 'The changes a revision made to its first parent'),
});

const cr = operationsOf('content', { tags: ['change-requests'] });

/** A change whose document nests past the limits is a 400 naming it (`changes.2.document.markdown: nests more than …`). */
const ContentChangeWithLimits = ContentChangeSchema.superRefine((change, ctx) => {
  if ('document' in change) checkDocumentInput(change.document, ['document'], ctx);
});

export const updateChangeRequestContent = cr({
  id: 'changeRequests.updateContent',
  input: z.object({
    spaceId,
    changeRequestId,
    changes: z
      .array(ContentChangeWithLimits)
      .min(1)
      .max(50)
      .describe('Changes applied atomically into one new revision (1..50)'),
  }),
  output: ChangeRequestSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/content',
    operationId: 'updateChangeRequestContent',
    summary:
      'Change the content of a change request: insert, update, delete, revert pages, insert files, and (Quire-only ' +
      'changes) insert, update, delete reusable contents (atomically)',
  },
});

export const getChangeRequestChanges = cr({
  id: 'changeRequests.getChanges',
  input: z.object({
    spaceId,
    changeRequestId,
    limit: z.coerce.number().int().min(1).max(1000).optional().describe('At most this many changes'),
  }),
  output: RevisionSemanticChangesSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/changes',
    operationId: 'getChangeRequestChanges',
    summary: 'The changes of a change request against its merge base, conflicted pages marked',
  },
});

export const mergeChangeRequest = cr({
  id: 'changeRequests.merge',
  input: z.object({ spaceId, changeRequestId }),
  output: MergeResultSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/merge',
    operationId: 'mergeChangeRequest',
    summary: 'Merge a change request into its space (three-way; conflicts keep both sides)',
  },
});

export const updateChangeRequest = cr({
  id: 'changeRequests.updateFromMain',
  input: z.object({ spaceId, changeRequestId }),
  output: MergeResultSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/update',
    operationId: 'updateChangeRequest',
    summary: 'Bring the live content of the space into a change request (three-way; conflicts keep both sides)',
  },
});
