import { z } from 'zod';
import { listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { organizationId, spaceId } from '../params.ts';
import { TEXT_LIMITS, wordCount } from '../limits.ts';
import { SEARCH_QUERY_MAX, SearchPageResultSchema, SearchSpaceResultSchema } from '../schemas/search.ts';

const op = operationsOf('content', { tags: ['search'] });

const SearchQuery = {
  query: z
    .string()
    .max(SEARCH_QUERY_MAX)
    .refine((q) => wordCount(q) <= TEXT_LIMITS.searchQueryTerms, {
      message: `at most ${TEXT_LIMITS.searchQueryTerms} words`,
    })
    .describe(
      `Words to find (max ${SEARCH_QUERY_MAX} characters, ${TEXT_LIMITS.searchQueryTerms} words), stemmed: \`"quoted phrase"\`, \`-word\` to exclude, \`or\` between alternatives; the last word also matches as a prefix`,
    ),
  ...PageQueryShape,
};

export const searchSpaceContent = op({
  id: 'content.search',
  input: z.object({ spaceId, ...SearchQuery }),
  output: listOf(SearchPageResultSchema),
  http: {
    route: 'GET /spaces/{spaceId}/search',
    operationId: 'searchSpaceContent',
    summary: 'Full-text search of the pages of the live revision of a space, best match first',
  },
});

export const searchOrganizationContent = op({
  id: 'content.searchInOrg',
  input: z.object({ organizationId, ...SearchQuery }),
  output: listOf(SearchSpaceResultSchema).describe(
    'The matching pages of the spaces the caller can read, ranked together, paged (`limit` pages of results per page), grouped by space; `count` is the number of matching pages',
  ),
  http: {
    route: 'GET /orgs/{organizationId}/search',
    operationId: 'searchOrganizationContent',
    summary:
      'Full-text search of the live content of every space of the organization the caller can read, grouped by space',
  },
});
