import { z } from 'zod';
import { operationsOf } from '../operation.ts';
import { changeRequestId, spaceId } from '../params.ts';
import { ImportContentResultSchema, ImportContentShape } from '../schemas/import.ts';

const op = operationsOf('content', { tags: ['content'] });

export const importContent = op({
  id: 'content.import',
  input: z.object({ spaceId, ...ImportContentShape }),
  output: ImportContentResultSchema,
  http: {
    route: 'POST /spaces/{spaceId}/content/import',
    status: 201,
    operationId: 'importContent',
    summary: 'Import a website into a space: its pages, their tree and images, in a change request merged at once',
  },
});

export const importContentInChangeRequest = op({
  id: 'content.importInChangeRequest',
  input: z.object({ spaceId, changeRequestId, ...ImportContentShape }),
  output: ImportContentResultSchema,
  http: {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
    status: 201,
    operationId: 'importContentInChangeRequest',
    summary:
      'Import a website into a change request: its pages, their tree and images, in one new revision of the change request',
  },
});
