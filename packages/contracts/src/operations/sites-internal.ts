import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { MembersToCountSchema } from '../schemas/member.ts';
import { organizationId, spaceId } from '../params.ts';

const op = operationsOf('sites', { tags: ['sites'] });

/**
 * content → sites: the published URL of a space reached through a share key (`GET /v1/spaces/{spaceId}?shareKey=`):
 * the URL of the first site space showing the space in the published `share-link` site that owns the active key,
 * with the key; null when the key opens nothing (unknown, inactive, deleted, another site, or the space is not on it).
 */
export const resolveShareLink = op({
  id: 'shareLinks.resolve',
  access: 'internal',
  input: z.object({ spaceId, shareKey: z.string().min(1).max(256).describe('The share key given by the caller') }),
  output: z.object({
    publishedUrl: z.string().nullable().describe('Published URL of the space with the key, or null'),
  }),
});

/** org-admin → sites: how many sites each member can read (`Member.sites`). */
export const countMemberSites = op({
  id: 'sites.countForMembers',
  access: 'internal',
  input: z.object({
    organizationId,
    members: MembersToCountSchema,
  }),
  output: z.object({ counts: z.record(z.string(), z.number().int()).describe('Sites count by user id') }),
});
