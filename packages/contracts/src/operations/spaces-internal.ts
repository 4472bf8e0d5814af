import { z } from 'zod';
import { IdSchema } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { SpaceSchema } from '../schemas/space.ts';

const op = operationsOf('content', { tags: ['spaces'] });

/**
 * Many spaces in one call, as the calling user sees them (signed as that user; not routed by the gateway: no
 * HTTP binding). The sites service embeds spaces in site spaces with it: one call per list, no N+1. Spaces the
 * caller cannot see, and unknown ids, are left out; a deleted space (until purged) carries `deletedAt`.
 */
export const getSpacesByIds = op({
  id: 'spaces.getMany',
  access: 'reader',
  input: z.object({ spaceIds: z.array(IdSchema).max(1000).describe('IDs of the spaces (duplicates are ignored)') }),
  output: z.object({ items: z.array(SpaceSchema).describe('The spaces the caller can see, in the order asked') }),
});
