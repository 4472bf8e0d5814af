import { z } from 'zod';
import { listOf, PageQueryShape, queryNumber, REVISIONS_PAGE_SIZE } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { spaceId } from '../params.ts';
import { RevisionSchema } from '../schemas/revision.ts';

const op = operationsOf('content', { tags: ['content'] });

export const listRevisionsInSpace = op({
  id: 'content.listRevisions',
  input: z.object({
    spaceId,
    ...PageQueryShape,
    limit: queryNumber(z.number().int().min(0).max(REVISIONS_PAGE_SIZE.max))
      .optional()
      .describe(
        `The number of revisions per page (0..${REVISIONS_PAGE_SIZE.max}, default ${REVISIONS_PAGE_SIZE.default})`,
      ),
  }),
  output: listOf(RevisionSchema),
  http: {
    route: 'GET /spaces/{spaceId}/revisions',
    operationId: 'listRevisionsInSpace',
    summary:
      "Quire-only: list the space's history, newest first: each revision that was the live content (a merge, the " +
      'first revision), as `getRevisionById` returns it (a merge with the change request it merged, `mergedFrom`)',
  },
});
