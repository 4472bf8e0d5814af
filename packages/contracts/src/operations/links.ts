import { z } from 'zod';
import { listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, fileId, pageId, spaceId } from '../params.ts';
import { BacklinkItemSchema, LinksListSchema, LinkStatusSchema } from '../schemas/link.ts';

const op = operationsOf('content', { tags: ['content'] });

const LinksQuery = {
  ...PageQueryShape,
  status: LinkStatusSchema.optional().describe('Only the links of this status: `ok`, `broken` or `in-app`'),
};
const SPACE = '/spaces/{spaceId}/content';
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}/content';

export const listSpaceLinks = op({
  id: 'links.list',
  input: z.object({ spaceId, ...LinksQuery }),
  output: LinksListSchema,
  http: {
    route: 'GET /spaces/{spaceId}/links',
    operationId: 'listSpaceLinks',
    summary: 'List the links of the live revision of a space, each classified ok, broken or in-app',
  },
});

export const listPageLinks = op({
  id: 'links.listOfPage',
  input: z.object({ spaceId, pageId, ...LinksQuery }),
  output: LinksListSchema,
  http: {
    route: `GET ${SPACE}/page/{pageId}/links`,
    operationId: 'listPageLinks',
    summary: 'List the links of a page of the live revision, each classified ok, broken or in-app',
  },
});

export const listPageLinksInChangeRequest = op({
  id: 'links.listOfPageInChangeRequest',
  input: z.object({ spaceId, changeRequestId, pageId, ...LinksQuery }),
  output: LinksListSchema,
  http: {
    route: `GET ${CR}/page/{pageId}/links`,
    operationId: 'listPageLinksInChangeRequest',
    summary: 'List the links of a page of a change request, each classified ok, broken or in-app',
  },
});

export const listFileBacklinks = op({
  id: 'backlinks.list',
  input: z.object({ spaceId, fileId, ...PageQueryShape }),
  output: listOf(BacklinkItemSchema),
  http: {
    route: `GET ${SPACE}/files/{fileId}/backlinks`,
    operationId: 'listFileBacklinks',
    summary: 'List the pages of the live revision that reference a file',
  },
});

export const listFileBacklinksInChangeRequest = op({
  id: 'backlinks.listInChangeRequest',
  input: z.object({ spaceId, changeRequestId, fileId, ...PageQueryShape }),
  output: listOf(BacklinkItemSchema),
  http: {
    route: `GET ${CR}/files/{fileId}/backlinks`,
    operationId: 'listFileBacklinksInChangeRequest',
    summary: 'List the pages of a change request that reference a file',
  },
});
