import { z } from 'zod';
import { listOf, PageQueryShape } from '../common.ts';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId, userId } from '../params.ts';
import {
  ChangeRequestSchema,
  ChangeRequestStatusSchema,
  ChangeRequestSubjectSchema,
  SettableChangeRequestStatusSchema,
} from '../schemas/change-request.ts';

const op = operationsOf('content', { tags: ['change-requests'] });

export const listChangeRequestsForSpace = op({
  id: 'changeRequests.list',
  input: z.object({
    spaceId,
    ...PageQueryShape,
    status: ChangeRequestStatusSchema.default('open').describe(
      'Only change requests with this status (`open` by default)',
    ),
    contributor: userId.optional().describe('Only change requests this user contributed to'),
  }),
  output: listOf(ChangeRequestSchema),
  http: {
    route: 'GET /spaces/{spaceId}/change-requests',
    operationId: 'listChangeRequestsForSpace',
    summary: 'List the change requests of a space (open ones by default), newest first',
  },
});

export const createChangeRequest = op({
  id: 'changeRequests.create',
  input: z.object({
    spaceId,
    subject: ChangeRequestSubjectSchema.optional(),
    agentTaskId: z.string().max(256).optional().describe('Id of the agent task the change request was opened for'),
  }),
  output: ChangeRequestSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests',
    status: 201,
    operationId: 'createChangeRequest',
    summary: 'Create a change request from the current content of the space',
  },
});

export const getChangeRequestById = op({
  id: 'changeRequests.get',
  input: z.object({ spaceId, changeRequestId }),
  output: ChangeRequestSchema,
  http: {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}',
    operationId: 'getChangeRequestById',
    summary: 'Get a change request by its id or number',
  },
});

export const updateChangeRequestById = op({
  id: 'changeRequests.update',
  input: z.object({
    spaceId,
    changeRequestId,
    subject: ChangeRequestSubjectSchema.optional(),
    status: SettableChangeRequestStatusSchema.optional(),
  }),
  output: ChangeRequestSchema,
  http: {
    route: 'PATCH /spaces/{spaceId}/change-requests/{changeRequestId}',
    operationId: 'updateChangeRequestById',
    summary: 'Change the subject or status (draft, open, archived) of a change request',
  },
});
