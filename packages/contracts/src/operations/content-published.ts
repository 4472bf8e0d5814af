import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { revisionId, spaceId } from '../params.ts';
import { SEARCH_QUERY_MAX, SearchPageResultSchema } from '../schemas/search.ts';
import { RevisionFileSchema, RevisionPageSchema } from '../schemas/revision.ts';

const op = operationsOf('content', { tags: ['content'] });

/**
 * sites → content: what a published site renders. The sites service decides who may read a site (its
 * audience, share links, visitor tokens, conditions) and asks content, as a service, only for the spaces the
 * site publishes; these operations are never routed by the gateway.
 */

/** The live revision of a space: its page tree and files (with signed download links). Deleted spaces are 404. */
export const getPublishedRevision = op({
  id: 'publishedRevisions.get',
  access: 'internal',
  input: z.object({ spaceId }),
  output: z.object({
    space: z.object({ id: IdSchema, organization: IdSchema, title: z.string() }).describe('The space'),
    revision: z
      .object({ id: IdSchema, createdAt: z.string().describe('When the revision was made') })
      .describe('Its live revision'),
    pages: z.array(RevisionPageSchema).describe('The page tree, nested, in order'),
    files: z.array(RevisionFileSchema).describe('The files of the revision'),
  }),
});

/** Documents of pages of a revision of the space, as JSON documents or markdown (unknown ids are left out). */
export const listPublishedPageDocuments = op({
  id: 'publishedPages.list',
  access: 'internal',
  input: z.object({
    spaceId,
    revisionId,
    pageIds: z.array(IdSchema).min(1).max(1000).describe('The pages'),
    format: z.enum(['document', 'markdown']).describe('JSON documents or markdown'),
  }),
  output: z.object({
    items: z
      .array(
        z.object({
          id: IdSchema,
          document: z.record(z.string(), z.unknown()).optional(),
          markdown: z.string().optional(),
        }),
      )
      .describe('The documents asked for, in the order asked'),
  }),
});

/** Full-text search of the live content of these spaces (the spaces a published site shows), best first. */
export const searchPublishedContent = op({
  id: 'publishedContent.search',
  access: 'internal',
  input: z.object({
    spaceIds: z.array(IdSchema).min(1).max(1000).describe('The spaces to search'),
    query: z.string().min(1).max(SEARCH_QUERY_MAX).describe('Words to find'),
    limit: z.number().int().min(1).max(100).default(20).describe('How many pages'),
  }),
  output: z.object({
    items: z.array(z.object({ space: IdSchema, page: SearchPageResultSchema })).describe('Matching pages, best first'),
  }),
});
