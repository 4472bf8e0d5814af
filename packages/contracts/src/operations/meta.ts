import { z } from 'zod';
import { EmptySchema } from '../common.ts';
import { operationsOf } from '../operation.ts';

const op = operationsOf('org-admin', { tags: ['api'] });

export const getApiInformation = op({
  id: 'meta.get',
  input: EmptySchema,
  output: z
    .object({
      version: z.string().describe('Version of the API'),
      build: z.string().describe('Build of the running instance'),
    })
    .describe('ApiInformation'),
  http: { route: 'GET /', operationId: 'getApiInformation', summary: 'Get information about the API' },
});
